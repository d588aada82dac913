import { KEPT_LIST_ENTRIES, KEPT_YAML_CHARS, parseItem, serializeItem } from '../../../../src/domain/tracker/item-codec.js';
import type { Item } from '../../../../src/domain/tracker/item.js';
import { CorruptDataError } from '../../../../src/domain/errors/index.js';
import { BoundedCache } from '../../../../src/domain/util/bounded-cache.js';
import { deepFreeze } from '../../../../src/domain/util/canonical-json.js';

const base: Item = {
  id: 'pm-abc123', title: 'Write the parser', type: 'Task', status: 'open', priority: 1,
  tags: ['parser', 'core'], blockedBy: ['pm-zzz999'], related: [], acceptance: [{ text: 'round-trips', done: false }],
  files: [], tests: [], custom: { zeta: 1, alpha: 'a' }, comments: [{ id: 'c-1', author: 'bob', at: '2026-01-02T00:00:00.000Z', text: 'line one\nline two' }],
  created: '2026-01-01T00:00:00.000Z', updated: '2026-01-02T00:00:00.000Z', revision: 3, body: '# Heading\n\nSome *markdown*.',
};

/** The item file written with every kept piece bypassed (the plain path the caches must match). */
function plain(item: Item): string {
  BoundedCache.bypass(true);
  try {
    return serializeItem(item);
  } finally {
    BoundedCache.bypass(false);
  }
}

describe('item codec', () => {
  it('round-trips an item exactly', () => {
    expect(parseItem(serializeItem(base), 'x.md')).toEqual(base);
  });

  it('writes keys in a fixed order, sorts custom fields and omits empty collections', () => {
    const text = serializeItem(base);
    const keys = text.split('---\n')[1]!.split('\n').filter((l) => /^[a-z]/i.test(l)).map((l) => l.split(':')[0]);
    expect(keys).toEqual(['id', 'title', 'type', 'status', 'priority', 'tags', 'blockedBy', 'acceptance', 'custom', 'comments', 'created', 'updated', 'revision']);
    expect(text.indexOf('alpha')).toBeLessThan(text.indexOf('zeta'));
    expect(text).not.toContain('related');
    expect(text.endsWith('Some *markdown*.\n')).toBe(true);
  });

  it('is deterministic: the same item always gives the same bytes', () => {
    expect(serializeItem({ ...base, custom: { alpha: 'a', zeta: 1 } })).toBe(serializeItem(base));
  });

  it('writes nested objects in the schema key order, whatever order they were built in', () => {
    const full: Item = {
      ...base,
      claim: { holder: 'ann', claimedAt: '2026-01-02T00:00:00.000Z', expiresAt: '2026-01-02T01:00:00.000Z' },
      closure: { at: '2026-01-03T00:00:00.000Z', by: 'ann', evidence: 'commit abc' },
    };
    // As a history patch carries them: canonical JSON, keys sorted.
    const sorted = JSON.parse(JSON.stringify(full, (_key, value: unknown) =>
      value && typeof value === 'object' && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b))) : value,
    )) as Item;
    expect(Object.keys(sorted.comments[0]!)).toEqual(['at', 'author', 'id', 'text']);
    expect(serializeItem(sorted)).toBe(serializeItem(full));
    expect(serializeItem(parseItem(serializeItem(sorted), 'x.md'))).toBe(serializeItem(full));
    expect(serializeItem(full)).toMatch(/- id: c-1\n {4}author: bob\n {4}at: /);
    expect(serializeItem(full)).toMatch(/claim:\n {2}holder: ann\n {2}claimedAt: /);
  });

  it('accepts CRLF line endings and a BOM as written by editors', () => {
    const text = `\uFEFF${serializeItem(base).replace(/\n/g, '\r\n')}`;
    expect(parseItem(text, 'x.md').title).toBe(base.title);
  });

  it('writes the same bytes with its kept pieces as without (comments added, edited, removed; pairs changed)', () => {
    const comment = (n: number, text = `note ${n}: "quoted" #${n}`) => ({ id: `c-${n}`, author: n % 2 ? 'bob' : 'ann', at: `2026-01-02T00:00:${String(n % 60).padStart(2, '0')}.000Z`, text });
    let item: Item = deepFreeze({ ...base, comments: [], custom: { zeta: 1, alpha: 'a: b', flag: true } });
    const states: Item[] = [];
    for (let n = 0; n < 40; n++) {
      item = deepFreeze({ ...item, comments: [...item.comments, comment(n)], revision: item.revision + 1, updated: `2026-01-03T00:00:${String(n).padStart(2, '0')}.000Z` });
      states.push(item);
    }
    const edited = item.comments.map((c, k) => (k === 7 ? { ...c, text: 'edited: yes' } : c));
    item = deepFreeze({ ...item, comments: edited, title: 'Renamed: with a colon', priority: 0 });
    states.push(item);
    item = deepFreeze({ ...item, comments: item.comments.slice(0, 20), tags: ['yes', 'null', '007'], claim: { holder: 'ann', claimedAt: base.created, expiresAt: base.updated } });
    states.push(item, deepFreeze({ ...item, comments: item.comments.slice(1) }), deepFreeze({ ...item, comments: [...item.comments.slice(0, 19), comment(99)] }));
    // An unfrozen list changed in place after being written is written anew.
    const open = [...item.comments];
    states.push({ ...item, comments: open });
    open.push(comment(100));
    states.push({ ...item, comments: open });
    for (const state of states) {
      const kept = serializeItem(state);
      expect(serializeItem(state)).toBe(kept);
      expect(kept).toBe(plain(state));
      expect(parseItem(kept, 'x.md')).toEqual(parseItem(plain(state), 'x.md'));
    }
  });

  it('writes the same bytes for lists and values too large to keep as for small ones', () => {
    const comments = Array.from({ length: KEPT_LIST_ENTRIES / 2 + 1 }, (_, n) => Object.freeze({ id: `c-${n}`, author: 'bob', at: base.created, text: `n${n}` }));
    const long = deepFreeze({ ...base, comments, custom: { big: 'x'.repeat(KEPT_YAML_CHARS / 2) }, title: 'y'.repeat(KEPT_YAML_CHARS / 4) });
    const longer = deepFreeze({ ...long, comments: [...comments, { id: 'c-last', author: 'ann', at: base.updated, text: 'last' }] });
    for (const state of [long, longer, longer]) expect(serializeItem(state)).toBe(plain(state));
  });

  it.each([
    ['no front matter', 'hello', 'missing the opening ---'],
    ['unclosed front matter', '---\nid: pm-abc123\n', 'missing the closing ---'],
    ['bad yaml', '---\nid: [unclosed\n---\n', 'YAML error'],
    ['duplicate keys', `${serializeItem(base).replace('priority: 1', 'priority: 1\npriority: 2')}`, 'YAML error'],
    ['schema violation', serializeItem(base).replace('priority: 1', 'priority: 9'), 'priority'],
    ['unknown key', serializeItem(base).replace('priority: 1', 'priority: 1\nsecret: x'), 'front matter'],
    ['alias', serializeItem(base).replace('tags:\n  - parser\n  - core', 'tags: &t\n  - parser\nfiles: *t'), 'YAML error'],
  ])('rejects %s with a CorruptDataError naming the file', (_name, text, detail) => {
    let error: unknown;
    try { parseItem(text, '/t/items/pm-abc123.md'); } catch (e) { error = e; }
    expect(error).toBeInstanceOf(CorruptDataError);
    expect((error as Error).message).toContain('/t/items/pm-abc123.md');
    expect((error as Error).message).toContain(detail);
  });
});
