// The release evidence record written by `npm run release:evidence` (docs/RELEASE.md; seed 004
// "Rollout, rollback, and proof": release evidence records exact source, package, tag and
// consumer revisions separately). Pure: building and checking the record, naming its file, and
// writing it through a small store the caller provides (the real file system, or a Map in a test).

/** The format tag of every record: bumped when a field changes meaning or is removed. */
export const EVIDENCE_FORMAT = 'pm-release-evidence/1';

/** Where the records go, relative to the repository (git-ignored). */
export const EVIDENCE_DIR = '.release';

const COMMIT = /^[0-9a-f]{40}$/;
const SHA512 = /^sha512-[A-Za-z0-9+/]{86}==$/;

function fail(field, message) {
  throw new Error(`release evidence: ${field} ${message}`);
}

function text(value, field) {
  if (typeof value !== 'string' || value.trim() === '') fail(field, `must be a non-empty string, got ${JSON.stringify(value)}`);
  return value;
}

function count(value, field) {
  if (!Number.isSafeInteger(value) || value < 0) fail(field, `must be a count, got ${JSON.stringify(value)}`);
  return value;
}

function flag(value, field) {
  if (typeof value !== 'boolean') fail(field, `must be true or false, got ${JSON.stringify(value)}`);
  return value;
}

function consumer(entry, i) {
  const at = `consumers[${i}]`;
  if (!entry || typeof entry !== 'object') fail(at, 'must be an object');
  return { name: text(entry.name, `${at}.name`), version: text(entry.version, `${at}.version`), role: text(entry.role, `${at}.role`) };
}

function smokeSection(smoke) {
  if (!smoke || typeof smoke !== 'object') fail('smoke', 'is missing');
  const checks = Array.isArray(smoke.checks) ? smoke.checks.map((c, i) => ({ name: text(c?.name, `smoke.checks[${i}].name`), ok: flag(c?.ok, `smoke.checks[${i}].ok`) })) : fail('smoke.checks', 'must be a list');
  const failed = checks.filter((c) => !c.ok).length;
  const agreement = smoke.agreement ?? null;
  if (agreement !== null && (typeof agreement.ok !== 'boolean' || !Array.isArray(agreement.rows))) fail('smoke.agreement', 'must be { ok, reference, rows } or null');
  return {
    ok: flag(smoke.ok, 'smoke.ok') && failed === 0 && checks.length > 0,
    passed: checks.length - failed,
    failed,
    seconds: typeof smoke.seconds === 'number' ? smoke.seconds : fail('smoke.seconds', 'must be a number'),
    checks,
    agreement: agreement && {
      ok: agreement.ok,
      reference: text(agreement.reference, 'smoke.agreement.reference'),
      consumers: [agreement.reference, ...agreement.rows.map((row) => row.label)],
      differing: agreement.rows.filter((row) => !row.ok).map((row) => ({ label: row.label, differences: row.diffs.length + (row.omitted ?? 0), first: row.diffs.slice(0, 5) })),
    },
  };
}

function conformanceSection(report) {
  if (!report || typeof report !== 'object') fail('conformance', 'is missing');
  const legs = Array.isArray(report.legs) ? report.legs : fail('conformance.legs', 'must be a list');
  const required = legs.flatMap((leg) => (leg.scenarios ?? []).filter((s) => s.category === 'required').map((s) => ({ leg: leg.requirements, scenario: s.scenario, passed: s.verdict === 'PASS' })));
  return {
    ok: flag(report.ok, 'conformance.ok'),
    suite: text(report.suite, 'conformance.suite'),
    requirementSets: legs.map((leg) => text(leg.requirements, 'conformance.legs[].requirements')),
    required: { passed: required.filter((r) => r.passed).length, total: required.length },
    requiredFailures: Array.isArray(report.requiredFailures) ? report.requiredFailures : [],
  };
}

function clientsSection(clients) {
  if (!clients || typeof clients !== 'object') fail('clients', 'is missing');
  const passed = count(clients.passed, 'clients.passed');
  const failed = count(clients.failed, 'clients.failed');
  return { ok: flag(clients.ok, 'clients.ok') && failed === 0 && passed > 0, tests: text(clients.tests, 'clients.tests'), passed, failed };
}

/**
 * The record of one run, checked: exactly what was proven about which bytes. `ok` is true only
 * when the smoke gate (every check and the agreement of every consumer), the required
 * conformance scenarios and the official clients' sessions passed. Throws naming the first bad field.
 */
export function buildEvidence(input) {
  const createdAt = input.createdAt instanceof Date ? input.createdAt : fail('createdAt', 'must be a Date');
  const commit = COMMIT.test(input.source?.commit ?? '') ? input.source.commit : fail('source.commit', `must be a full commit id, got ${JSON.stringify(input.source?.commit)}`);
  const sha512 = SHA512.test(input.tarball?.sha512 ?? '') ? input.tarball.sha512 : fail('tarball.sha512', `must be an sha512-<base64> integrity, got ${JSON.stringify(input.tarball?.sha512)}`);
  const consumers = Array.isArray(input.consumers) && input.consumers.length ? input.consumers.map(consumer) : fail('consumers', 'must list at least one consumer');
  const smoke = smokeSection(input.smoke);
  const conformance = conformanceSection(input.conformance);
  const clients = clientsSection(input.clients);
  return {
    format: EVIDENCE_FORMAT,
    createdAt: createdAt.toISOString(),
    ok: smoke.ok && (smoke.agreement?.ok ?? false) && conformance.ok && clients.ok,
    source: { commit, ...(input.source.tag ? { tag: text(input.source.tag, 'source.tag') } : {}), dirty: flag(input.source.dirty, 'source.dirty') },
    package: { name: text(input.package?.name, 'package.name'), version: text(input.package?.version, 'package.version') },
    tarball: { filename: text(input.tarball.filename, 'tarball.filename'), sha512, size: count(input.tarball.size, 'tarball.size') },
    consumers,
    smoke,
    conformance,
    clients,
  };
}

/** `evidence-20261201T235959.123Z.json`: sortable, one per run, no characters a file system refuses. */
export function evidenceFileName(date) {
  return `evidence-${date.toISOString().replace(/[-:]/g, '')}.json`;
}

/**
 * Writes the record as `<dir>/<evidenceFileName>` and returns that path. Never replaces a
 * file: a second record in the same millisecond gets `-2`, `-3`, … `store` is
 * { mkdir(dir), exists(path), write(path, text) }.
 */
export function writeEvidence(record, dir, store) {
  if (record?.format !== EVIDENCE_FORMAT) throw new Error('release evidence: not a record made by buildEvidence');
  store.mkdir(dir);
  const base = evidenceFileName(new Date(record.createdAt)).replace(/\.json$/, '');
  let path = `${dir}/${base}.json`;
  for (let n = 2; store.exists(path); n++) path = `${dir}/${base}-${n}.json`;
  store.write(path, `${JSON.stringify(record, null, 2)}\n`);
  return path;
}
