# SPDX-License-Identifier: GPL-2.0-or-later
"""samedataset.py A B: whether two fleet Parquet datasets hold the same
inputs alike, whatever name each input's trace got.  A trace is known by
its input's path (traces/NAME.json's "path"): two inputs of one file
name get NAME and NAME-HASH in the order they came, which tasks adding
at once decide by a race.  Checked: meta.json byte for byte; the same
paths; each path's traces/NAME.json the same, its name aside; the same
table files for each path, byte for byte where both named it alike.
Prints "A_FILE<tab>B_FILE" for every table file of a path named
differently (for a row comparison without the trace column).

samedataset.py --rows A AROWS B BROWS: AROWS and BROWS are DuckDB's
"filename<tab>trace<tab>rows" of every table file of A and B: the same
rows per table and path, and each file's trace column its own name.
Exit 0 same, 1 different (each difference on stderr)."""
import filecmp, json, os, sys

bad = []


def traces(ds):
    """{path: (name, json normalized)}"""
    out = {}
    d = os.path.join(ds, 'traces')
    for f in sorted(os.listdir(d)):
        if not f.endswith('.json'):
            bad.append(f'{ds}: traces/{f}: not a trace')
            continue
        name = f[:-5]
        t = json.load(open(os.path.join(d, f)))
        if t.get('name') != name:
            bad.append(f'{ds}: traces/{f} names {t.get("name")}')
        t = json.loads(json.dumps(t).replace(f'/{name}.parquet"', '/<T>.parquet"'))
        t.pop('name', None)
        if t['path'] in out:
            bad.append(f'{ds}: {t["path"]} is in it twice')
        out[t['path']] = (name, t)
    return out


def tables(ds, tr):
    """{(table dir, path): name}"""
    byname = {n: p for p, (n, _) in tr.items()}
    out = {}
    for top, dirs, files in os.walk(ds):
        rel = os.path.relpath(top, ds)
        for f in files:
            if rel == '.' and f == 'meta.json' or rel == 'traces':
                continue
            name = f[:-8] if f.endswith('.parquet') else None
            if name not in byname:
                bad.append(f'{ds}: {os.path.join(rel, f)}: no trace of that name')
                continue
            out[rel, byname[name]] = name
    return out


def compare(a, b):
    if not filecmp.cmp(f'{a}/meta.json', f'{b}/meta.json', shallow=False):
        bad.append('meta.json differs')
    ta, tb = traces(a), traces(b)
    for p in sorted(set(ta) ^ set(tb)):
        bad.append(f'{p}: only in {a if p in ta else b}')
    renamed = 0
    for p in sorted(set(ta) & set(tb)):
        if ta[p][1] != tb[p][1]:
            bad.append(f'{p}: traces/{ta[p][0]}.json and traces/{tb[p][0]}.json differ')
        renamed += ta[p][0] != tb[p][0]
    xa, xb = tables(a, ta), tables(b, tb)
    for k in sorted(set(xa) ^ set(xb)):
        bad.append(f'{k[0]} of {k[1]}: only in {a if k in xa else b}')
    same = 0
    for k in sorted(set(xa) & set(xb)):
        fa = f'{a}/{k[0]}/{xa[k]}.parquet'
        fb = f'{b}/{k[0]}/{xb[k]}.parquet'
        if xa[k] != xb[k]:
            print(f'{fa}\t{fb}')
        elif filecmp.cmp(fa, fb, shallow=False):
            same += 1
        else:
            bad.append(f'{fa} and {fb} differ')
    print(f'{len(ta)} traces, {len(xa)} table files, {same} of them byte for byte, '
          f'{renamed} traces named otherwise (their rows compared without the name)',
          file=sys.stderr)


def rows(a, arows, b, brows):
    def load(ds, f):
        byname = {n: p for p, (n, _) in traces(ds).items()}
        out = {}
        for line in open(f):
            fn, trace, n = line.rstrip('\n').split('\t')
            rel = os.path.relpath(fn, ds)
            d, f = os.path.split(rel)
            name = f[:-8]
            if trace != name:
                bad.append(f'{fn}: trace column {trace}')
            key = (d, byname.get(name, name))
            out[key] = out.get(key, 0) + int(n)
        return out
    ra, rb = load(a, arows), load(b, brows)
    for k in sorted(set(ra) | set(rb)):
        if ra.get(k) != rb.get(k):
            bad.append(f'{k[0]} of {k[1]}: {ra.get(k)} rows against {rb.get(k)}')
    print(f'{len(ra)} table files, {sum(ra.values())} rows, the same per table and trace',
          file=sys.stderr)


if sys.argv[1] == '--rows':
    rows(*sys.argv[2:6])
else:
    compare(sys.argv[1], sys.argv[2])
for x in bad:
    print('  ' + x, file=sys.stderr)
sys.exit(1 if bad else 0)
