// The comparison behind smoke:mcp's agreement gate (seed 004 "Rollout, rollback, and proof":
// SDK primitives, direct server calls, real stdio, packed artifacts, npx and bunx agree on
// discovery and the canonical revision). Pure functions over JSON values: the gate collects one
// record per consumer and runtime, and any difference from the reference fails it with a diff
// a person can read.

/** The most differences listed per record: beyond it the diff says how many were left out. */
export const MAX_DIFFS = 20;

const kind = (value) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

const isPlainKey = (key) => /^[A-Za-z_$][\w$]*$/.test(key);

/** `$.a.b[0]["io.x/y"]`: a JSON path that can be pasted into a reader's head. */
function childPath(path, key) {
  if (typeof key === 'number') return `${path}[${key}]`;
  return isPlainKey(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

/**
 * Every place where `actual` differs from `expected`, as { path, expected, actual } (a missing
 * member is `undefined`). Objects are compared member by member whatever their key order (JSON
 * objects are unordered), arrays element by element. Stops after `limit` differences.
 */
export function jsonDiff(expected, actual, path = '$', limit = Infinity) {
  const out = [];
  const walk = (a, b, at) => {
    if (out.length >= limit) return;
    const ka = kind(a);
    const kb = kind(b);
    if (ka !== kb) {
      out.push({ path: at, expected: a, actual: b });
      return;
    }
    if (ka === 'array') {
      const n = Math.max(a.length, b.length);
      for (let i = 0; i < n; i++) walk(a[i], b[i], childPath(at, i));
      return;
    }
    if (ka === 'object') {
      const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
      for (const key of keys) walk(a[key], b[key], childPath(at, key));
      return;
    }
    if (!Object.is(a, b)) out.push({ path: at, expected: a, actual: b });
  };
  walk(expected, actual, path);
  return out;
}

/**
 * Compares the records of every consumer with the first (the reference). A record is
 * { label, discover, initialize? }: `discover` the server/discover result, `initialize` the
 * legacy initialize result per declared revision. A record without `initialize` (the SDK
 * primitive, which has no initialize) is compared on discovery only; the reference must have
 * every revision. Returns { ok, reference, rows: [{ label, ok, diffs, omitted }] }.
 */
export function compareRecords(records, revisions) {
  if (!Array.isArray(records) || records.length < 2) throw new Error(`need the reference and at least one other record, got ${records?.length ?? 0}`);
  const [reference, ...others] = records;
  for (const record of records) {
    if (!record || typeof record.label !== 'string' || !record.label) throw new Error(`a record without a label: ${JSON.stringify(record)?.slice(0, 200)}`);
    if (record.discover === undefined) throw new Error(`${record.label}: no server/discover result`);
  }
  const missing = revisions.filter((revision) => reference.initialize?.[revision] === undefined);
  if (missing.length) throw new Error(`the reference ${reference.label} has no initialize result for ${missing.join(', ')}`);
  const rows = others.map((record) => {
    const diffs = jsonDiff(reference.discover, record.discover, '$.discover');
    if (record.initialize !== undefined) {
      for (const revision of revisions) diffs.push(...jsonDiff(reference.initialize[revision], record.initialize[revision], `$.initialize[${JSON.stringify(revision)}]`));
    }
    return { label: record.label, ok: diffs.length === 0, diffs: diffs.slice(0, MAX_DIFFS), omitted: Math.max(0, diffs.length - MAX_DIFFS) };
  });
  return { ok: rows.every((row) => row.ok), reference: reference.label, rows };
}

const show = (value) => (value === undefined ? '(absent)' : JSON.stringify(value));

/** The comparison as text: one line per record, and under a differing one each difference. */
export function formatComparison(comparison) {
  const lines = [];
  for (const row of comparison.rows) {
    if (row.ok) {
      lines.push(`same   ${row.label}`);
      continue;
    }
    const count = row.diffs.length + row.omitted;
    lines.push(`DIFFER ${row.label}: ${count} difference${count === 1 ? '' : 's'} from ${comparison.reference}`);
    for (const diff of row.diffs) lines.push(`         ${diff.path}: ${comparison.reference} ${show(diff.expected)}, ${row.label} ${show(diff.actual)}`);
    if (row.omitted) lines.push(`         … and ${row.omitted} more`);
  }
  return lines.join('\n');
}
