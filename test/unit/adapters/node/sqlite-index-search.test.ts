import { MemoryItemIndex } from '../../../../src/adapters/memory/memory-item-index.js';
import { SqliteItemIndex } from '../../../../src/adapters/node/sqlite-item-index.js';
import { titleCountsOfPhrase } from '../../../../src/adapters/node/sqlite-index-top.js';
import { runSearchQuery } from '../../../../src/domain/tracker/search-query.js';
import { useTempDir } from '../../../support/temp-dir.js';
import { population, prng, put } from '../item-index-contract.js';

const dir = useTempDir('pm-sqlite-search-');

describe('search over the SQLite word table', () => {
  it('ranks exactly like the in-memory index (plain substring counts) on random texts, through changes', () => {
    const random = prng(99);
    const words = ['index', 'cache', 'reindex', 'indexes', 'lock', 'ka', 'lo', 'kalo', 'mi', 'ß', 'straße', 'x-y', 'x_y', 'Été', 'été'];
    const skew = () => words[Math.floor(random() ** 2 * words.length)]!;
    const text = (n: number) => Array.from({ length: n }, skew).join(random() < 0.3 ? '-' : random() < 0.5 ? ' ' : '. ');
    const make = () =>
      population(random, 200).map((e) => {
        const title = text(1 + Math.floor(random() * 4)).toLowerCase();
        // Priorities beyond one digit too (the port takes any number; item files hold 0-4).
        const priority = random() < 0.1 ? 10 + Math.floor(random() * 90) : e.priority;
        return { ...e, title, priority, updated: random() < 0.5 ? '2026-01-01T00:00:00.000Z' : e.updated, text: { title, body: text(Math.floor(random() * 15)).toLowerCase(), comments: random() < 0.3 ? text(5).toLowerCase() : '' } };
      });
    const sqlite = new SqliteItemIndex(`${dir()}/index.sqlite`);
    // The plain path: nothing held from one search to the next, every column read again.
    const plain = new SqliteItemIndex(`${dir()}/plain.sqlite`, undefined, { sortBelow: 2000, walk: 5000, postingColumns: false });
    // Columns written again with their changes after every few changes of a word.
    const compacting = new SqliteItemIndex(`${dir()}/compacting.sqlite`, undefined, { sortBelow: 2000, walk: 5000, changesPerColumn: 3 });
    const memory = new MemoryItemIndex();
    const stores = [sqlite, plain, compacting, memory];
    for (const store of stores) store.open();
    let items = make();
    for (const store of stores) store.apply(items.map((e, n) => put(e, n)));
    for (let round = 0; round < 150; round++) {
      if (round % 30 === 29) {
        // Edit a quarter of the items (texts, priority, status) and drop a few.
        const next = make();
        const changes = items.flatMap((e, n) => (n % 4 === round % 4 ? [put({ ...next[n]!, id: e.id }, 1000 + round * 300 + n)] : n % 37 === 0 ? [{ kind: 'gone' as const, id: e.id }] : []));
        for (const store of stores) store.apply(changes);
        items = items.map((e, n) => (n % 4 === round % 4 ? { ...next[n]!, id: e.id } : e));
      }
      const query = [skew(), ...(random() < 0.4 ? [skew()] : []), ...(random() < 0.1 ? ['zzz'] : [])].join(random() < 0.8 ? ' ' : ', ');
      // A piece of a title (words cut at either end, repeated words): the phrase bonus's lookups decide.
      const title = items[Math.floor(random() * items.length)]!.title;
      const from = Math.floor(random() * title.length);
      const piece = title.slice(from, from + 3 + Math.floor(random() * 14));
      const options = { query: random() < 0.1 ? items[Math.floor(random() * items.length)]!.id : random() < 0.3 && /[\p{L}\p{N}]/u.test(piece) ? piece : query, limit: 1 + Math.floor(random() * 10), ...(random() < 0.3 ? { openOnly: true } : random() < 0.2 ? { status: ['open'] } : {}) };
      const want = runSearchQuery(memory, options);
      expect([options, runSearchQuery(sqlite, options)]).toEqual([options, want]);
      expect([options, runSearchQuery(plain, options)]).toEqual([options, want]);
      expect([options, runSearchQuery(compacting, options)]).toEqual([options, want]);
    }
    for (const store of stores) store.close();
  });

  it('sums over posting columns read before another connection\'s commit only until that commit', () => {
    const [reader, writer] = [1, 2].map(() => new SqliteItemIndex(`${dir()}/shared.sqlite`));
    for (const store of [reader!, writer!]) store.open();
    const item = (id: string, body: string) => ({ ...population(prng(1), 1)[0]!, id, status: 'open', title: 'x', text: { title: 'x', body, comments: '' } });
    writer!.apply([put(item('pm-a', 'cache reindex'), 1), put(item('pm-b', 'index'), 2)]);
    const search = () => runSearchQuery(reader!, { query: 'index cache' }).results.map((hit) => hit.id);
    expect(search()).toEqual(['pm-a']);
    writer!.apply([put(item('pm-b', 'index cache cache'), 3)]);
    expect(search()).toEqual(['pm-b', 'pm-a']);
    writer!.apply([{ kind: 'gone', id: 'pm-b' }]);
    reader!.apply([put(item('pm-c', 'cached index'), 4)]);
    expect(search()).toEqual(['pm-a', 'pm-c']);
    for (const store of [reader!, writer!]) store.close();
  });
});

