#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""pfcheck.py - a Perfetto trace made by `tdat convert --to perfetto`,
read by Perfetto's own trace processor, against what `tdat report --json`
says of the same input(s).

usage: pfcheck.py TP TRACE REPORT.jsonl [--machine FILE=N]... [--atrace N]
                  [--text REPORT.txt] [--plain REPORT-N.txt]

TP runs the trace processor (../shared/tools/tp).  With several inputs
REPORT.jsonl names each event's "file", and --machine gives the Perfetto
machine that file is (the first input 0, the next 1...): each machine
has its own CPUs and threads.  --text: report's text of the same
input(s), which names the kernel functions of workqueue events (a typed
event's address Perfetto shows by its interned name must be that name).
--plain: report -N's text of the same input(s), which shows each
sched_switch's prev_state as the recording's own print fmt reads it.
Checks, each failing with a line that
says what and where:
  * the trace loads, and `stats` holds no import error (severity error
    or data_loss) but a sched_switch chain the recording itself breaks
    (as many as it breaks) and data loss on CPUs that report says lost
    events;
  * per event name, the ftrace_event rows equal report's events;
  * `sched`: per CPU one slice per sched_switch, at its time, of its
    next_pid, ending at the CPU's next switch (open at a broken chain and
    at the end), its end_state the same for the same prev_state;
  * --plain: per state, as many thread_state rows a switch leaves (no
    waker) as report -N shows sched_switch events of a task (pid != 0)
    leaving in that state: its letters, R and R+ apart (D|N is Perfetto's
    I, the idle wait it is);
  * every thread report names (pid != 0, comm not "<...>") has that name,
    and none but the idle task is in process 0;
  * cpufreq and cpuidle counters hold every cpu_frequency and cpu_idle
    value at its time, on its CPU;
  * every event's args: a self-describing event's are its report --json
    fields, every key and value (arrays as --json's text); a typed one's
    are fields of it with report's values (but sched_switch's
    prev_state: written in the bits Perfetto decodes, checked by --plain);
  * print's atrace B/E markers are slices of their name, at their time,
    ending at their E; --atrace N: there must be N of them.
