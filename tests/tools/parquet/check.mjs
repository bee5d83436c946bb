// SPDX-License-Identifier: GPL-2.0-or-later
// check.mjs - what pqcheck.mjs checks (see there), as a function the
// self-test calls too, many datasets in one process.
import { readFileSync, readdirSync, statSync, existsSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { sql, sqlString, readBoth, parseJson, parseFormats, allowedTypes, dumpRows,
	 Bytes, show, Mismatch, oneLine } from './lib.mjs';

// A table's own columns (not event fields): a format field of one of
// these names is stored as field_NAME.
const OWN = ['trace', 'timestamp', 'cpu', 'buffer', 'pid', 'comm', 'missed_events', 'message'];

// check({ dir, report, trace, input, formats, kallsyms, cmdlines, counts }): the
// summary line, or a Mismatch naming the first difference; an Error when
// the report or a dump text cannot be read.
export async function check(opt) {
	const { dir, report: reportPath } = opt;
	const trace = opt.trace ?? null;
	const lead = trace === null ? [] : ['trace'];
	const formats = opt.formats === undefined ? null
		: parseFormats(readFileSync(opt.formats).toString('latin1'));

	function fail(msg) {
		throw new Mismatch(msg);
	}

	function fileText(path) {
		try { return readFileSync(path); }
		catch (e) { throw new Error(`cannot read ${path}: ${oneLine(e)}`); }
	}

	// ---- meta.json ----

	function checkMeta() {
		const path = join(dir, 'meta.json');
		if (!existsSync(path)) fail(`${path}: missing`);
		let meta;
		try { meta = parseJson(new TextDecoder('utf-8', { fatal: true }).decode(readFileSync(path))); }
		catch (e) { fail(`${path}: not JSON: ${oneLine(e)}`); }
		if (!(meta instanceof Map)) fail(`${path}: not a JSON object`);
		if (trace === null) return;
		// a fleet: meta.json names where each trace's object is
		if (meta.get('layout') !== 'fleet' || meta.get('trace_files') !== 'traces/*.json')
			fail(`${path}: not a fleet's meta.json ("layout" "fleet", "trace_files" "traces/*.json")`);
		const tpath = join(dir, 'traces', `${trace}.json`);
		if (!existsSync(tpath)) fail(`${tpath}: missing: no trace named ${JSON.stringify(trace)} in the fleet`);
		let t;
		try { t = parseJson(new TextDecoder('utf-8', { fatal: true }).decode(readFileSync(tpath))); }
		catch (e) { fail(`${tpath}: not JSON: ${oneLine(e)}`); }
		if (!(t instanceof Map) || t.get('name') !== trace) fail(`${tpath}: its "name" is not ${JSON.stringify(trace)}`);
		const p = t.get('path');
		if (typeof p !== 'string') fail(`${tpath}: no "path" string`);
		if (opt.input !== undefined && p !== opt.input) {
			let a = null, b = null;
			try { a = realpathSync(p); b = realpathSync(opt.input); } catch { /* */ }
			if (a === null || a !== b)
				fail(`${tpath}: "path" is ${JSON.stringify(p)}, expected ${JSON.stringify(opt.input)}`);
		}
	}

	// ---- where the tables are ----

	const isDir = (p) => statSync(p).isDirectory();

	// [{ kind: 'event'|'kallsyms'|'cmdlines', path, system, event }]
	function findTables() {
		const out = [];
		for (const e of readdirSync(dir).sort()) {
			const p = join(dir, e);
			if (e === 'meta.json') continue;
			if (e === 'traces' && trace !== null) continue;	// the traces' objects
			if (trace === null) {
				if (e === 'cmdlines.parquet' || e === 'kallsyms.parquet') {
					out.push({ kind: e.replace('.parquet', ''), path: p });
					continue;
				}
				if (!isDir(p)) fail(`${p}: unexpected file in a dataset`);
				for (const f of readdirSync(p).sort()) {
					const q = join(p, f);
					if (!f.endsWith('.parquet') || isDir(q))
						fail(`${q}: unexpected in a single-input dataset (a fleet? give --trace)`);
					out.push({ kind: 'event', path: q, system: e, event: f.slice(0, -8) });
				}
				continue;
			}
			if (!isDir(p)) fail(`${p}: unexpected file in a fleet`);
			const mine = `${trace}.parquet`;
			if (e === 'cmdlines' || e === 'kallsyms') {
				if (existsSync(join(p, mine)))
					out.push({ kind: e, path: join(p, mine) });
				// A system may have these names too: its events are folders.
			}
			for (const f of readdirSync(p).sort()) {
				const q = join(p, f);
				if (!isDir(q)) {
					if (e === 'cmdlines' || e === 'kallsyms') continue;
					fail(`${q}: unexpected file in a fleet (tables are SYSTEM/EVENT/TRACE.parquet)`);
				}
				if (existsSync(join(q, mine)))
					out.push({ kind: 'event', path: join(q, mine), system: e, event: f });
			}
		}
		for (const k of ['cmdlines', 'kallsyms'])
			if (!out.some((t) => t.kind === k))
				fail(`${trace === null ? join(dir, k + '.parquet') : join(dir, k, trace + '.parquet')}: missing`);
		return out;
	}

	// ---- the report ----

	// "SYSTEM/EVENT" -> { system, event, objs: [{ o, line }] }
	function readReport() {
		const groups = new Map();
		let skipped = 0, total = 0;
		let text;
		try { text = new TextDecoder('utf-8', { fatal: true }).decode(fileText(reportPath)); }
		catch (e) { throw new Error(`${reportPath}: not UTF-8: ${oneLine(e)}`); }
		const lines = text.split('\n');
		if (lines[lines.length - 1] === '') lines.pop();
		for (const [k, l] of lines.entries()) {
			let o;
			try { o = parseJson(l); }
			catch (e) { throw new Error(`${reportPath} line ${k + 1}: ${oneLine(e)}`); }
			// an id no format names: {"type":N,"system":null,...}, no "common"
			const unknown = o instanceof Map && o.get('system') === null && o.has('type');
			if (!(o instanceof Map) || (!unknown && !(o.get('common') instanceof Map)) ||
			    !(o.get('fields') instanceof Map))
				throw new Error(`${reportPath} line ${k + 1}: not an event object of report --json`);
			if (o.has('file'))
				throw new Error(`${reportPath} line ${k + 1}: has "file": give the report of one input`);
			total++;
			if (o.get('system') === null) { skipped++; continue; }
			const key = `${o.get('system')}/${o.get('event')}`;
			if (!groups.has(key)) groups.set(key, { system: o.get('system'), event: o.get('event'), objs: [] });
			groups.get(key).objs.push({ o, line: k + 1 });
		}
		return { groups, skipped, total };
	}

	// ---- comparing ----

	function kindOf(v) {
		if (v === null) return null;
		if (typeof v === 'bigint') return 'int';
		if (typeof v === 'string') return 'string';
		if (Array.isArray(v)) return 'array';
		return 'other';
	}

	// A JSON value (from the report) and a Parquet one, in normal form.
	function valueEq(j, p) {
		if (j === null || typeof j === 'bigint' || typeof j === 'string') return j === p;
		if (!Array.isArray(j)) return false;
		if (p instanceof Bytes)
			return j.length === p.bytes.length && j.every((x, i) => x === BigInt(p.bytes[i]));
		return Array.isArray(p) && j.length === p.length && j.every((x, i) => valueEq(x, p[i]));
	}

	function columnsMatch(path, names, want) {
		if (names.join('\0') === want.join('\0')) return;
		const missing = want.filter((n) => !names.includes(n));
		const extra = names.filter((n) => !want.includes(n));
		const parts = [];
		if (missing.length) parts.push(`missing column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`);
		if (extra.length) parts.push(`extra column${extra.length > 1 ? 's' : ''} ${extra.join(', ')}`);
		if (!parts.length) parts.push(`columns in another order: [${names.join(', ')}], expected [${want.join(', ')}]`);
		fail(`${path}: ${parts.join('; ')}`);
	}

	function typeIs(path, t, name, allowed, why) {
		const k = t.names.indexOf(name);
		if (!allowed.includes(t.types[k]))
			fail(`${path}: column ${name} is ${t.types[k]}, expected ${allowed.join(' or ')}${why ? ` (${why})` : ''}`);
	}

	function checkTrace(path, t) {
		if (trace === null) return;
		typeIs(path, t, 'trace', ['STRING']);
		for (let r = 0; r < t.rows; r++)
			if (t.cols[0][r] !== trace)
				fail(`${path}: row ${r} column trace: ${show(t.cols[0][r])}, expected ${JSON.stringify(trace)}`);
	}


	function checkEvent(tab, t, g) {
		const { path } = tab;
		const first = g.objs[0].o;
		const common = [...first.get('common').keys()];
		const fields = [...first.get('fields').keys()];
		const col = (k) => OWN.includes(k) ? `field_${k}` : k;
		const bprint = g.system === 'ftrace' && g.event === 'bprint';
		const want = [...lead, 'timestamp', 'cpu', 'buffer', 'pid', 'comm', 'missed_events',
			...common, ...fields.map(col), ...(bprint ? ['message'] : [])];
		columnsMatch(path, t.names, want);
		checkTrace(path, t);

		// Types: the row's own columns, then each field as its C type says.
		const fixed = { timestamp: 'INT64', cpu: 'INT32', buffer: 'STRING', pid: 'INT32',
			comm: 'STRING', missed_events: 'INT64', message: 'STRING' };
		for (const [n, ty] of Object.entries(fixed))
			if (t.names.includes(n)) typeIs(path, t, n, [ty]);
		let fmt;
		if (formats) {
			const id = first.get('common').get('common_type');
			fmt = formats.get(Number(id));
			if (!fmt) fail(`${opt.formats}: no format with ID ${id} (${g.system}/${g.event}, report line ${g.objs[0].line})`);
		}
		for (const [part, keys] of [['common', common], ['fields', fields]]) {
			for (const k of keys) {
				const kinds = new Set(g.objs.map(({ o }) => kindOf(o.get(part).get(k))));
				kinds.delete(null);
				if (kinds.size > 1 || kinds.has('other'))
					fail(`${reportPath}: ${g.system}/${g.event} ${k}: values of several kinds (${[...kinds]})`);
				const f = fmt?.get(k);
				if (fmt && !f)
					fail(`${opt.formats}: ${g.system}/${g.event} has no field ${k}`);
				const allowed = allowedTypes(f, kinds.size ? [...kinds][0] : null);
				if (allowed)
					typeIs(path, t, col(k), allowed, f ? `C type "${f.decl}", size ${f.size}, signed ${f.signed ? 1 : 0}` : '');
			}
		}

		// Rows: the first that differs is named, then a difference in number.
		const at = (n) => t.cols[t.names.indexOf(n)];
		const cols = {
			timestamp: at('timestamp'), cpu: at('cpu'), buffer: at('buffer'), pid: at('pid'),
			comm: at('comm'), missed_events: at('missed_events'),
		};
		const colsC = common.map((k) => at(k));
		const colsF = fields.map((k) => at(col(k)));
		const msg = bprint ? at('message') : null;
		for (const [r, { o, line }] of g.objs.slice(0, t.rows).entries()) {
			const where = (c, p, j) => `${path}: row ${r} column ${c}: parquet ${show(p)}, report ${show(j)} (${reportPath} line ${line})`;
			const oc = o.get('common'), of = o.get('fields');
			if ([...oc.keys()].join('\0') !== common.join('\0') || [...of.keys()].join('\0') !== fields.join('\0'))
				fail(`${reportPath} line ${line}: ${g.system}/${g.event} has other keys than its first object (line ${g.objs[0].line}): one table cannot hold both`);
			for (const k of ['cpu', 'buffer', 'pid', 'comm'])
				if (!valueEq(o.get(k), cols[k][r])) fail(where(k, cols[k][r], o.get(k)));
			const ts = o.get('timestamp'), pts = cols.timestamp[r];
			if (typeof pts !== 'bigint' || BigInt.asUintN(64, ts) !== BigInt.asUintN(64, pts))
				fail(where('timestamp', pts, ts));
			const me = o.has('missed_events') ? o.get('missed_events') : null;
			if (!valueEq(me, cols.missed_events[r])) fail(where('missed_events', cols.missed_events[r], me));
			for (const [i, k] of common.entries())
				if (!valueEq(oc.get(k), colsC[i][r])) fail(where(k, colsC[i][r], oc.get(k)));
			for (const [i, k] of fields.entries())
				if (!valueEq(of.get(k), colsF[i][r])) fail(where(col(k), colsF[i][r], of.get(k)));
			if (msg && typeof msg[r] !== 'string')
				fail(`${path}: row ${r} column message: ${show(msg[r])}, expected the formatted text`);
		}
		if (t.rows !== g.objs.length)
			fail(`${path}: ${t.rows} rows, the report has ${g.objs.length} ${g.system}/${g.event} events`);
	}

	function checkSide(tab, t) {
		const { path, kind } = tab;
		const spec = kind === 'cmdlines'
			? [['pid', 'INT32'], ['comm', 'STRING']]
			: [['address', 'UINT64'], ['type', 'STRING'], ['name', 'STRING'], ['module', 'STRING']];
		columnsMatch(path, t.names, [...lead, ...spec.map(([n]) => n)]);
		checkTrace(path, t);
		for (const [n, ty] of spec) typeIs(path, t, n, [ty]);
		const at = (n) => t.cols[t.names.indexOf(n)];
		for (const [n] of spec) {
			if (n === 'module') continue;
			const c = at(n);
			for (let r = 0; r < t.rows; r++)
				if (c[r] === null) fail(`${path}: row ${r} column ${n}: null`);
		}
		if (kind === 'kallsyms') {
			const c = at('type');
			for (let r = 0; r < t.rows; r++)
				if ([...c[r]].length !== 1) fail(`${path}: row ${r} column type: ${show(c[r])}, expected one character`);
		}
		const src = opt[kind];
		if (src === undefined) return;
		const want = dumpRows(kind, src);
		const cols = spec.map(([n]) => at(n));
		const n = Math.min(t.rows, want.length);
		for (let r = 0; r < n; r++)
			for (const [k, [name]] of spec.entries())
				if (cols[k][r] !== want[r][k])
					fail(`${path}: row ${r} column ${name}: parquet ${show(cols[k][r])}, ${src} ${show(want[r][k])}`);
		if (t.rows !== want.length)
			fail(`${path}: ${t.rows} rows, ${src} has ${want.length}`);
	}

	if (!existsSync(dir) || !isDir(dir)) fail(`${dir}: no such dataset directory`);
	checkMeta();
	const tables = findTables();
	const { groups, skipped, total } = readReport();
	let rows = 0, events = 0;
	const counts = {};
	for (const tab of tables) {
		const t = await readBoth(tab.path);
		if (tab.kind === 'event') {
			const g = groups.get(`${tab.system}/${tab.event}`);
			if (!g) fail(`${tab.path}: ${t.rows} rows, but the report has no ${tab.system}/${tab.event} event`);
			checkEvent(tab, t, g);
			g.done = true;
			events++;
			rows += t.rows;
		} else {
			checkSide(tab, t);
			counts[tab.kind] = t.rows;
		}
	}
	for (const g of groups.values())
		if (!g.done) {
			const p = trace === null ? join(dir, g.system, g.event + '.parquet')
				: join(dir, g.system, g.event, trace + '.parquet');
			fail(`${p}: missing: the report has ${g.objs.length} ${g.system}/${g.event} events (first at ${reportPath} line ${g.objs[0].line})`);
		}
	if (opt.counts && events) {
		// The query a user would run over the whole dataset at once.
		const glob = trace === null ? join(dir, '*', '*.parquet') : join(dir, '*', '*', `${trace}.parquet`);
		let r;
		try {
			// (an event may have a field named filename)
			r = await sql(`SELECT tdat_pq_file, count(*) FROM read_parquet(${sqlString(glob)}, ` +
				"union_by_name = true, filename = 'tdat_pq_file') GROUP BY tdat_pq_file");
		} catch (e) {
			fail(`DuckDB cannot read ${glob} with union_by_name: ${oneLine(e)}`);
		}
		const byPath = new Map(tables.map((t) => [resolve(t.path), t]));
		const seen = new Set();
		for (const [f, c] of r.getRowsJS()) {
			const tab = byPath.get(resolve(f));
			if (!tab || tab.kind !== 'event') fail(`${glob}: DuckDB reads ${f}, not an event table`);
			const g = groups.get(`${tab.system}/${tab.event}`);
			if (BigInt(c) !== BigInt(g.objs.length))
				fail(`${glob}: DuckDB counts ${c} rows in ${f} (union_by_name), the report has ${g.objs.length}`);
			seen.add(tab);
		}
		if (seen.size !== events) fail(`${glob}: DuckDB reads ${seen.size} event tables, not ${events}`);
	}
	if (rows + skipped !== total) throw new Error(`internal: ${rows} rows + ${skipped} skipped != ${total}`);
	return `${dir}${trace === null ? '' : ` trace ${trace}`}: ${tables.length} tables ok ` +
		`(both readers agree${opt.counts && events ? ', union_by_name counts too' : ''}): ` +
		`${events} event tables, ${rows} rows as the report, ${skipped} events without a format; ` +
		`kallsyms ${counts.kallsyms}, cmdlines ${counts.cmdlines} rows${opt.kallsyms || opt.cmdlines ? ' as tdat dump' : ''}`;
}
