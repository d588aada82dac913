import type { IndexEntry } from '../../../../src/domain/tracker/index-entry.js';
import { GramMaskCache, runSearchQuery, type KeptMask } from '../../../../src/domain/tracker/search-query.js';
import { BoundedCache } from '../../../../src/domain/util/bounded-cache.js';
import { cachedAndPlain } from '../../../support/cache-comparison.js';
import { memoryTracker, ROOT } from '../../../support/memory-tracker.js';

afterEach(() => BoundedCache.bypass(false));

/** A synthetic index entry (search reads only these fields). */
function entry(n: number, title: string, body: string, comments = ''): IndexEntry {
  return {
    id: `pm-${n.toString(36).padStart(6, '0')}`,
    title,
    type: 'Task',
    status: n % 10 === 0 ? 'closed' : 'open',
    priority: n % 5,
    tags: [],
    blockedBy: [],
    related: [],
    created: '2026-01-01T00:00:00.000Z',
    updated: new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString(),
    revision: 1,
    comments: comments ? 1 : 0,
    text: { title: title.toLowerCase(), body: body.toLowerCase(), comments: comments.toLowerCase() },
    sig: { size: 1, mtimeMs: n, ino: n },
  };
}

/** The plain definition of a match: the term occurs somewhere in the entry's text. */
function naiveMatches(entries: IndexEntry[], term: string): string[] {
  return entries.filter((e) => `${e.text.title}\n${e.text.body}\n${e.text.comments}`.includes(term)).map((e) => e.id).sort();
}

const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet', 'kilo', 'lima'];

describe('search over many entries (trigram masks, two passes)', () => {
  // More entries than one search builds masks for, so early searches mix masked and unmasked.
  const entries = Array.from({ length: 20_000 }, (_, n) => {
    const words = [WORDS[n % 12]!, WORDS[(n * 7) % 12]!, `w${n % 997}`];
    if (n % 1000 === 3) words.push('needle');
    return entry(n, `${words[0]} ${words[2]}`, `${words.join(' ')} body text`, n % 4000 === 7 ? 'Comment with Haystack' : '');
  });

  it('finds exactly the entries that contain a term, before and after every mask is built', () => {
    const expected = naiveMatches(entries, 'needle');
    expect(expected).toHaveLength(20);
    const runs = Array.from({ length: 4 }, () => runSearchQuery(entries, { query: 'needle', limit: 200 }));
    for (const result of runs) {
      expect(result.mode).toBe('all');
      expect(result.total).toBe(20);
      expect(result.results.map((r) => r.id).sort()).toEqual(expected);
    }
    expect(runs.map((r) => JSON.stringify(r))).toEqual(Array(4).fill(JSON.stringify(runs[0])));
  });

  it('counts terms of every length, in comments too, and ranks all-term matches', () => {
    for (const term of ['w12', 'haystack', 'ec', 'o']) {
      const result = runSearchQuery(entries, { query: term, limit: 5 });
      expect(result.total).toBe(naiveMatches(entries, term).length);
    }
    const both = runSearchQuery(entries, { query: 'needle w3', limit: 200 });
    const expected = naiveMatches(entries, 'needle').filter((id) => naiveMatches(entries, 'w3').includes(id));
    expect(both.mode).toBe('all');
    expect(both.results.map((r) => r.id).sort()).toEqual(expected);
    expect(runSearchQuery(entries, { query: 'haystack', status: ['closed'] }).results.every((r) => r.status === 'closed')).toBe(true);
  });

  it('falls back to partial matches only when no entry has every term', () => {
    const result = runSearchQuery(entries, { query: 'needle zzzunknown', limit: 200 });
    expect(result.mode).toBe('any');
    expect(result.total).toBe(20);
    expect(runSearchQuery(entries, { query: 'zzzunknown', limit: 5 })).toEqual({ mode: 'any', total: 0, results: [] });
    expect(runSearchQuery(entries, { query: 'qqqnope zzzunknown', limit: 5 })).toEqual({ mode: 'any', total: 0, results: [] });
  });

  it('matches an exact id even when its text does not contain it', () => {
    const id = entries[42]!.id;
    const result = runSearchQuery(entries, { query: id });
    expect(result.results[0]).toMatchObject({ id, matchedIn: ['id'] });
  });
});

