// SPDX-License-Identifier: GPL-2.0-or-later
// lib.mjs - what pqread, pqcheck, pqsql and mkdataset share: the two
// Parquet readers (DuckDB, and hyparquet: independent implementations of
// the format), their values normalised to one form, a JSON parser that
// keeps 64-bit integers exact, and the event formats of `tdat dump`.
//
// Normal form of a value: null; BigInt for every integer; a string; a
// Bytes for a BINARY value; an array of normal forms for a LIST.  A
// number that is not an integer (DOUBLE, FLOAT columns) stays a Number,
// so it never equals an integer.  Canonical column types: INT8..INT64,
// UINT8..UINT64, STRING, BINARY, LIST<T>; anything else is named by its
// Parquet types (e.g. DOUBLE) and matches no column of the design.
//
// The readers are installed by need_parquet_readers (tests/e2e/lib.sh)
// into build-npm/parquet/ at the top of the tree; TDAT_PARQUET_READERS
// names another such directory.

import { createRequire } from 'node:module';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { existsSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';

const here = dirname(fileURLToPath(import.meta.url));
export const readersDir = process.env.TDAT_PARQUET_READERS ||
	join(here, '..', '..', '..', 'build-npm', 'parquet');

// The scripts live in the tree, their packages in the ignored cache:
// resolve them from there (ESM ignores NODE_PATH).
if (!existsSync(join(readersDir, 'node_modules')))
	die(`no Parquet readers in ${readersDir} (tests/e2e/lib.sh's need_parquet_readers installs them)`);
const req = createRequire(join(readersDir, 'package.json'));
const duck = req('@duckdb/node-api');
const hyp = await import(pathToFileURL(req.resolve('hyparquet')).href);
const { compressors } = await import(pathToFileURL(req.resolve('hyparquet-compressors')).href);

export function die(msg) {
	console.error(msg);
	process.exit(1);
}

// A failure the scripts report as one line, then exit 1.
export class Mismatch extends Error {}

// A BINARY value: its bytes.
export class Bytes {
	constructor(u8) { this.bytes = u8; }
}

// ---- values ----

// Normal form of a value from either reader (see the top), in a column
// of canonical type t: a JavaScript number is an integer only there.
export function norm(v, t) {
	if (v === null || v === undefined) return null;
	switch (typeof v) {
	case 'bigint': case 'string': case 'boolean': return v;
	case 'number': return /^U?INT\d+$/.test(t) ? BigInt(v) : v;
	}
	if (v instanceof Uint8Array) return new Bytes(v);
	if (v instanceof duck.DuckDBBlobValue) return new Bytes(v.bytes);
	const et = /^LIST<(.*)>$/.exec(t)?.[1];
	if (v instanceof duck.DuckDBListValue) return v.items.map((x) => norm(x, et));
	if (Array.isArray(v) || ArrayBuffer.isView(v)) return Array.from(v, (x) => norm(x, et));
	return { other: String(v) };
}

// Same normal form, same value.
export function same(a, b) {
	if (a === b) return true;
	if (a === null || b === null || typeof a !== typeof b) return false;
	if (typeof a === 'number') return Object.is(a, b);
	if (a instanceof Bytes) {
		if (!(b instanceof Bytes) || a.bytes.length !== b.bytes.length) return false;
		return a.bytes.every((x, i) => x === b.bytes[i]);
	}
	if (Array.isArray(a)) {
		if (!Array.isArray(b) || a.length !== b.length) return false;
		return a.every((x, i) => same(x, b[i]));
	}
	if (typeof a === 'object' && typeof b === 'object' && 'other' in a)
		return a.other === b.other;
	return false;
}

// A value as exact JSON text: integers as bare decimal numbers (read
// them with parseJson below, not JSON.parse), bytes as an array of
// numbers, anything else that is not integer or text as a string.
export function show(v) {
	if (v === null) return 'null';
	if (typeof v === 'bigint') return v.toString();
	if (typeof v === 'number') return JSON.stringify(`DOUBLE ${v}`);
	if (typeof v === 'string') return JSON.stringify(v);
	if (typeof v === 'boolean') return String(v);
	if (v instanceof Bytes) return '[' + Array.from(v.bytes).join(',') + ']';
	if (Array.isArray(v)) return '[' + v.map(show).join(',') + ']';
	if (v instanceof Map) return '{' + [...v].map(([k, x]) => JSON.stringify(k) + ':' + show(x)).join(',') + '}';
	if (typeof v === 'object' && 'other' in v) return JSON.stringify(v.other);
	return JSON.stringify(String(v));
}

// ---- exact JSON ----

// Parse one JSON text: integers become BigInt (JSON.parse would round
// those above 2^53: kernel addresses), other numbers Number, objects
// Maps (key order kept), strings as JSON.parse makes them.
export function parseJson(text) {
	let i = 0;
	const n = text.length;
	const err = (what) => { throw new SyntaxError(`${what} at character ${i}`); };
	const ws = () => {
		for (;;) {
			const c = text.charCodeAt(i);
			if (c === 32 || c === 9 || c === 10 || c === 13) i++;
			else return;
		}
	};
	const str = () => {
		const start = i++;	// the opening quote
		let esc = false;
		for (;;) {
			if (i >= n) err('unterminated string');
			const c = text.charCodeAt(i++);
			if (c === 34) break;
			if (c === 92) { esc = true; i++; }
			else if (c < 32) err('control character in a string');
		}
		const tok = text.slice(start, i);
		return esc ? JSON.parse(tok) : tok.slice(1, -1);
	};
	const num = () => {
		const start = i;
		let int = true;
		if (text.charCodeAt(i) === 45) i++;	// -
		const d0 = i;
		while (i < n && text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57) i++;
		if (i === d0 || (text.charCodeAt(d0) === 48 && i - d0 > 1)) err('bad number');
		if (text[i] === '.' || text[i] === 'e' || text[i] === 'E') {
			const m = /^(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(text.slice(i, i + 400));
			if (!m[0]) err('bad number');
			i += m[0].length;
			int = false;
		}
		const tok = text.slice(start, i);
		// Up to 15 digits a double holds exactly: the quicker path.
		if (!int) return Number(tok);
		return i - d0 <= 15 ? BigInt(Number(tok)) : BigInt(tok);
	};
	const value = () => {
		ws();
		const c = text[i];
		if (c === '{') {
			i++;
			const o = new Map();
			ws();
			if (text[i] === '}') { i++; return o; }
			for (;;) {
				ws();
				if (text[i] !== '"') err('expected a key');
				const k = str();
				ws();
				if (text[i++] !== ':') err("expected ':'");
				if (o.has(k)) err(`key "${k}" twice`);
				o.set(k, value());
				ws();
				const d = text[i++];
				if (d === '}') return o;
				if (d !== ',') err("expected ',' or '}'");
			}
		}
		if (c === '[') {
			i++;
			const a = [];
			ws();
			if (text[i] === ']') { i++; return a; }
			for (;;) {
				a.push(value());
				ws();
				const d = text[i++];
				if (d === ']') return a;
				if (d !== ',') err("expected ',' or ']'");
			}
		}
		if (c === '"') return str();
		if (c === '-' || (c >= '0' && c <= '9')) return num();
		for (const [w, v] of [['true', true], ['false', false], ['null', null]])
			if (text.startsWith(w, i)) { i += w.length; return v; }
		err('unexpected character');
	};
	const v = value();
	ws();
	if (i !== n) err('trailing characters');
	return v;
}

// Bytes to a string as tdat's --json writes them: valid UTF-8 kept,
// every byte that is not part of valid UTF-8 the character U+00XX.
export function latin1Fallback(buf) {
	let out = '';
	let i = 0;
	const n = buf.length;
	const cont = (k) => k < n && (buf[k] & 0xc0) === 0x80;
	while (i < n) {
		const b = buf[i];
		let len = 0, cp = 0;
		if (b < 0x80) { len = 1; cp = b; }
		else if (b >= 0xc2 && b <= 0xdf && cont(i + 1)) {
			len = 2; cp = (b & 0x1f) << 6 | buf[i + 1] & 0x3f;
		} else if (b >= 0xe0 && b <= 0xef && cont(i + 1) && cont(i + 2)) {
			cp = (b & 0x0f) << 12 | (buf[i + 1] & 0x3f) << 6 | buf[i + 2] & 0x3f;
			if (cp >= 0x800 && (cp < 0xd800 || cp > 0xdfff)) len = 3;
		} else if (b >= 0xf0 && b <= 0xf4 && cont(i + 1) && cont(i + 2) && cont(i + 3)) {
			cp = (b & 0x07) << 18 | (buf[i + 1] & 0x3f) << 12 |
				(buf[i + 2] & 0x3f) << 6 | buf[i + 3] & 0x3f;
			if (cp >= 0x10000 && cp <= 0x10ffff) len = 4;
		}
		if (!len) { out += String.fromCharCode(b); i++; continue; }
		out += String.fromCodePoint(cp);
		i += len;
	}
	return out;
}

// ---- column types ----

const duckNames = {
	TINYINT: 'INT8', SMALLINT: 'INT16', INTEGER: 'INT32', BIGINT: 'INT64',
	UTINYINT: 'UINT8', USMALLINT: 'UINT16', UINTEGER: 'UINT32', UBIGINT: 'UINT64',
	VARCHAR: 'STRING', BLOB: 'BINARY',
};

// DuckDB's SQL type name to a canonical type.
export function duckType(t) {
	const s = String(t);
	if (s.endsWith('[]')) return `LIST<${duckType(s.slice(0, -2))}>`;
	return duckNames[s] || s;
}

// The DuckDB SQL type of a canonical type (for writing).
export function sqlType(canon) {
	const m = /^LIST<(.*)>$/.exec(canon);
	if (m) return sqlType(m[1]) + '[]';
	for (const [k, v] of Object.entries(duckNames))
		if (v === canon) return k;
	throw new Error(`no SQL type for ${canon}`);
}

// hyparquet's schema node to a canonical type: the Parquet physical,
// logical and converted types must all say the same.
function hypType(node) {
	const e = node.element;
	const lt = e.logical_type, ct = e.converted_type;
	if (ct === 'LIST' || lt?.type === 'LIST') {
		// 3-level list: NAME (LIST) { repeated group list { element } }
		const rep = node.children.length === 1 ? node.children[0] : null;
		if (!rep || rep.element.repetition_type !== 'REPEATED' || rep.children.length !== 1)
			return 'LIST(not 3-level)';
		return `LIST<${hypType(rep.children[0])}>`;
	}
	if (node.children.length) return 'GROUP';
	const phys = e.type;
	if (phys === 'INT32' || phys === 'INT64') {
		let fromLt = null, fromCt = null;
		if (lt?.type === 'INTEGER') fromLt = (lt.isSigned ? 'INT' : 'UINT') + lt.bitWidth;
		else if (lt) return `${phys}(${lt.type})`;
		const m = /^(U?INT)_(8|16|32|64)$/.exec(ct || '');
		if (m) fromCt = m[1] + m[2];
		else if (ct) return `${phys}(${ct})`;
		if (fromLt && fromCt && fromLt !== fromCt)
			return `${phys}(logical ${fromLt}, converted ${fromCt})`;
		const t = fromLt || fromCt || (phys === 'INT32' ? 'INT32' : 'INT64');
		const wide = t.endsWith('64');
		if (wide !== (phys === 'INT64')) return `${phys}(${t})`;
		return t;
	}
	if (phys === 'BYTE_ARRAY') {
		if ((lt?.type === 'STRING' || !lt) && (ct === 'UTF8' || !ct) && (lt || ct)) return 'STRING';
		if (!lt && !ct) return 'BINARY';
		return `BYTE_ARRAY(${lt?.type ?? ''}/${ct ?? ''})`;
	}
	return phys + (lt || ct ? `(${lt?.type ?? ct})` : '');
}

// ---- the two readers ----

let conn = null;
async function connection() {
	if (!conn) {
		// One thread: the test machines are small and shared.
		const inst = await duck.DuckDBInstance.create(':memory:', { threads: '1' });
		conn = await inst.connect();
	}
	return conn;
}

export function sqlString(s) {
	return "'" + s.replace(/'/g, "''") + "'";
}

// Run SQL with DuckDB; its result reader.
export async function sql(text) {
	return (await connection()).runAndReadAll(text);
}

const strict = new TextDecoder('utf-8', { fatal: true });
async function readHyp(path) {
	const file = await hyp.asyncBufferFromFile(path);
	const meta = await hyp.parquetMetadataAsync(file);
	const schema = hyp.parquetSchema(meta);
	const names = schema.children.map((c) => c.element.name);
	const types = schema.children.map(hypType);
	const rows = Number(meta.num_rows);
	const cols = names.map(() => new Array(rows));
	const filled = names.map(() => 0);
	const index = new Map(names.map((n, k) => [n, k]));
	// Column chunks, not rows: hyparquet's row assembly is twice as slow.
	await hyp.parquetRead({
		file, compressors,
		metadata: meta,			// parsed once, with the default parsers
						// (statistics of BINARY are not text)
		utf8: false,			// BINARY stays bytes
		parsers: {			// STRING must be valid UTF-8
			stringFromBytes: (b) => b && strict.decode(b),
		},
		onChunk: ({ columnName, columnData, rowStart, rowEnd }) => {
			const k = index.get(columnName);
			if (columnData.length !== rowEnd - rowStart)
				throw new Mismatch(`${path}: column ${columnName}: hyparquet reads ${columnData.length} values for rows ${rowStart} to ${rowEnd}`);
			for (let i = 0; i < columnData.length; i++)
				cols[k][rowStart + i] = norm(columnData[i], types[k]);
			filled[k] += columnData.length;
		},
	});
	for (const [k, n] of filled.entries())
		if (n !== rows)
			throw new Mismatch(`${path}: column ${names[k]}: hyparquet reads ${n} values, the footer says ${rows} rows`);
	return { names, types, cols, rows };
}

// A big table of integers, text and bytes only is compared through a
// digest of each column, which DuckDB computes itself: taking its
// values into JavaScript one by one costs ten times more.  Each value
// is encoded without ambiguity (null, integer in decimal, text with its
// length in bytes, bytes in hex) in row order.  Integers are exact: JS
// and DuckDB both write their decimal digits.
const DIGEST_ROWS = 2000;
// How often each way was taken (the self-test checks the quick one).
export const stats = { digestSame: 0, digestDiffer: 0, valueByValue: 0 };
const digestable = (t) => /^(U?INT\d+|STRING|BINARY)$/.test(t);

function digestSql(name, t) {
	const c = '"' + name.replace(/"/g, '""') + '"';
	const v = t === 'STRING' ? `'S' || strlen(${c}) || ':' || ${c}`
		: t === 'BINARY' ? `'B' || hex(${c}) || ';'` : `'I' || ${c}::VARCHAR || ';'`;
	// In scan order (one thread): should another order ever come, the
	// digests differ and the values are compared one by one.
	return `md5(string_agg(CASE WHEN ${c} IS NULL THEN 'N' ELSE ${v} END, ''))`;
}

function digestJs(col, t) {
	const h = createHash('md5');
	let parts = [];
	for (const v of col) {
		if (v === null) parts.push('N');
		else if (t === 'STRING') parts.push(`S${Buffer.byteLength(v, 'utf8')}:${v}`);
		else if (t === 'BINARY') parts.push(`B${Buffer.from(v.bytes).toString('hex').toUpperCase()};`);
		else parts.push(`I${v};`);
		if (parts.length === 4096) {	// few, big updates: quicker
			h.update(parts.join(''), 'utf8');
			parts = [];
		}
	}
	h.update(parts.join(''), 'utf8');
	return h.digest('hex');
}

// Read a file with both readers; they must agree on the columns, their
// types and every value.  The agreed table: { names, types, cols, rows }
// (cols[k][r] is row r of column k, in normal form).
export async function readBoth(path) {
	let d, h;
	const duckFails = (e) => new Mismatch(`${path}: DuckDB cannot read it: ${oneLine(e)}`);
	try {
		const r = await sql(`SELECT * FROM read_parquet(${sqlString(path)}) LIMIT 0`);
		d = { names: r.columnNames(), types: r.columnTypes().map(duckType) };
	} catch (e) { throw duckFails(e); }
	try { h = await readHyp(path); }
	catch (e) {
		if (e instanceof Mismatch) throw e;
		throw new Mismatch(`${path}: hyparquet cannot read it: ${oneLine(e)}`);
	}
	if (d.names.join('\0') !== h.names.join('\0'))
		throw new Mismatch(`${path}: the readers disagree on the columns: DuckDB [${d.names}], hyparquet [${h.names}]`);
	for (const [k, name] of d.names.entries())
		if (d.types[k] !== h.types[k])
			throw new Mismatch(`${path}: column ${name}: the readers disagree on its type: DuckDB ${d.types[k]}, hyparquet ${h.types[k]}`);
	if (h.rows >= DIGEST_ROWS && h.types.every(digestable)) {
		let got;
		try {
			const r = await sql(`SELECT count(*), ${d.names.map((n, k) => digestSql(n, d.types[k])).join(', ')} ` +
				`FROM read_parquet(${sqlString(path)})`);
			got = r.getRowsJS()[0];
		} catch (e) { throw duckFails(e); }
		if (BigInt(got[0]) === BigInt(h.rows) &&
		    h.cols.every((c, k) => got[k + 1] === digestJs(c, h.types[k]))) {
			stats.digestSame++;
			return h;
		}
		stats.digestDiffer++;	// find where, value by value
	}
	stats.valueByValue++;
	try {
		const r = await sql(`SELECT * FROM read_parquet(${sqlString(path)})`);
		d.cols = r.getColumnsJS().map((c, k) => c.map((v) => norm(v, d.types[k])));
		d.rows = d.cols.length ? d.cols[0].length : 0;
	} catch (e) { throw duckFails(e); }
	if (d.rows !== h.rows)
		throw new Mismatch(`${path}: the readers disagree on the rows: DuckDB ${d.rows}, hyparquet ${h.rows}`);
	for (const [k, name] of d.names.entries())
		for (let r = 0; r < d.rows; r++)
			if (!same(d.cols[k][r], h.cols[k][r]))
				throw new Mismatch(`${path}: row ${r} column ${name}: the readers disagree: DuckDB ${show(d.cols[k][r])}, hyparquet ${show(h.cols[k][r])}`);
	return d;
}

export function oneLine(e) {
	return String(e?.message ?? e).split('\n')[0];
}

// ---- event formats ----

// The text of `tdat dump --ftrace-events --events FILE`: event id ->
// Map of field name -> { decl, size, signed }.
export function parseFormats(text) {
	const byId = new Map();
	let cur = null;
	for (const line of text.split('\n')) {
		let m = /^ID: (\d+)$/.exec(line);
		if (m) {
			cur = new Map();
			byId.set(Number(m[1]), cur);
			continue;
		}
		if (/^name: /.test(line)) { cur = null; continue; }
		m = /^\s*field:(.*?);\s*offset:\d+;\s*size:(\d+);\s*signed:(\d+);/.exec(line);
		if (m && cur) {
			const decl = m[1].trim();
			const name = fieldName(decl);
			cur.set(name, { decl, size: Number(m[2]), signed: m[3] !== '0' });
		}
	}
	return byId;
}

// "unsigned long args[6]" -> args, "__data_loc char[] name" -> name.
function fieldName(decl) {
	const last = decl.replace(/\s*\[[^\]]*\]\s*$/, '').split(/[\s*]+/).pop();
	return last;
}

// Bytes of one element of a C type name, or 0 when it depends on the
// kernel's long size (long, pointers) or is not known.
const elemSizes = {
	char: 1, bool: 1, _Bool: 1, u8: 1, s8: 1, __u8: 1, __s8: 1, uint8_t: 1, int8_t: 1,
	short: 2, u16: 2, s16: 2, __u16: 2, __s16: 2, uint16_t: 2, int16_t: 2,
	int: 4, u32: 4, s32: 4, __u32: 4, __s32: 4, uint32_t: 4, int32_t: 4, pid_t: 4,
	'long long': 8, u64: 8, s64: 8, __u64: 8, __s64: 8, uint64_t: 8, int64_t: 8,
};
function elemSize(decl) {
	let t = decl.replace(/^__(data|rel)_loc\s+/, '')
		.replace(/\s*\[[^\]]*\]\s*$/, '');
	if (t.includes('*')) return 0;
	t = t.split(/\s+/).slice(0, -1)	// the type words, without the name
		.filter((w) => !/^(const|volatile|unsigned|signed)$/.test(w))
		.join(' ').replace(/\[\]$/, '');
	if (t === '') return 4;		// "unsigned x": int
	if (t === 'short int') return 2;
	if (t === 'long long int') return 8;
	return elemSizes[t] || 0;
}

const intType = (bytes, signed) => (signed ? 'INT' : 'UINT') + bytes * 8;
const anyInts = ['INT8', 'INT16', 'INT32', 'INT64', 'UINT8', 'UINT16', 'UINT32', 'UINT64'];

// The canonical types a column of format field f may have, given the
// kind of its JSON values ('int', 'string', 'array', or null when every
// row is null), best first.  f may be undefined (no format known): then
// only the kind is checked.  Integers follow the C type exactly (size,
// and signedness as the format's signed: flag says); arrays are LISTs
// of their element type, or BINARY when the elements are bytes.
export function allowedTypes(f, kind) {
	const scalar = f && !/\[|^__(data|rel)_loc\s/.test(f.decl) && [1, 2, 4, 8].includes(f.size);
	if (kind === null) return scalar ? [intType(f.size, f.signed)] : null;
	if (kind === 'string') return ['STRING'];
	if (kind === 'int') return scalar ? [intType(f.size, f.signed)] : anyInts;
	if (kind !== 'array') return [];
	if (!f) return ['BINARY', ...anyInts.map((t) => `LIST<${t}>`)];
	let e = 0, signed = f.signed;
	const fixed = /\[(\d+)\]\s*$/.exec(f.decl);
	if (fixed && f.size && Number(fixed[1]))
		e = f.size % Number(fixed[1]) ? -1 : f.size / Number(fixed[1]);
	else if (!/\[|^__(data|rel)_loc\s/.test(f.decl) && f.size)
		e = -1;				// a scalar of another size: its bytes
	else
		e = elemSize(f.decl);
	if (f.decl.startsWith('char ') || f.decl.startsWith('const char '))
		e = -1;				// a char array as numbers: bytes
	if (e === -1) return ['BINARY', 'LIST<UINT8>'];
	if (e === 1) return ['BINARY', `LIST<${intType(1, signed)}>`];
	// A flexible array (size 0, as ftrace/bprint's "u32 buf[]"): its
	// element size is not in the format's numbers, libtraceevent gives
	// none, and --json shows its bytes: BINARY, as they are.
	const bytes = !f.size && !fixed ? ['BINARY'] : [];
	if (e === 0) return [...[4, 8].map((b) => `LIST<${intType(b, signed)}>`), ...bytes];
	return [`LIST<${intType(e, signed)}>`, ...bytes];
}

// ---- kallsyms and cmdlines ----

// Lines of a `tdat dump --kallsyms` or `--cmd-lines` text (blank lines
// and the section header left out), decoded as --json decodes strings.
function dumpLines(path) {
	const buf = readFileSync(path);
	let lines;
	try {
		lines = new TextDecoder('utf-8', { fatal: true }).decode(buf).split('\n');
	} catch {
		lines = [];			// not all valid UTF-8: line by line
		let start = 0;
		for (let i = 0; i <= buf.length; i++) {
			if (i < buf.length && buf[i] !== 10) continue;
			lines.push(latin1Fallback(buf.subarray(start, i)));
			start = i + 1;
		}
	}
	return lines.filter((l) => l !== '' && !l.startsWith('\t['));
}

// The rows such a text says a table must hold, in its order: cmdlines
// [pid, comm] from "PID COMM"; kallsyms [address, type, name, module or
// null] from "ADDRESS TYPE NAME" and an optional "\t[MODULE]".
export function dumpRows(kind, path) {
	return dumpLines(path).map((l) => {
		let m;
		if (kind === 'cmdlines') {
			m = /^(\d+)(?: (.*))?$/.exec(l);
			if (m) return [BigInt(m[1]), m[2] ?? ''];
		} else {
			m = /^([0-9a-fA-F]+) (.) (.*?)(?:\t\[(.*)\])?$/u.exec(l);
			if (m) return [BigInt('0x' + m[1]), m[2], m[3], m[4] ?? null];
		}
		die(`${path}: cannot read ${JSON.stringify(l)}`);
	});
}
