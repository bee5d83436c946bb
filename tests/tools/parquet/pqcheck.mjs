// SPDX-License-Identifier: GPL-2.0-or-later
// pqcheck.mjs DIR REPORT.jsonl [--trace NAME] [--input PATH]
//             [--formats FILE] [--kallsyms FILE] [--cmdlines FILE] [--counts]
//
// Checks a dataset of `tdat convert --to parquet` against what tdat
// itself says of the same input.  Every table is read with DuckDB and
// with hyparquet, which must agree on columns, types and values; then
// each event table SYSTEM/EVENT must hold, row k for the k-th object of
// that event in REPORT.jsonl (`tdat report --json -i INPUT`), every key
// and value of the object, exactly, and no more rows.
//
//   --trace NAME    DIR is a fleet: check NAME's files (SYSTEM/EVENT/
//                   NAME.parquet, cmdlines/NAME.parquet, ...), whose
//                   first column `trace` must be NAME, and NAME's object
//                   traces/NAME.json (meta.json: the fleet's layout)
//   --input PATH    that entry's "path" must be PATH (the same file)
//   --formats FILE  `tdat dump --ftrace-events --events INPUT`: integer
//                   columns must then follow the C types exactly
//                   (size and signedness), lists their element types
//   --kallsyms FILE `tdat dump --kallsyms INPUT`: kallsyms rows, in order
//   --cmdlines FILE `tdat dump --cmd-lines INPUT`: cmdlines rows, in order
//   --counts        also count each event table's rows with one DuckDB
//                   query over all of them (read_parquet of DIR/*/*.parquet,
//                   or DIR/*/*/NAME.parquet, with union_by_name): the
//                   report's counts
//
//   --and ...       then check another dataset, with its own arguments:
//                   one process for many (the readers load once)
//
// Prints one summary line a dataset and exits 0, or one line naming the
// first difference (file, row, column, both values) and exits 1.  Rows
// are counted from 0, report lines from 1.
import { check } from './check.mjs';
import { die, Mismatch, oneLine } from './lib.mjs';

const usage = 'usage: pqcheck.mjs DIR REPORT.jsonl [--trace NAME] [--input PATH] ' +
	'[--formats FILE] [--kallsyms FILE] [--cmdlines FILE] [--counts] [--and ...]';

// The argument groups, --and between them.
const groups = [[]];
for (const a of process.argv.slice(2)) {
	if (a === '--and') groups.push([]);
	else groups[groups.length - 1].push(a);
}
const runs = groups.map((argv) => {
	const opt = {};
	const pos = [];
	for (let i = 0; i < argv.length; i++) {
		const m = /^--(trace|input|formats|kallsyms|cmdlines)$/.exec(argv[i]);
		if (argv[i] === '--counts') opt.counts = true;
		else if (m) {
			if (i + 1 >= argv.length) die(usage);
			opt[m[1]] = argv[++i];
		} else if (argv[i].startsWith('-')) die(usage);
		else pos.push(argv[i]);
	}
	if (pos.length !== 2) die(usage);
	return { ...opt, dir: pos[0], report: pos[1] };
});
for (const r of runs) {
	try {
		console.log('pqcheck: ' + await check(r));
	} catch (e) {
		die(`pqcheck: ${e instanceof Mismatch ? e.message : oneLine(e)}`);
	}
}
