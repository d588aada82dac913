/**
 * The release evidence record (scripts/release/evidence.mjs; docs/RELEASE.md; seed 004 "Rollout,
 * rollback, and proof": release evidence records exact source, package, tag and consumer
 * revisions separately), built from in-memory inputs and written through an in-memory store.
 */
import { buildEvidence, EVIDENCE_FORMAT, evidenceFileName, writeEvidence, type EvidenceStore } from '../../../scripts/release/evidence.mjs';

const SHA512 = `sha512-${'A'.repeat(86)}==`;
const COMMIT = '0123456789abcdef0123456789abcdef01234567';

function input(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    createdAt: new Date('2026-12-01T23:59:58.123Z'),
    source: { commit: COMMIT, dirty: false },
    package: { name: '@unbrained/pm-cli', version: '0.1.0' },
    tarball: { filename: 'unbrained-pm-cli-0.1.0.tgz', sha512: SHA512, size: 1562778 },
    consumers: [
      { name: '@modelcontextprotocol/sdk', version: '1.32.2', role: 'official client' },
      { name: 'bun', version: '1.4.5', role: 'runtime' },
    ],
    smoke: {
      ok: true,
      seconds: 120.5,
      checks: [{ name: 'npm pack', ok: true }, { name: 'agreement', ok: true }],
      agreement: { ok: true, reference: 'in-process dispatcher (node)', rows: [{ label: 'npx pm-mcp (node)', ok: true, diffs: [], omitted: 0 }] },
    },
    conformance: {
      ok: true,
      suite: '@modelcontextprotocol/conformance@0.2.0-alpha.12',
      requiredFailures: [],
      legs: [
        { requirements: '2026-07-28', scenarios: [{ scenario: 'tools-list', category: 'required', verdict: 'PASS' }, { scenario: 'x', category: 'fixture', verdict: 'n.a.' }] },
        { requirements: '2025-11-25', scenarios: [{ scenario: 'ping', category: 'required', verdict: 'PASS' }] },
      ],
    },
    clients: { ok: true, tests: 'test/integration/mcp-stdio-clients.test.ts', passed: 3, failed: 0 },
    ...overrides,
  };
}

/** A store over a Map: what writeEvidence wrote, by path. */
function memoryStore(): EvidenceStore & { files: Map<string, string>; dirs: string[] } {
  const files = new Map<string, string>();
  const dirs: string[] = [];
  return { files, dirs, mkdir: (dir) => void dirs.push(dir), exists: (path) => files.has(path), write: (path, text) => void files.set(path, text) };
}

