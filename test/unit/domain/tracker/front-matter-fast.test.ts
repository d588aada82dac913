import { parseDocument } from 'yaml';
import { readFastFrontMatter } from '../../../../src/domain/tracker/front-matter-fast.js';
import { serializeItem } from '../../../../src/domain/tracker/item-codec.js';
import type { Item } from '../../../../src/domain/tracker/item.js';
import { prng } from '../../adapters/item-index-contract.js';

/** What the general parser makes of a front matter text (undefined when it refuses it). */
function slow(text: string): unknown {
  const doc = parseDocument(text, { uniqueKeys: true, schema: 'core', prettyErrors: false });
  if (doc.errors.length > 0) return undefined;
  try {
    return doc.toJS({ maxAliasCount: 0 });
  } catch {
    return undefined;
  }
}

const frontOf = (item: Item) => serializeItem(item).split('---\n')[1]!;

const PIECES = ['a', 'Z', ' ', ':', ': ', ' #', '#', "'", '"', '\\', '-', '- ', '?', '[', ']', '{', '}', ',', '&', '*', '!', '|', '>', '%', '@', '`', '~', 'null', 'true', 'False', '0', '007', '1.5', '1e3', '0x1F', '.inf', '日本', '😀', 'ß', '\u00a0', '\t', '\n', '\u0085', '\u2028', 'é', '  '];

function nasty(random: () => number): string {
  const n = 1 + Math.floor(random() * 6);
  let s = '';
  for (let i = 0; i < n; i++) s += PIECES[Math.floor(random() * PIECES.length)];
  return s;
}

function item(random: () => number): Item {
  const text = () => (random() < 0.5 ? nasty(random) : `word ${nasty(random)} end`);
  return {
    id: 'pm-abc123', title: text() || 'x', type: random() < 0.2 ? nasty(random) || 'Task' : 'Task', status: 'open', priority: Math.floor(random() * 5),
    tags: random() < 0.5 ? [text(), text()] : [], blockedBy: [], related: [],
    acceptance: random() < 0.5 ? [{ text: text() || 'y', done: random() < 0.5 }] : [], files: [], tests: [],
    custom: random() < 0.3 ? { key: text(), n: Math.floor(random() * 100), b: random() < 0.5 } : {},
    ...(random() < 0.3 ? { assignee: text() || 'z' } : {}),
    comments: random() < 0.5 ? [{ id: 'c-1', author: text() || 'q', at: '2026-01-02T00:00:00.000Z', text: text() || 'w' }] : [],
    created: '2026-01-01T00:00:00.000Z', updated: '2026-01-02T00:00:00.000Z', revision: 1 + Math.floor(random() * 20), body: 'body',
  };
}

describe('the fast front matter reader', () => {
  it('reads what pm writes exactly as the YAML parser does, or leaves it to that parser', () => {
    const random = prng(7);
    let fast = 0;
    for (let n = 0; n < 3000; n++) {
      const front = frontOf(item(random));
      const result = readFastFrontMatter(front);
      if (result === undefined) continue;
      fast++;
      expect(result).toEqual(slow(front));
    }
    // Most generated items are plain enough for the fast path (it is a speed-up for pm's own files).
    expect(fast).toBeGreaterThan(1000);
  });

  it('agrees with the YAML parser on hand-edited files, line by line', () => {
    const random = prng(11);
    const base = frontOf({ ...item(random), tags: ['a', 'b'], comments: [{ id: 'c-1', author: 'bo', at: '2026-01-02T00:00:00.000Z', text: 'hello' }], custom: { k: 'v' } });
    const lines = base.split('\n');
    for (let n = 0; n < 3000; n++) {
      const edited = [...lines];
      const at = Math.floor(random() * (edited.length - 1));
      const line = edited[at]!;
      const cut = Math.floor(random() * (line.length + 1));
      edited[at] = random() < 0.5 ? `${line.slice(0, cut)}${nasty(random)}${line.slice(cut)}` : line.slice(0, cut);
      if (random() < 0.1) edited.splice(at, 0, edited[at]!);
      const text = edited.join('\n');
      const result = readFastFrontMatter(text);
      if (result !== undefined) expect(result).toEqual(slow(text));
    }
  });

  it('leaves comments, anchors, flow collections, block scalars and odd numbers to the YAML parser', () => {
    for (const text of ['title: a # note\n', 'title: &x a\n', 'tags: [a, b]\n', 'title: |\n  a\n', 'priority: 1.0\n', 'priority: 0x1\n', 'title: ~\n', 'title:\n', 'a: 1\na: 2\n', 'tags:\n- a\n', 'title: "\\q"\n']) {
      expect(readFastFrontMatter(text)).toBeUndefined();
    }
    expect(readFastFrontMatter("title: 'it''s'\npriority: 3\ndone: true\n")).toEqual({ title: "it's", priority: 3, done: true });
  });
});

describe('serializeItem writes pairs and list entries one by one', () => {
  it('gives exactly the bytes of one YAML stringify of the whole front matter, cached or not', async () => {
    const { stringify } = await import('yaml');
    const { BoundedCache } = await import('../../../../src/domain/util/bounded-cache.js');
    const { ITEM_KEY_ORDER } = await import('../../../../src/domain/tracker/item.js');
    const reference = (value: Item) => {
      const front: Record<string, unknown> = {};
      const order: Record<string, string[]> = { claim: ['holder', 'claimedAt', 'expiresAt'], closure: ['at', 'by', 'evidence'], comments: ['id', 'author', 'at', 'text'], acceptance: ['text', 'done'] };
      const sorted = (o: Record<string, unknown>, keys: string[]) => Object.fromEntries([...keys.filter((k) => o[k] !== undefined).map((k) => [k, o[k]]), ...Object.keys(o).filter((k) => !keys.includes(k)).sort().map((k) => [k, o[k]])]);
      for (const key of ITEM_KEY_ORDER) {
        const v = value[key] as unknown;
        if (v === undefined || (Array.isArray(v) && v.length === 0) || (key === 'custom' && Object.keys(v as object).length === 0)) continue;
        const keys = order[key];
        front[key] = key === 'custom' ? Object.fromEntries(Object.keys(v as object).sort().map((k) => [k, (v as Record<string, unknown>)[k]])) : keys ? (Array.isArray(v) ? v.map((e) => sorted(e as Record<string, unknown>, keys)) : sorted(v as Record<string, unknown>, keys)) : v;
      }
      const body = value.body.trim();
      return `---\n${stringify(front, { lineWidth: 0, indent: 2, aliasDuplicateObjects: false })}---\n${body ? `\n${body}\n` : ''}`;
    };
    const random = prng(3);
    for (let n = 0; n < 400; n++) {
      const base = item(random);
      const multi = { ...base, comments: [...base.comments, { id: 'c-2', author: 'al', at: '2026-01-03T00:00:00.000Z', text: 'line one\nline two: x' }], acceptance: [...base.acceptance, { text: '#hash', done: true }], claim: { holder: 'z', claimedAt: '2026-01-02T00:00:00.000Z', expiresAt: '2026-01-02T01:00:00.000Z' } };
      for (const value of [base, multi]) {
        expect(serializeItem(value)).toBe(reference(value));
        expect(serializeItem(value)).toBe(reference(value));
        BoundedCache.bypass(true);
        expect(serializeItem(value)).toBe(reference(value));
        BoundedCache.bypass(false);
      }
    }
  });
});