describe('search terms the word columns do not hold', () => {
  it('counts terms that are not words, and caps above 255, from the texts: the in-memory index\'s answers', () => {
    const random = prng(5);
    const sqlite = new SqliteItemIndex(`${dir()}/scan.sqlite`);
    const memory = new MemoryItemIndex();
    const many = 'ab '.repeat(300);
    const items = population(random, 40).map((e, n) => {
      const title = n % 3 === 0 ? 'a.b cache' : 'ab-cd';
      return { ...e, title, text: { title, body: n % 4 === 0 ? many : 'x.y ab', comments: n % 5 === 0 ? 'a.b, x.y' : '' } };
    });
    for (const store of [sqlite, memory]) {
      store.open();
      store.apply(items.map((e, n) => put(e, n)));
    }
    const sorted = (list: Iterable<{ id: string }>) => [...list].sort((a, b) => (a.id < b.id ? -1 : 1));
    const ranking = { weights: [5, 1, 1] as const, phraseBonus: 20, limit: 5 };
    for (const query of [
      { terms: ['a.b'], phrase: 'a.b', requireAll: true, cap: 5, filter: {} },
      { terms: ['x.y', 'ab'], phrase: 'x.y ab', requireAll: false, cap: 5, filter: { statuses: ['open'] } },
      { terms: ['ab'], phrase: 'ab', requireAll: true, cap: 1000, filter: {} },
    ]) {
      expect(sorted(sqlite.searchCandidates(query))).toEqual(sorted(memory.searchCandidates(query)));
      expect(sqlite.searchTop({ ...query, ranking }).total).toBe(memory.searchTop({ ...query, ranking }).total);
    }
    expect([...sqlite.searchCandidates({ terms: ['ab'], phrase: 'ab', requireAll: true, cap: 1000, filter: {} })].some((c) => c.counts[1] === 300)).toBe(true);
    sqlite.close();
  });
});

describe('titleCountsOfPhrase', () => {
  it('asks a title for each term as often as the phrase holds it, at least once', () => {
    expect(titleCountsOfPhrase(['index'], 'index index')).toEqual([2]);
    expect(titleCountsOfPhrase(['ka', 'kaka'], 'ka kaka')).toEqual([3, 1]);
    expect(titleCountsOfPhrase(['lo', 'ka'], 'kalo, lo')).toEqual([2, 1]);
    expect(titleCountsOfPhrase(['ab'], 'abab-ab')).toEqual([3]);
    expect(titleCountsOfPhrase(['x'], `${'x '.repeat(300)}`)).toEqual([255]);
  });
});
