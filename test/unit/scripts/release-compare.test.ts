/**
 * The comparison behind smoke:mcp's agreement gate (scripts/release/compare.mjs; seed 004
 * "Rollout, rollback, and proof": every consumer agrees on discovery and the canonical revision).
 */
import { compareRecords, formatComparison, jsonDiff, MAX_DIFFS, type ConsumerRecord } from '../../../scripts/release/compare.mjs';

const discover = {
  resultType: 'complete',
  supportedVersions: ['2026-07-28'],
  capabilities: { tools: {}, extensions: { 'io.modelcontextprotocol/ui': {} } },
  _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'pm', version: '0.1.0' } },
};
const init = (revision: string) => ({ protocolVersion: revision, capabilities: { tools: {} }, serverInfo: { name: 'pm', version: '0.1.0' } });
const REVISIONS = ['2025-11-25', '2025-06-18'];
const full = (label: string, overrides: Partial<ConsumerRecord> = {}): ConsumerRecord => ({
  label,
  discover: structuredClone(discover),
  initialize: Object.fromEntries(REVISIONS.map((r) => [r, init(r)])),
  ...overrides,
});

describe('jsonDiff', () => {
  it('finds nothing between equal values, whatever the key order of their objects', () => {
    expect(jsonDiff({ a: 1, b: [1, { c: null }] }, { b: [1, { c: null }], a: 1 })).toEqual([]);
  });

  it('names each differing place by its JSON path, with both values (absent members as undefined)', () => {
    const expected = { supportedVersions: ['2026-07-28'], capabilities: { tools: {}, 'io.x/y': { a: 1 } } };
    const actual = { supportedVersions: ['2026-07-28', '2025-11-25'], capabilities: { 'io.x/y': { a: 2 } }, extra: true };
    expect(jsonDiff(expected, actual)).toEqual([
      { path: '$.capabilities["io.x/y"].a', expected: 1, actual: 2 },
      { path: '$.capabilities.tools', expected: {}, actual: undefined },
      { path: '$.extra', expected: undefined, actual: true },
      { path: '$.supportedVersions[1]', expected: undefined, actual: '2025-11-25' },
    ]);
  });

  it('tells a type change apart (null, array, object, string) without descending into it', () => {
    expect(jsonDiff({ a: null, b: [], c: '1' }, { a: {}, b: {}, c: 1 })).toEqual([
      { path: '$.a', expected: null, actual: {} },
      { path: '$.b', expected: [], actual: {} },
      { path: '$.c', expected: '1', actual: 1 },
    ]);
  });

  it('stops at the limit', () => {
    const many = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`k${i}`, i]));
    expect(jsonDiff(many, {}, '$', 5)).toHaveLength(5);
  });
});

describe('compareRecords', () => {
  it('passes when every record equals the reference; a record without initialize (the SDK primitive) is compared on discovery only', () => {
    const result = compareRecords([full('dispatcher (node)'), full('npx pm-mcp (node)'), { label: 'SDK (bun)', discover: structuredClone(discover) }], REVISIONS);
    expect(result).toEqual({
      ok: true,
      reference: 'dispatcher (node)',
      rows: [
        { label: 'npx pm-mcp (node)', ok: true, diffs: [], omitted: 0 },
        { label: 'SDK (bun)', ok: true, diffs: [], omitted: 0 },
      ],
    });
  });

  it('fails on a capability, a supported version, a server identity or an initialize that differs, saying where', () => {
    const drifted = full('bunx pm-mcp (bun)');
    (drifted.discover as typeof discover).supportedVersions.push('2025-11-25');
    (drifted.discover as typeof discover)._meta['io.modelcontextprotocol/serverInfo'].version = '0.0.9';
    (drifted.initialize!['2025-06-18'] as ReturnType<typeof init>).protocolVersion = '2025-11-25';
    const result = compareRecords([full('dispatcher (node)'), full('installed pm-mcp (node)'), drifted], REVISIONS);
    expect(result.ok).toBe(false);
    expect(result.rows[0]!.ok).toBe(true);
    expect(result.rows[1]!.diffs).toEqual([
      { path: '$.discover._meta["io.modelcontextprotocol/serverInfo"].version', expected: '0.1.0', actual: '0.0.9' },
      { path: '$.discover.supportedVersions[1]', expected: undefined, actual: '2025-11-25' },
      { path: '$.initialize["2025-06-18"].protocolVersion', expected: '2025-06-18', actual: '2025-11-25' },
    ]);
  });

  it('counts a revision a launcher did not answer as a difference', () => {
    const partial = full('work-tree pm-mcp (bun)', { initialize: { '2025-11-25': init('2025-11-25') } });
    const [row] = compareRecords([full('dispatcher (node)'), partial], REVISIONS).rows;
    expect(row!.diffs).toEqual([{ path: '$.initialize["2025-06-18"]', expected: init('2025-06-18'), actual: undefined }]);
  });

  it('lists at most MAX_DIFFS differences per record and counts the rest', () => {
    const reference = full('ref', { discover: Object.fromEntries(Array.from({ length: MAX_DIFFS + 7 }, (_, i) => [`k${i}`, i])) });
    const [row] = compareRecords([reference, full('other', { discover: {} })], REVISIONS).rows;
    expect({ listed: row!.diffs.length, omitted: row!.omitted }).toEqual({ listed: MAX_DIFFS, omitted: 7 });
  });

  it('refuses input it cannot judge: one record, a record without discover or label, a reference without every revision', () => {
    expect(() => compareRecords([full('only')], REVISIONS)).toThrow('need the reference and at least one other record, got 1');
    expect(() => compareRecords([full('ref'), { label: 'npx', discover: undefined }], REVISIONS)).toThrow('npx: no server/discover result');
    expect(() => compareRecords([full('ref'), { label: '', discover }], REVISIONS)).toThrow('a record without a label');
    expect(() => compareRecords([{ label: 'sdk', discover }, full('x')], REVISIONS)).toThrow('the reference sdk has no initialize result for 2025-11-25, 2025-06-18');
  });
});

describe('formatComparison', () => {
  it('prints one line per consumer and, under a differing one, each difference with both values', () => {
    const drifted = full('bunx pm-mcp (node)');
    (drifted.discover as typeof discover).capabilities = { tools: {}, extensions: {} } as typeof discover.capabilities;
    const text = formatComparison(compareRecords([full('dispatcher (node)'), full('npx pm-mcp (node)'), drifted], REVISIONS));
    expect(text.split('\n')).toEqual([
      'same   npx pm-mcp (node)',
      'DIFFER bunx pm-mcp (node): 1 difference from dispatcher (node)',
      '         $.discover.capabilities.extensions["io.modelcontextprotocol/ui"]: dispatcher (node) {}, bunx pm-mcp (node) (absent)',
    ]);
  });

  it('says how many differences were left out', () => {
    const reference = full('ref', { discover: Object.fromEntries(Array.from({ length: MAX_DIFFS + 2 }, (_, i) => [`k${i}`, i])) });
    const text = formatComparison(compareRecords([reference, full('other', { discover: {} })], REVISIONS));
    expect(text).toContain(`other: ${MAX_DIFFS + 2} differences from ref`);
    expect(text.trim().split('\n').pop()).toBe('         … and 2 more');
  });
});
