# SPDX-License-Identifier: GPL-2.0-or-later
"""kerneltext.py - the kernel's own trace text and tdat report -N's, as
events to compare (tests/vm/crash-check, tests/vm/vmcore-check).

Each event is (cpu, timestamp text, names): the names a line gives of
kernel functions and symbols (the function tracer's function and
caller, stack frames, timer functions), as the kernel prints them or as
tdat names the same event.
"""
import re

EVENT_K = re.compile(r'^\s*.*?-\d+\s+\[(\d+)\]\s+\S+\s+(\d+\.\d+): (.*)$')
EVENT_T = re.compile(r'\[(\d+)\]\s+(\d+\.\d+): (\S+):\s*(.*)$')


def kernel_events(path):
    """(cpu, ts, names) per event of the kernel's text at path."""
    out = []
    for line in open(path, errors='replace'):
        line = line.rstrip('\n')
        if line.startswith('#'):
            continue
        m = re.match(r'^\s*=> (\S+)', line)
        if m and out:
            out[-1][2].append(m.group(1))
            continue
        m = EVENT_K.match(line)
        if not m:
            continue
        text, names = m.group(3), []
        f = re.match(r'^(\S+) <-(\S+)$', text)
        if f:
            names = [f.group(1), f.group(2)]
        names += re.findall(r'function=([A-Za-z_][\w.]*)\+0x', text)
        out.append((int(m.group(1)), m.group(2), names))
    return out


def tdat_events(lines):
    """(cpu, ts, names) per event of tdat report -N's lines."""
    out = []
    for line in lines:
        m = re.match(r'^\s*=> (\S+)', line)
        if m and out:
            if not m.group(1).startswith('0x'):
                out[-1][2].append(m.group(1))
            continue
        m = EVENT_T.search(line)
        if not m:
            continue
        name, rest, names = m.group(3), m.group(4), []
        if name == 'function':
            f = re.match(r'^(\S+) <-- (\S+)', rest)
            names = [f.group(1), f.group(2)] if f else []
        elif name in ('timer_start', 'workqueue_execute_start'):
            names = re.findall(r'function[= ]([A-Za-z_][\w.]*)', rest)
        elif name == 'kernel_stack':
            f = re.match(r'^\s*=> (\S+)', rest)
            names = [f.group(1)] if f else []
        out.append((int(m.group(1)), m.group(2), names))
    return out


def compare_names(kev, tev, failed):
    """Every name the kernel gives, event by event, is tdat's name of the
    same event; failures appended to failed.  The names compared."""
    by_key = {}
    for cpu, ts, names in tev:
        by_key.setdefault((cpu, ts), []).append(names)
    compared = 0
    for cpu, ts, names in kev:
        if not names:
            continue
        theirs = by_key.get((cpu, ts), [])
        if names not in theirs:
            failed.append('[%03d] %s: the kernel names %s, tdat %s'
                          % (cpu, ts, names, theirs))
        compared += len(names)
    return compared
