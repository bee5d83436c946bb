// SPDX-License-Identifier: GPL-2.0-or-later
// pqread.mjs FILE.parquet: read one Parquet file with both readers
// (DuckDB and hyparquet), which must agree on the columns, their types
// and every value; print it for a person or a diff.
//
// Output, one JSON text a line: first {"columns":[[NAME,TYPE],...]}
// (canonical types: INT8..INT64, UINT8..UINT64, STRING, BINARY,
// LIST<T>), then each row as an object in column order.  Integers are
// bare decimal numbers written exactly (64-bit values too: read them
// with an exact parser, not JSON.parse), BINARY is an array of byte
// values, a LIST an array, null is null; a floating-point value is the
// string "DOUBLE x".  Exit 1 with one line at the first disagreement or
// read error.
import { readBoth, show, die, Mismatch, oneLine } from './lib.mjs';

// A reader that stops early (head) is not an error.
process.stdout.on('error', (e) => process.exit(e.code === 'EPIPE' ? 0 : 1));

const [path, ...rest] = process.argv.slice(2);
if (!path || rest.length) die('usage: pqread.mjs FILE.parquet');
let t;
try {
	t = await readBoth(path);
} catch (e) {
	die(e instanceof Mismatch ? `pqread: ${e.message}` : `pqread: ${path}: ${oneLine(e)}`);
}
const out = [JSON.stringify({ columns: t.names.map((n, k) => [n, t.types[k]]) })];
for (let r = 0; r < t.rows; r++)
	out.push('{' + t.names.map((n, k) => JSON.stringify(n) + ':' + show(t.cols[k][r])).join(',') + '}');
process.stdout.write(out.join('\n') + '\n');