"""
import collections
import csv
import io
import json
import re
import subprocess
import sys

# Sent as Perfetto's own messages (convert/perfetto/typed.c): their args
# are the message's fields, a subset of the format's.
TYPED = {
    'print', 'sched_switch', 'sched_waking', 'sched_wakeup',
    'sched_wakeup_new', 'sched_process_fork', 'sched_process_exec',
    'sched_process_exit', 'sched_process_free', 'sched_process_wait',
    'task_newtask', 'task_rename', 'cpu_frequency', 'cpu_idle',
    'irq_handler_entry', 'irq_handler_exit', 'softirq_entry',
    'softirq_exit', 'softirq_raise', 'workqueue_execute_start',
    'workqueue_execute_end', 'sys_enter', 'sys_exit', 'signal_generate',
    'signal_deliver', 'sched_migrate_task', 'workqueue_queue_work',
    'workqueue_activate_work', 'block_rq_issue', 'block_rq_insert',
    'block_rq_complete', 'mm_page_alloc', 'mm_page_free', 'kmalloc',
    'kmem_cache_alloc', 'kfree', 'kmem_cache_free', 'rss_stat',
}
problems = []


def bad(msg):
    if msg not in problems:
        problems.append(msg)


SPLIT = '@@pfcheck-split@@'


def query_all(tp, trace, sqls):
    """Each statement's rows as dicts, all from one trace processor run
    (each run loads the whole trace): the blocks are told apart by a
    statement printing SPLIT between them."""
    sep = "select '%s' as pfcheck_split;\n" % SPLIT
    text = sep.join(q.rstrip().rstrip(';') + ';\n' for q in sqls)
    r = subprocess.run([tp, '-q', '/dev/stdin', trace], input=text.encode(),
                       capture_output=True)
    if r.returncode:
        sys.exit('pfcheck: trace processor failed on %s:\n%s' %
                 (trace, r.stderr.decode(errors='replace')[-2000:]))
    out = r.stdout.decode(errors='surrogateescape')
    blocks = out.split('"pfcheck_split"\n"%s"\n' % SPLIT)
    if len(blocks) != len(sqls):
        sys.exit('pfcheck: %d answers to %d queries' % (len(blocks), len(sqls)))
    return [list(csv.DictReader(io.StringIO(b.strip('\n')))) for b in blocks]


class Tables:
    """The answers to every query the checks ask, fetched at once."""
    QUERIES = {
        'cpus': 'select c.id, c.cpu, m.raw_id from cpu c'
                ' join machine m on c.machine_id = m.id',
        'machines': 'select id, raw_id from machine',
        'stats': "select name, idx, severity, value from stats"
                 " where value > 0 and severity != 'info'",
        'counts': 'select name, count(*) n from ftrace_event group by name',
        'sched': 'select s.ts, s.dur, s.cpu, t.tid, s.end_state'
                 ' from sched s join thread t using(utid)',
        'threads': 'select tid, name, machine_id from thread',
        'in_pid0': 'select t.tid from thread t join process p using(upid)'
                   ' where p.pid = 0 and t.tid != 0',
        'cpufreq': 'select c.ts, t.cpu, t.machine_id, c.value from counter c'
                   ' join cpu_counter_track t on c.track_id = t.id'
                   " where t.name = 'cpufreq'",
        'cpuidle': 'select c.ts, t.cpu, t.machine_id, c.value from counter c'
                   ' join cpu_counter_track t on c.track_id = t.id'
                   " where t.name = 'cpuidle'",
        'args': 'select e.id, e.ts, e.cpu, e.name, a.key, a.value_type,'
                ' a.int_value, a.string_value from ftrace_event e'
                ' left join args a using(arg_set_id)',
        'slices': 'select ts, dur, name from slice',
        'states': 'select s.state, count(*) n from thread_state s'
                  ' join thread t using(utid) where s.waker_utid is null'
                  " and s.state is not 'Running' and t.tid != 0"
                  ' group by 1',
    }

    def __init__(self, tp, trace):
        names = list(self.QUERIES)
        rows = query_all(tp, trace, [self.QUERIES[n] for n in names])
        self.rows = dict(zip(names, rows))
        # a trace CPU (ucpu) as (machine, CPU), a machine id as the
        # machine_id the trace gives
        self.ucpu = {int(r['id']): (int(r['raw_id']), int(r['cpu']))
                     for r in self.rows['cpus']}
        self.machine = {int(r['id']): int(r['raw_id'])
                        for r in self.rows['machines']}

    def cpu(self, ucpu):
        return self.ucpu.get(int(ucpu), (0, int(ucpu)))

    def raw_machine(self, mid):
        return 0 if num(mid) is None else self.machine.get(int(mid), -1)


def query(tables, trace, name):
    return tables.rows[name]


def num(v):
    return None if v in (None, '[NULL]') else int(v)


def load_report(path, machines):
    events = []
    with open(path, encoding='utf-8', errors='surrogateescape') as f:
        for line in f:
            o = json.loads(line)
            o['machine'] = machines.get(o.get('file'), 0)
            o['tcpu'] = (o['machine'], o['cpu'])
            events.append(o)
    return events


def expected_mismatches(switches):
    last, n = {}, 0
    for o in switches:
        c, f = o['tcpu'], o['fields']
        if c in last and last[c] != f['prev_pid']:
            n += 1
        last[c] = f['next_pid']
    return n


def check_stats(tp, trace, events, switches):
    lost = {o['tcpu'] for o in events if o.get('missed_events')}
    mism = expected_mismatches(switches)
    rows = query(tp, trace, 'stats')
    got = sum(int(s['value']) for s in rows
              if s['name'] == 'mismatched_sched_switch_tids')
    for s in rows:
        name, idx, v = s['name'], num(s['idx']), int(s['value'])
        if name == 'mismatched_sched_switch_tids' and got == mism:
            continue    # one row a machine
        if name == 'ftrace_cpu_has_data_loss' and tp.cpu(idx) in lost:
            continue
        bad('stats: %s[%s] = %d (%s)%s' % (name, idx, v, s['severity'],
            ' (the recording breaks %d chains)' % mism
            if name.startswith('mismatched') else ''))


def check_counts(tp, trace, events):
    want = collections.Counter(o['event'] for o in events if o.get('event'))
    got = collections.Counter()
    for r in query(tp, trace, 'counts'):
        got[r['name']] = int(r['n'])
    for name in sorted(set(want) | set(got)):
        if want[name] != got[name]:
            bad('ftrace_event: %d rows of %s, report has %d' %
                (got[name], name, want[name]))


def check_sched(tp, trace, switches):
    per_cpu = collections.defaultdict(list)
    for o in switches:
        per_cpu[o['tcpu']].append(o)
    want = []
    for cpu, evs in per_cpu.items():
        evs.sort(key=lambda o: o['timestamp'])   # stable: file order kept
        for i, o in enumerate(evs):
            nxt = evs[i + 1] if i + 1 < len(evs) else None
            if nxt and nxt['fields']['prev_pid'] == o['fields']['next_pid']:
                want.append((o['timestamp'], nxt['timestamp'] - o['timestamp'],
                             cpu, o['fields']['next_pid'],
                             nxt['fields']['prev_state']))
            else:
                want.append((o['timestamp'], -1, cpu,
                             o['fields']['next_pid'], None))
    got = query(tp, trace, 'sched')
    gotk = collections.Counter((int(r['ts']), int(r['dur']), tp.cpu(r['cpu']),
                                int(r['tid'])) for r in got)
    wantk = collections.Counter(w[:4] for w in want)
    for k in sorted((wantk - gotk).keys())[:5]:
        bad('sched: no slice ts=%d dur=%d (machine, cpu)=%s tid=%d' % k)
    for k in sorted((gotk - wantk).keys())[:5]:
        bad('sched: a slice ts=%d dur=%d (machine, cpu)=%s tid=%d'
            ' no switch makes' % k)
    states = {w[:4]: w[4] for w in want}
    seen = {}
    for r in got:
        k = (int(r['ts']), int(r['dur']), tp.cpu(r['cpu']), int(r['tid']))
        ps, es = states.get(k), r['end_state']
        es = None if es == '[NULL]' else es
        if ps is None:
            if es is not None and k in states:
                bad('sched: open slice %s has end_state %s' % (k, es))
            continue
        if seen.setdefault(ps, es) != es:
            bad('sched: prev_state %d ends as %s and as %s' %
                (ps, seen[ps], es))


SWITCH_STATE = re.compile(r' prev_pid=(-?\d+) .*?prev_state=(\S*)')


def state_name(s):
    """A state as report -N prints it (S, D|K, R+), as Perfetto names
    the same state: its letters in one order, D|N (TASK_IDLE) as I."""
    if s is None or s == '[NULL]':
        return 'NULL'
    if s.startswith('R'):
        return s
    s = ''.join(sorted(s.replace('|', '')))
    return 'I' if s == 'DN' else s


def check_states(tp, trace, plain):
    want = collections.Counter()
    with open(plain, encoding='utf-8', errors='surrogateescape') as f:
        for line in f:
            m = ' sched_switch: ' in line and SWITCH_STATE.search(line)
            if m and int(m.group(1)) != 0:
                want[state_name(m.group(2))] += 1
    got = collections.Counter()
    for r in query(tp, trace, 'states'):
        got[state_name(r['state'])] += int(r['n'])
    for st in sorted(set(want) | set(got)):
        if want[st] != got[st]:
            bad('thread_state: %d rows of state %s, report -N shows %d'
                ' switches leaving in it' % (got[st], st, want[st]))


def check_threads(tp, trace, events):
    names = collections.defaultdict(set)
    for r in query(tp, trace, 'threads'):
        names[(tp.raw_machine(r['machine_id']), int(r['tid']))].add(r['name'])
    comms = {}
    for o in events:
        if o['pid'] and o['comm'] != '<...>':
            comms[(o['machine'], o['pid'])] = o['comm']
    for key, comm in sorted(comms.items()):
        if comm not in names.get(key, ()):
            bad('thread %d of machine %d: named %s, report says %s' %
                (key[1], key[0], sorted(names.get(key, ['none'])), comm))
    strays = [r['tid'] for r in query(tp, trace, 'in_pid0')]
    if strays:
        bad('threads %s are in process 0 (the idle task)' % strays[:5])


def check_counters(tp, trace, events):
    for ev, track in (('cpu_frequency', 'cpufreq'), ('cpu_idle', 'cpuidle')):
        want = collections.Counter(
            (o['timestamp'], o['machine'], o['fields']['cpu_id'],
             o['fields']['state'])
            for o in events if o.get('event') == ev)
        got = collections.Counter(
            (int(r['ts']), tp.raw_machine(r['machine_id']), int(r['cpu']),
             int(float(r['value'])))
            for r in query(tp, trace, track))
        if want != got:
            bad('%s: %d values, report has %d %s events; first missing %s' %
                (track, sum(got.values()), sum(want.values()), ev,
                 sorted(want - got)[:2]))


def json_text(v):
    return json.dumps(v, separators=(',', ':'), ensure_ascii=False)


def arg_value(r):
    t = r['value_type']
    if t == 'string':
        return r['string_value']
    v = int(r['int_value'])
    return v % (1 << 64) if t == 'uint' else v


KSYMS = {}
WQ_LINE = re.compile(r' (workqueue_[a-z_]+): .*function[ =]([^ \n]+)')


def report_functions(path, events):
    """Address -> name of the work functions report's text prints, its
    workqueue lines paired in order with --json's workqueue events."""
    with open(path, encoding='utf-8', errors='surrogateescape') as f:
        lines = [l for l in f if ': workqueue_' in l]
    wq = [o for o in events if o.get('system') == 'workqueue']
    if len(lines) != len(wq):
        sys.exit('pfcheck: %d workqueue lines in %s, %d events in --json' %
                 (len(lines), path, len(wq)))
    names = {}
    for line, o in zip(lines, wq):
        m = WQ_LINE.search(line)
        a = o.get('fields', {}).get('function')
        if m and m.group(1) == o['event'] and isinstance(a, int):
            names[a] = m.group(2)
    return names