describe('the trigram masks (BoundedCache "search trigram masks")', () => {
  /** 12k entries: more than one search builds masks for, so searches mix masked and unmasked. */
  const corpus = (): IndexEntry[] => Array.from({ length: 12_000 }, (_, n) => {
    const words = [WORDS[n % 12]!, WORDS[(n * 5) % 12]!, `w${n % 613}`];
    if (n % 700 === 5) words.push('needle');
    return entry(n, `${words[0]} ${words[2]}`, `${words.join(' ')} body text`, n % 3000 === 1 ? 'Comment with Haystack' : '');
  });
  const QUERIES = ['needle', 'w12', 'haystack', 'needle w3', 'needle zzzunknown', 'ec', 'alpha bravo', 'pm-00002s'];

  /** Searches in rounds; between rounds entries are replaced by new objects and some removed. */
  function rounds(masks: GramMaskCache): { results: string; masked: number } {
    let list = corpus();
    const results: unknown[] = [];
    for (let round = 0; round < 4; round++) {
      for (const query of QUERIES) results.push(runSearchQuery(list, { query, limit: 50 }, masks));
      list = list.map((e, i) => (i % 911 === round ? entry(i, `needle replaced ${round}`, `new body ${round}`) : e));
      list.splice(100 * (round + 1), 1);
    }
    return { results: JSON.stringify(results), masked: masks.masks.filter(Boolean).length };
  }

  it('give the same results with caching on and bypassed, as entries are replaced and removed', async () => {
    const { cached, plain } = await cachedAndPlain(async () => rounds(new GramMaskCache()));
    expect(cached.results === plain.results).toBe(true);
    expect(cached.results.includes('needle replaced 2')).toBe(true);
    // Caching on, the masks were built and used; bypassed, every text was scanned.
    expect(cached.masked).toBeGreaterThan(8192);
    expect(plain.masked).toBe(0);
  });

  it('never keep more masks than their limit, and stay exact when the order shifts', () => {
    const kept = new BoundedCache<string, KeptMask>('search trigram masks', 64);
    const masks = new GramMaskCache(kept);
    const list = corpus().slice(0, 2000);
    for (let round = 0; round < 3; round++) {
      if (round > 0) list.splice(10, 1);
      for (const term of ['needle', 'w12', 'haystack', 'echo']) {
        const result = runSearchQuery(list, { query: term, limit: 200 }, masks);
        expect(result.total).toBe(naiveMatches(list, term).length);
        expect(kept.size).toBeLessThanOrEqual(64);
      }
    }
    expect(kept.size).toBeGreaterThan(0);
  });
});

describe('search results follow the files as entries are replaced', () => {
  it('sees edits, removals and other trackers between searches', async () => {
    const { tracker, fs, reopen } = await memoryTracker();
    const a = (await tracker.create({ title: 'quartz lamp', body: 'first body' })).item.id;
    const b = (await tracker.create({ title: 'granite desk', body: 'mentions quartz once' })).item.id;
    expect((await tracker.search({ query: 'quartz' })).results.map((r) => r.id).sort()).toEqual([a, b].sort());
    await tracker.update(b, { body: 'no mineral here' });
    expect((await tracker.search({ query: 'quartz' })).results.map((r) => r.id)).toEqual([a]);
    await tracker.update(a, { title: 'obsidian lamp' });
    expect((await tracker.search({ query: 'quartz' })).total).toBe(0);
    expect((await tracker.search({ query: 'obsidian' })).results.map((r) => r.id)).toEqual([a]);

    // Another tracker in the same process, with its own entries, searched in between.
    const other = await memoryTracker();
    const c = (await other.tracker.create({ title: 'obsidian elsewhere' })).item.id;
    expect((await other.tracker.search({ query: 'obsidian' })).results.map((r) => r.id)).toEqual([c]);
    expect((await tracker.search({ query: 'obsidian' })).results.map((r) => r.id)).toEqual([a]);

    const text = (await fs.readText(`${ROOT}/items/${b}.md`))!;
    await fs.writeAtomic(`${ROOT}/items/${b}.md`, text.replace('no mineral here', 'obsidian, edited by hand'));
    expect((await (await reopen()).search({ query: 'obsidian' })).results.map((r) => r.id).sort()).toEqual([a, b].sort());
    await tracker.delete(a, { consent: () => true });
    expect((await tracker.search({ query: 'obsidian' })).results.map((r) => r.id)).toEqual([b]);
  });
});

describe('the index snapshot', () => {
  it('rebuilds from the files when snapshot entries are well-formed JSON of the wrong shape', async () => {
    const { tracker, fs, reopen } = await memoryTracker();
    const { item } = await tracker.create({ title: 'survivor', tags: ['keep'] });
    await tracker.list();
    const { version } = JSON.parse((await fs.readText(`${ROOT}/.runtime/index.json`))!) as { version: number };
    const garbage = [{ id: item.id, title: 42 }, { nonsense: true }, null, { id: item.id, title: 't', parent: 7 }];
    await fs.writeAtomic(`${ROOT}/.runtime/index.json`, JSON.stringify({ version, entries: garbage }));
    const fresh = await reopen();
    expect((await fresh.list({ tag: ['keep'] })).items.map((i) => i.title)).toEqual(['survivor']);
    expect((await fresh.search({ query: 'survivor' })).total).toBe(1);
  });
});
