// SPDX-License-Identifier: GPL-2.0-or-later
// mkdataset.mjs OUT SRC...: write, with DuckDB's own Parquet writer, the
// dataset `tdat convert --to parquet` should write for the inputs SRC
// describe: one SRC gives the single-input layout, several a fleet.
// Each SRC is a directory holding what tdat says of one input:
//   report.jsonl   tdat report --json -i INPUT
//   formats.txt    tdat dump --ftrace-events --events INPUT
//   kallsyms.txt   tdat dump --kallsyms INPUT
//   cmdlines.txt   tdat dump --cmd-lines INPUT
//   input          the input's path (one line)
// and its name is the trace's name.  It exists to prove pqcheck
// (selftest.sh): a dataset made from the design passes, and the same
// dataset spoiled must fail.  Column types are the first pqcheck
// allows; ftrace/bprint's message is a placeholder text.
import { readFileSync, writeFileSync, mkdirSync, rmSync } from 'node:fs';
import { join, basename } from 'node:path';
import { sql, sqlString, sqlType, parseJson, parseFormats, allowedTypes,
	 dumpRows, die } from './lib.mjs';

const [out, ...srcs] = process.argv.slice(2);
if (!out || !srcs.length) die('usage: mkdataset.mjs OUT SRC...');
const fleet = srcs.length > 1;
const OWN = ['trace', 'timestamp', 'cpu', 'buffer', 'pid', 'comm', 'missed_events', 'message'];
const tmp = join(out, '.tmp.jsonl');
mkdirSync(out, { recursive: true });

// Integers and text as JSON for DuckDB's read_json, exactly.
function jsonText(v, type) {
	if (v === null) return 'null';
	if (typeof v === 'bigint') return v.toString();
	if (typeof v === 'string') return JSON.stringify(v);
	if (type === 'BINARY') return JSON.stringify(v.map((x) => Number(x).toString(16).padStart(2, '0')).join(''));
	return '[' + v.map((x) => x.toString()).join(',') + ']';
}

// One table: cols [{ name, type }], rows of values in column order.
async function writeTable(path, cols, rows) {
	writeFileSync(tmp, rows.map((r) => '{' + r.map((v, k) => `"c${k}":${jsonText(v, cols[k].type)}`).join(',') + '}\n').join(''));
	const read = cols.map((c, k) => `c${k}: '${c.type === 'BINARY' ? 'VARCHAR' : sqlType(c.type)}'`).join(', ');
	const sel = cols.map((c, k) => `${c.type === 'BINARY' ? `from_hex(c${k})` : `c${k}`} AS "${c.name}"`).join(', ');
	mkdirSync(join(path, '..'), { recursive: true });
	await sql(`COPY (SELECT ${sel} FROM read_json(${sqlString(tmp)}, format = 'newline_delimited', ` +
		`columns = {${read}})) TO ${sqlString(path)} (FORMAT parquet, COMPRESSION zstd)`);
}

const traces = [];
for (const src of srcs) {
	const name = basename(src);
	const at = (t) => fleet ? join(out, t, `${name}.parquet`) : join(out, `${t}.parquet`);
	const lead = fleet ? [{ name: 'trace', type: 'STRING' }] : [];
	const tv = fleet ? [name] : [];
	traces.push({ name, path: readFileSync(join(src, 'input'), 'utf8').trim() });
	const formats = parseFormats(readFileSync(join(src, 'formats.txt'), 'latin1'));
	const groups = new Map();
	for (const l of readFileSync(join(src, 'report.jsonl'), 'utf8').split('\n')) {
		if (!l) continue;
		const o = parseJson(l);
		if (o.get('system') === null) continue;
		const key = `${o.get('system')}/${o.get('event')}`;
		if (!groups.has(key)) groups.set(key, []);
		groups.get(key).push(o);
	}
	for (const [key, objs] of groups) {
		const [system, event] = key.split('/');
		const first = objs[0];
		const fmt = formats.get(Number(first.get('common').get('common_type')));
		const cols = [...lead, ...[['timestamp', 'INT64'], ['cpu', 'INT32'], ['buffer', 'STRING'],
			['pid', 'INT32'], ['comm', 'STRING'], ['missed_events', 'INT64']].map(([n, t]) => ({ name: n, type: t }))];
		const parts = [];
		for (const part of ['common', 'fields'])
			for (const k of first.get(part).keys()) {
				const v = objs.map((o) => o.get(part).get(k)).find((x) => x !== null) ?? null;
				const kind = v === null ? null : typeof v === 'bigint' ? 'int' : typeof v === 'string' ? 'string' : 'array';
				const type = (allowedTypes(fmt?.get(k), kind) ?? ['STRING'])[0];
				cols.push({ name: OWN.includes(k) ? `field_${k}` : k, type });
				parts.push([part, k]);
			}
		const bprint = key === 'ftrace/bprint';
		if (bprint) cols.push({ name: 'message', type: 'STRING' });
		const rows = objs.map((o) => [...tv, BigInt.asIntN(64, o.get('timestamp')), o.get('cpu'),
			o.get('buffer'), o.get('pid'), o.get('comm'), o.get('missed_events') ?? null,
			...parts.map(([p, k]) => o.get(p).get(k)), ...(bprint ? ['(message)'] : [])]);
		await writeTable(fleet ? join(out, system, event, `${name}.parquet`) : join(out, system, `${event}.parquet`), cols, rows);
	}
	await writeTable(at('cmdlines'), [...lead, { name: 'pid', type: 'INT32' }, { name: 'comm', type: 'STRING' }],
		dumpRows('cmdlines', join(src, 'cmdlines.txt')).map((r) => [...tv, ...r]));
	await writeTable(at('kallsyms'), [...lead, { name: 'address', type: 'UINT64' }, { name: 'type', type: 'STRING' },
		{ name: 'name', type: 'STRING' }, { name: 'module', type: 'STRING' }],
		dumpRows('kallsyms', join(src, 'kallsyms.txt')).map((r) => [...tv, ...r]));
}
rmSync(tmp, { force: true });
if (fleet) {
	// tdat's fleet layout: meta.json says where each trace's object is
	writeFileSync(join(out, 'meta.json'), JSON.stringify({ tdat_dataset: 2, layout: 'fleet', trace_files: 'traces/*.json' }) + '\n');
	mkdirSync(join(out, 'traces'), { recursive: true });
	for (const t of traces) writeFileSync(join(out, 'traces', `${t.name}.json`), JSON.stringify(t) + '\n');
} else {
	writeFileSync(join(out, 'meta.json'), JSON.stringify({ traces }) + '\n');
}