def same_value(got, want, typed):
    if typed and isinstance(got, str) and isinstance(want, int):
        return KSYMS.get(want) == got   # an interned kernel function
    if isinstance(want, list):
        if typed:	# a repeated field keeps its last element
            return not want or got == want[-1]
        return got == json_text(want)
    if got == want:
        return True
    # a typed message's 32-bit fields hold the value's low 32 bits
    return typed and isinstance(want, int) and isinstance(got, int) and \
        (got - want) % (1 << 32) == 0


def args_match(got, fields, typed, name):
    want = {k: v for k, v in fields.items() if v is not None}
    if name == 'sched_switch':  # in Perfetto's bits (check_states)
        got = {k: v for k, v in got.items() if k != 'prev_state'}
    if not typed and set(got) != set(want):
        return False
    return all(k in want and same_value(v, want[k], typed)
               for k, v in got.items())


def check_args(tp, trace, events):
    rows = query(tp, trace, 'args')
    got = collections.defaultdict(dict)
    where = {}
    for r in rows:
        i = int(r['id'])
        where[i] = (int(r['ts']), tp.cpu(r['cpu']), r['name'])
        if r['key'] not in (None, '[NULL]'):
            got[i][r['key']] = arg_value(r)
    groups = collections.defaultdict(list)
    for i, k in where.items():
        groups[k].append(got[i])
    n = 0
    for o in events:
        if not o.get('event'):
            continue
        k = (o['timestamp'], o['tcpu'], o['event'])
        cands = groups.get(k, [])
        typed = o['event'] in TYPED
        for j, g in enumerate(cands):
            if args_match(g, o['fields'], typed, o['event']):
                del cands[j]
                break
        else:
            n += 1
            if n <= 3:
                bad('args of %s at %d (machine, cpu) %s: %s, report: %s' %
                    (o['event'], k[0], k[1], cands[:1], o['fields']))
    if n > 3:
        bad('... %d events whose args differ' % n)