describe('buildEvidence', () => {
  it('records source, package, tarball, consumers, smoke and conformance; ok only when all passed', () => {
    const record = buildEvidence(input());
    expect(record).toEqual({
      format: EVIDENCE_FORMAT,
      createdAt: '2026-12-01T23:59:58.123Z',
      ok: true,
      source: { commit: COMMIT, dirty: false },
      package: { name: '@unbrained/pm-cli', version: '0.1.0' },
      tarball: { filename: 'unbrained-pm-cli-0.1.0.tgz', sha512: SHA512, size: 1562778 },
      consumers: [
        { name: '@modelcontextprotocol/sdk', version: '1.32.2', role: 'official client' },
        { name: 'bun', version: '1.4.5', role: 'runtime' },
      ],
      smoke: {
        ok: true,
        passed: 2,
        failed: 0,
        seconds: 120.5,
        checks: [{ name: 'npm pack', ok: true }, { name: 'agreement', ok: true }],
        agreement: { ok: true, reference: 'in-process dispatcher (node)', consumers: ['in-process dispatcher (node)', 'npx pm-mcp (node)'], differing: [] },
      },
      conformance: { ok: true, suite: '@modelcontextprotocol/conformance@0.2.0-alpha.12', requirementSets: ['2026-07-28', '2025-11-25'], required: { passed: 2, total: 2 }, requiredFailures: [] },
      clients: { ok: true, tests: 'test/integration/mcp-stdio-clients.test.ts', passed: 3, failed: 0 },
    });
  });

  it('is not ok when a smoke check failed, the consumers disagree, conformance failed or a client session failed', () => {
    const failedCheck = input();
    (failedCheck.smoke as { checks: { name: string; ok: boolean }[] }).checks.push({ name: 'bunx pm-mcp (bun): server/discover', ok: false });
    expect(buildEvidence(failedCheck)).toMatchObject({ ok: false, smoke: { ok: false, passed: 2, failed: 1 } });

    const disagree = input();
    const diff = { path: '$.discover.supportedVersions[1]', expected: undefined, actual: '2025-11-25' };
    (disagree.smoke as { agreement: unknown }).agreement = { ok: false, reference: 'ref', rows: [{ label: 'bunx', ok: false, diffs: [diff], omitted: 3 }] };
    expect(buildEvidence(disagree)).toMatchObject({ ok: false, smoke: { agreement: { ok: false, differing: [{ label: 'bunx', differences: 4, first: [diff] }] } } });

    const conformance = input();
    (conformance.conformance as { ok: boolean }).ok = false;
    expect(buildEvidence(conformance).ok).toBe(false);

    expect(buildEvidence(input({ clients: { ok: true, tests: 't', passed: 2, failed: 1 } }))).toMatchObject({ ok: false, clients: { ok: false } });
    expect(buildEvidence(input({ clients: { ok: true, tests: 't', passed: 0, failed: 0 } }))).toMatchObject({ ok: false, clients: { ok: false } });

    const noAgreement = input();
    (noAgreement.smoke as { agreement: unknown }).agreement = null;
    expect(buildEvidence(noAgreement)).toMatchObject({ ok: false, smoke: { ok: true, agreement: null } });
  });

  it('keeps a tag and a dirty work tree apart from the commit', () => {
    expect(buildEvidence(input({ source: { commit: COMMIT, tag: 'v0.1.0', dirty: true } })).source).toEqual({ commit: COMMIT, tag: 'v0.1.0', dirty: true });
  });

  it('refuses a record that would not prove anything, naming the field', () => {
    expect(() => buildEvidence(input({ source: { commit: 'abc123', dirty: false } }))).toThrow('release evidence: source.commit must be a full commit id, got "abc123"');
    expect(() => buildEvidence(input({ tarball: { filename: 'x.tgz', sha512: 'sha1-xyz', size: 1 } }))).toThrow('tarball.sha512 must be an sha512-<base64> integrity');
    expect(() => buildEvidence(input({ consumers: [] }))).toThrow('consumers must list at least one consumer');
    expect(() => buildEvidence(input({ consumers: [{ name: 'bun', version: '', role: 'runtime' }] }))).toThrow('consumers[0].version must be a non-empty string');
    expect(() => buildEvidence(input({ smoke: undefined }))).toThrow('smoke is missing');
    expect(() => buildEvidence(input({ conformance: { ok: true, suite: 's' } }))).toThrow('conformance.legs must be a list');
    expect(() => buildEvidence(input({ createdAt: '2026-12-01' }))).toThrow('createdAt must be a Date');
    expect(() => buildEvidence(input({ clients: { ok: true, tests: 't', passed: -1, failed: 0 } }))).toThrow('clients.passed must be a count, got -1');
  });
});

describe('writeEvidence', () => {
  it('writes one pretty JSON file per run under the directory, named by its time', () => {
    const store = memoryStore();
    const record = buildEvidence(input());
    const path = writeEvidence(record, '/repo/.release', store);
    expect(path).toBe('/repo/.release/evidence-20261201T235958.123Z.json');
    expect(store.dirs).toEqual(['/repo/.release']);
    expect(JSON.parse(store.files.get(path)!)).toEqual(record);
    expect(store.files.get(path)!.endsWith('}\n')).toBe(true);
  });

  it('never replaces an earlier record: a second run in the same millisecond gets -2, then -3', () => {
    const store = memoryStore();
    const record = buildEvidence(input());
    const paths = [writeEvidence(record, 'd', store), writeEvidence(record, 'd', store), writeEvidence(record, 'd', store)];
    expect(paths).toEqual(['d/evidence-20261201T235958.123Z.json', 'd/evidence-20261201T235958.123Z-2.json', 'd/evidence-20261201T235958.123Z-3.json']);
    expect(store.files.size).toBe(3);
  });

  it('writes only records made by buildEvidence', () => {
    expect(() => writeEvidence({ format: 'other' } as never, 'd', memoryStore())).toThrow('not a record made by buildEvidence');
  });

  it('names files so that they sort by time', () => {
    const names = ['2026-12-01T09:00:00.000Z', '2026-12-01T23:00:00.000Z', '2027-01-01T00:00:00.000Z'].map((t) => evidenceFileName(new Date(t)));
    expect([...names].sort()).toEqual(names);
  });
});
