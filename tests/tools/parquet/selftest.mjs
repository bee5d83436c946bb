// SPDX-License-Identifier: GPL-2.0-or-later
// selftest.mjs WORK: the proof that pqcheck fails on bad data.  WORK
// holds the facts selftest.sh gathered with tdat (a/ b/ c/ d/, as
// mkdataset.mjs reads them).  Datasets that follow the design, written
// by DuckDB (mkdataset.mjs), must pass; each spoiled copy (one value,
// type, row, column or file changed with DuckDB) must fail, and with
// the message that names the change.  One process for all: fast.
import { cpSync, rmSync, renameSync, writeFileSync, unlinkSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join, dirname, basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { check } from './check.mjs';
import { sql, sqlString, readBoth, stats, die, Mismatch } from './lib.mjs';

const work = process.argv[2];
if (!work || process.argv.length !== 3) die('usage: selftest.mjs WORK');
const here = dirname(fileURLToPath(import.meta.url));
const facts = (n) => ({
	report: join(work, n, 'report.jsonl'), formats: join(work, n, 'formats.txt'),
	kallsyms: join(work, n, 'kallsyms.txt'), cmdlines: join(work, n, 'cmdlines.txt'),
});
const mk = (out, ...srcs) => execFileSync(process.execPath,
	[join(here, 'mkdataset.mjs'), join(work, out), ...srcs.map((s) => join(work, s))], { stdio: 'inherit' });
mk('single', 'a');
mk('fleet', 'a', 'b', 'c', 'd');

// The checks a dataset gets: single's, or one per trace of the fleet.
const runs = {
	single: [{ ...facts('a') }],
	fleet: ['a', 'b', 'c', 'd'].map((n) => ({ ...facts(n), trace: n })),
};
async function checkAll(base, dir, extra = {}) {
	for (const r of runs[base]) await check({ ...r, dir, counts: true, ...extra });
}

for (const base of ['single', 'fleet']) {
	try {
		await checkAll(base, join(work, base));
	} catch (e) {
		die(`selftest: ${base}: pqcheck fails a dataset of the design: ${e instanceof Mismatch ? e.message : e.stack}`);
	}
	console.log(`selftest: ${base}: passes as written`);
}
// Big tables are compared through digests DuckDB computes: on good data
// they must be equal (else every big table is compared slowly), also
// for text beyond ASCII, bytes, nulls and 64-bit integers.
const big = join(work, 'big.parquet');
await sql(`COPY (SELECT (18446744073709551615 - i)::UBIGINT AS u, (i - 4611686018427387904)::BIGINT AS s,
	CASE WHEN i % 7 = 0 THEN NULL ELSE 'x' || chr((i % 1000 + 128)::INTEGER) || i END AS t,
	CASE WHEN i % 5 = 0 THEN NULL ELSE from_hex(printf('%04x00ff', i)) END AS b,
	(i % 256)::UTINYINT AS u8 FROM range(5000) r(i)) TO ${sqlString(big)} (FORMAT parquet, COMPRESSION zstd)`);
await readBoth(big);
if (stats.digestDiffer || !stats.digestSame)
	die(`selftest: the readers' digests of good tables differ (${JSON.stringify(stats)}): lib.mjs's digestSql and digestJs disagree`);

// --input: meta.json's path names the same file, however spelt.
const input = readFileSync(join(work, 'b', 'input'), 'utf8').trim();
for (const p of [input, `${dirname(input)}/./${basename(input)}`])
	await check({ ...runs.fleet[1], dir: join(work, 'fleet'), input: p });

// Rewrite one table: SELECT over t, its rows with file_row_number.
async function rewrite(file, select) {
	await sql(`CREATE OR REPLACE TEMP TABLE t AS SELECT * FROM read_parquet(${sqlString(file)}, ` +
		'file_row_number = true) ORDER BY file_row_number');
	await sql(`COPY (${select} ORDER BY file_row_number) TO ${sqlString(file + '.new')} ` +
		'(FORMAT parquet, COMPRESSION zstd)');
	renameSync(file + '.new', file);
}
const at = (row, col, expr) => `CASE WHEN file_row_number = ${row} THEN ${expr} ELSE ${col} END AS ${col}`;
const replace = (...r) => `SELECT * EXCLUDE (file_row_number) REPLACE (${r.join(', ')}) FROM t`;

// [name, base, table (relative), SELECT or a function(dir), what the
//  message must say, extra check options]
const F = (ev, tr) => `${ev}/${tr}.parquet`;
const cases = [
	['a value', 'single', 'sched/sched_switch.parquet',
		replace(at(3, 'next_pid', 'next_pid + 1')), 'row 3 column next_pid: parquet'],
	['a signed column for an unsigned field', 'single', 'sched/sched_switch.parquet',
		replace('common_type::SMALLINT AS common_type'), 'column common_type is INT16, expected UINT16'],
	['a wider integer than the C type', 'single', 'sched/sched_switch.parquet',
		replace('common_pid::BIGINT AS common_pid'), 'column common_pid is INT64, expected INT32'],
	['a row missing', 'single', 'sched/sched_switch.parquet',
		'SELECT * EXCLUDE (file_row_number) FROM t WHERE file_row_number <> 7', 'row 7 column'],
	['the last row missing', 'single', 'irq/softirq_raise.parquet',
		'SELECT * EXCLUDE (file_row_number) FROM t WHERE file_row_number < (SELECT max(file_row_number) FROM t)',
		'rows, the report has'],
	['a row twice', 'single', 'irq/softirq_raise.parquet',
		'SELECT * EXCLUDE (file_row_number) FROM (SELECT * FROM t UNION ALL ' +
		'SELECT * REPLACE (file_row_number + 1000000 AS file_row_number) FROM t WHERE file_row_number = 0)',
		'rows, the report has'],
	['a string', 'single', 'sched/sched_switch.parquet',
		replace(at(0, 'prev_comm', "prev_comm || 'x'")), 'row 0 column prev_comm'],
	['a timestamp off by one', 'single', 'sched/sched_switch.parquet',
		replace(at(5, 'timestamp', 'timestamp + 1')), 'row 5 column timestamp'],
	['a column missing', 'single', 'sched/sched_switch.parquet',
		'SELECT * EXCLUDE (file_row_number, prev_prio) FROM t', 'missing column prev_prio'],
	['a column too many', 'single', 'sched/sched_switch.parquet',
		'SELECT * EXCLUDE (file_row_number), 0 AS foo FROM t', 'extra column foo'],
	['columns swapped', 'single', 'sched/sched_switch.parquet',
		'SELECT * EXCLUDE (file_row_number, next_prio, next_pid), next_prio, next_pid FROM t', 'columns in another order'],
	['a field shadowing a column, named otherwise', 'single', 'sched/sched_waking.parquet',
		'SELECT * EXCLUDE (file_row_number) RENAME (field_pid AS pid_) FROM t', 'missing column field_pid'],
	['missed_events lost', 'single', 'sched/sched_switch.parquet',
		replace('NULL::BIGINT AS missed_events'), 'column missed_events: parquet null, report 42'],
	['a STRING as BINARY', 'single', 'sched/sched_switch.parquet',
		replace('comm::BLOB AS comm'), 'column comm is BINARY, expected STRING'],
	['a kallsyms address off by one', 'single', 'kallsyms.parquet',
		replace(at(100, 'address', '(address + 1)::UBIGINT')), 'kallsyms.parquet: row 100 column address'],
	['kallsyms addresses as DOUBLE', 'single', 'kallsyms.parquet',
		replace('address::DOUBLE AS address'), 'column address is DOUBLE, expected UINT64'],
	['a kallsyms module lost', 'single', 'kallsyms.parquet',
		replace('NULL::VARCHAR AS module'), 'column module: parquet null'],
	['a cmdline', 'single', 'cmdlines.parquet',
		replace(at(0, 'comm', "'x'")), 'cmdlines.parquet: row 0 column comm'],
	['a table of an event the report lacks', 'single', null,
		(d) => cpSync(join(d, 'irq/softirq_exit.parquet'), join(d, 'irq/bogus.parquet')),
		'the report has no irq/bogus event'],
	['a table missing', 'single', null, (d) => unlinkSync(join(d, 'irq/softirq_exit.parquet')),
		'softirq_exit.parquet: missing: the report has'],
	['kallsyms missing', 'single', null, (d) => unlinkSync(join(d, 'kallsyms.parquet')),
		'kallsyms.parquet: missing'],
	['meta.json missing', 'single', null, (d) => unlinkSync(join(d, 'meta.json')), 'meta.json: missing'],
	['a stray file', 'single', null, (d) => writeFileSync(join(d, 'x.csv'), ''), 'x.csv: unexpected file'],

	['a 64-bit address off by one', 'fleet', F('ftrace/print', 'b'),
		replace(at(2, 'ip', '(ip + 1)::UBIGINT')), 'row 2 column ip: parquet 1844674407'],
	['a 64-bit address as DOUBLE', 'fleet', F('ftrace/print', 'b'),
		replace('ip::DOUBLE AS ip'), 'column ip is DOUBLE, expected UINT64'],
	['an unsigned address as signed, same bits', 'fleet', F('ftrace/print', 'b'),
		replace('(ip::HUGEINT - 18446744073709551616)::BIGINT AS ip'), 'column ip is INT64, expected UINT64'],
	['a byte array one byte longer', 'fleet', F('ftrace/raw_data', 'b'),
		replace(at(1, 'buf', "buf || '\\x00'::BLOB")), 'row 1 column buf'],
	['a list element', 'fleet', F('raw_syscalls/sys_enter', 'b'),
		replace(at(4, 'args', 'list_transform(args, x -> (x // 2)::UBIGINT)')), 'row 4 column args'],
	['a list of DOUBLE', 'fleet', F('raw_syscalls/sys_enter', 'b'),
		replace('args::DOUBLE[] AS args'), 'column args is LIST<DOUBLE>, expected LIST<UINT64>'],
	['a list made null', 'fleet', F('ftrace/kernel_stack', 'd'),
		replace('NULL::UBIGINT[] AS caller'), 'column caller: parquet null, report ['],
	['a list made empty', 'fleet', F('ftrace/kernel_stack', 'd'),
		replace('[]::UBIGINT[] AS caller'), 'column caller: parquet [], report ['],
	['a list of a wider element', 'fleet', F('ftrace/bprint', 'c'),
		replace('buf::UBIGINT[] AS buf'), 'column buf is LIST<UINT64>, expected LIST<UINT32>'],
	['bprint without its message', 'fleet', F('ftrace/bprint', 'c'),
		replace(at(0, 'message', 'NULL')), 'row 0 column message: null'],
	['bprint without a message column', 'fleet', F('ftrace/bprint', 'c'),
		'SELECT * EXCLUDE (file_row_number, message) FROM t', 'missing column message'],
	['another trace name in a row', 'fleet', F('sched/sched_switch', 'a'),
		replace(at(1, 'trace', "'b'")), 'row 1 column trace: "b", expected "a"'],
	['a table of an event that trace lacks', 'fleet', null,
		(d) => cpSync(join(d, F('ftrace/print', 'b')), join(d, F('ftrace/print', 'c'))),
		'the report has no ftrace/print event'],
	['meta.json without the trace', 'fleet', null,
		(d) => unlinkSync(join(d, 'traces', 'a.json')), 'no trace named'],
	['meta.json with another path', 'fleet', null, () => {}, '"path" is', { input: '/dev/null' }],
];

let n = 0;
for (const [name, base, table, change, want, extra] of cases) {
	const dir = join(work, 'spoilt');
	rmSync(dir, { recursive: true, force: true });
	cpSync(join(work, base), dir, { recursive: true });
	if (typeof change === 'function') change(dir);
	else await rewrite(join(dir, table), change);
	let msg = null;
	try {
		await checkAll(base, dir, extra);
	} catch (e) {
		if (!(e instanceof Mismatch)) die(`selftest: ${name}: pqcheck failed otherwise: ${e.stack}`);
		msg = e.message;
	}
	if (msg === null) die(`selftest: ${name}: pqcheck passed a spoiled dataset`);
	if (!msg.includes(want)) die(`selftest: ${name}: pqcheck said "${msg}", expected it to say "${want}"`);
	console.log(`selftest: ${name}: fails: ${msg.replace(dir + '/', '')}`);
	n++;
}
rmSync(join(work, 'spoilt'), { recursive: true, force: true });
console.log(`selftest: ${n} spoiled datasets, each failed as it should`);