def check_markers(tp, trace, events, atrace):
    want = []
    stacks = collections.defaultdict(list)
    for o in events:
        buf = o.get('fields', {}).get('buf') if o.get('event') == 'print' \
            else None
        if not isinstance(buf, str):
            continue
        buf = buf.rstrip('\n\0')
        if buf.startswith('B|'):
            name = buf.split('|', 2)[2] if buf.count('|') >= 2 else ''
            stacks[(o['machine'], o['pid'])].append((o['timestamp'], name))
        elif buf == 'E' or buf.startswith('E|'):
            if stacks[(o['machine'], o['pid'])]:
                ts, name = stacks[(o['machine'], o['pid'])].pop()
                want.append((ts, o['timestamp'] - ts, name))
    for st in stacks.values():
        want += [(ts, -1, name) for ts, name in st]
    got = collections.Counter((int(r['ts']), int(r['dur']), r['name'])
                              for r in query(tp, trace, 'slices'))
    missing = collections.Counter(want) - got
    if missing:
        bad('markers: no slice for %s' % sorted(missing)[:3])
    if atrace is not None and len(want) != atrace:
        bad('markers: %d B markers in the report, %d expected' %
            (len(want), atrace))


def main():
    args = sys.argv[1:]
    if len(args) < 3:
        sys.exit(__doc__)
    tp, trace, report = args[:3]
    machines, atrace, text, plain, rest = {}, None, None, None, args[3:]
    while rest:
        if rest[0] == '--machine':
            f, _, b = rest[1].rpartition('=')
            machines[f] = int(b)
        elif rest[0] == '--atrace':
            atrace = int(rest[1])
        elif rest[0] == '--text':
            text = rest[1]
        elif rest[0] == '--plain':
            plain = rest[1]
        rest = rest[2:]
    events = load_report(report, machines)
    if text:
        KSYMS.update(report_functions(text, events))
    tp = Tables(tp, trace)
    switches = [o for o in events if o.get('event') == 'sched_switch']
    check_stats(tp, trace, events, switches)
    check_counts(tp, trace, events)
    check_sched(tp, trace, switches)
    if plain:
        check_states(tp, trace, plain)
    check_threads(tp, trace, events)
    check_counters(tp, trace, events)
    check_args(tp, trace, events)
    check_markers(tp, trace, events, atrace)
    for p in problems[:20]:
        print('%s: %s' % (trace, p))
    if len(problems) > 20:
        print('%s: ... %d more' % (trace, len(problems) - 20))
    if problems:
        sys.exit(1)
    print('%s: %d events agree' % (trace, len(events)))


if __name__ == '__main__':
    main()
