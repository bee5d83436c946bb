// SPDX-License-Identifier: GPL-2.0-or-later
// pqsql.mjs SQL...: run each SQL statement with DuckDB (one thread), and
// print the last one's rows, one a line, values separated by tabs:
// text as it is, integers in decimal (exactly), NULL for null, lists
// and bytes as JSON arrays.  For the tests' queries over a dataset
// (read_parquet with union_by_name) and for spoiling one on purpose.
import { sql, norm, duckType, show, die, oneLine } from './lib.mjs';

const stmts = process.argv.slice(2);
if (!stmts.length) die('usage: pqsql.mjs SQL...');
let r;
for (const s of stmts) {
	try { r = await sql(s); }
	catch (e) { die(`pqsql: ${oneLine(e)}\n  in: ${s}`); }
}
const types = r.columnTypes().map(duckType);
const lines = r.getRows().map((row) => row.map((v, k) => {
	const n = norm(v, types[k]);
	return n === null ? 'NULL' : typeof n === 'string' ? n : show(n);
}).join('\t'));
process.stdout.write(lines.map((l) => l + '\n').join(''));
