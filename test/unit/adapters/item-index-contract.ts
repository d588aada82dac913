import { MemoryItemIndex } from '../../../src/adapters/memory/memory-item-index.js';
import type { FileSignature } from '../../../src/ports/file-system.js';
import type { IndexChange, IndexedItem, IndexSortField, ItemIndexStore, ScannedFiles } from '../../../src/ports/item-index-store.js';

/** A directory scan of these [id, hash] pairs, as compareFiles takes it. */
function scanOf(files: readonly (readonly [string, number])[]): ScannedFiles {
  return { length: files.length, id: (index) => files[index]![0], hash: (index) => files[index]![1] };
}

/** A deterministic PRNG (mulberry32), so a failing random case can be replayed. */
export function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    let t = (s += 0x6d2b79f5);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const sig = (n: number): FileSignature => ({ size: 100 + n, mtimeMs: 1_700_000_000_000 + n * 1.25, ino: 1000 + n, ctimeMs: 1_700_000_000_000 + n * 1.5 });

export function entry(id: string, overrides: Partial<IndexedItem> = {}): IndexedItem {
  const title = overrides.title ?? `Title of ${id}`;
  return {
    id,
    title,
    type: 'Task',
    status: 'open',
    priority: 2,
    tags: [],
    blockedBy: [],
    related: [],
    created: '2026-01-01T00:00:00.000Z',
    updated: '2026-01-01T00:00:00.000Z',
    revision: 1,
    comments: 0,
    ...overrides,
    text: overrides.text ?? { title: title.toLowerCase(), body: '', comments: '' },
  };
}

export const put = (item: IndexedItem, n = 0, extra: Partial<{ racy: boolean; hash: number }> = {}): IndexChange => ({
  kind: 'item',
  item,
  file: { signature: sig(n), hash: extra.hash ?? n + 1, racy: extra.racy ?? false },
});

const WORDS = ['index', 'cache', 'ka', 'lo', 'kalo', 'mi', 'indexer', 'réindex', 'ß', 'straße', '日本', '日本語', 'a-b', 'x_y', '😀', 'ｚ'];
const STATUSES = ['open', 'open', 'open', 'in_progress', 'blocked', 'closed', 'canceled', 'draft'];
const TYPES = ['Task', 'Epic', 'Issue'];
const TAGS = ['api', 'cli', 'docs'];
const PEOPLE = ['ana', 'bo', 'cy'];

/** A random but valid population of entries (references point at earlier ids or at missing ones). */
export function population(random: () => number, count: number): IndexedItem[] {
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const sentence = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(' ');
  const out: IndexedItem[] = [];
  for (let i = 0; i < count; i++) {
    const id = `pm-${i.toString(36).padStart(4, '0')}`;
    const earlier = out.map((e) => e.id);
    const title = `${sentence(1 + Math.floor(random() * 4))}${random() < 0.2 ? ' 😀' : ''}`;
    const body = sentence(Math.floor(random() * 12));
    const comments = random() < 0.3 ? sentence(4) : '';
    const created = new Date(Date.UTC(2026, 0, 1) + Math.floor(random() * 50) * 3_600_000).toISOString();
    const claim = random() < 0.2 ? { claimHolder: pick(PEOPLE), claimExpiresAt: random() < 0.5 ? '2026-06-01T00:00:00.000Z' : '2025-06-01T00:00:00.000Z' } : {};
    out.push(entry(id, {
      title,
      type: pick(TYPES),
      status: pick(STATUSES),
      priority: Math.floor(random() * 5),
      tags: [...new Set(Array.from({ length: Math.floor(random() * 3) }, () => pick(TAGS)))],
      ...(earlier.length && random() < 0.3 ? { parent: pick(earlier) } : {}),
      ...(random() < 0.5 ? { assignee: pick(PEOPLE) } : {}),
      ...claim,
      blockedBy: earlier.length && random() < 0.3 ? [pick(earlier), ...(random() < 0.2 ? ['pm-zzzz'] : [])] : [],
      related: earlier.length && random() < 0.2 ? [pick(earlier)] : [],
      created,
      updated: random() < 0.5 ? created : new Date(Date.parse(created) + Math.floor(random() * 10) * 60_000).toISOString(),
      comments: comments ? 1 : 0,
      text: { title: title.toLowerCase(), body, comments },
    }));
  }
  return out;
}

/**
 * The shared contract of the ItemIndexStore port, run against the SQLite adapter (a database
 * file in a temp dir) and the in-memory one: same results, same order, same counts, same
 * candidates, so the domain's tests over the fake hold for the real index.
 */
export function describeItemIndexContract(label: string, subject: () => Promise<ItemIndexStore>): void {
  describe(`${label}: ItemIndexStore (contract)`, () => {
    let store: ItemIndexStore;
    beforeEach(async () => {
      store = await subject();
      store.open();
    });
    afterEach(() => store.close());

    it('keeps files, their hash sum, racy marks and notes', () => {
      expect(store.digest()).toBe(0);
      expect(store.apply([put(entry('pm-a1'), 1, { hash: 2 ** 47 }), put(entry('pm-b1'), 2, { hash: 2 ** 47 + 5, racy: true })])).toBe(2);
      expect(store.digest()).toBe(5);
      expect(store.recomputeDigest()).toBe(5);
      expect(store.digest()).toBe(5);
      expect(store.fileOf('pm-a1')).toEqual({ signature: sig(1), hash: 2 ** 47, racy: false });
      expect([...store.files().keys()].sort()).toEqual(['pm-a1', 'pm-b1']);
      expect(store.racy()).toEqual(['pm-b1']);
      store.apply([{ kind: 'gone', id: 'pm-b1' }]);
      expect(store.digest()).toBe(2 ** 47);
      expect(store.racy()).toEqual([]);
      expect(store.note('dir')).toBeUndefined();
      store.setNote('dir', 'x');
      expect(store.note('dir')).toBe('x');
    });

    it('applies a conditional change only while the recorded file is the expected one', () => {
      const first = put(entry('pm-a1', { title: 'first' }), 1);
      expect(store.apply([{ ...first, expected: sig(9) }])).toBe(0);
      expect(store.apply([{ ...first, expected: null }])).toBe(1);
      expect(store.apply([{ ...put(entry('pm-a1', { title: 'late reader' }), 2), expected: null }])).toBe(0);
      expect(store.apply([{ ...put(entry('pm-a1', { title: 'repair' }), 3), expected: sig(1) }])).toBe(1);
      expect(store.get('pm-a1')?.title).toBe('repair');
      expect(store.apply([{ kind: 'gone', id: 'pm-a1', expected: sig(1) }])).toBe(0);
      expect(store.apply([{ kind: 'gone', id: 'pm-a1', expected: sig(3) }])).toBe(1);
      expect(store.get('pm-a1')).toBeUndefined();
      expect(store.digest()).toBe(0);
    });

    it('compares a directory scan with the recorded files', () => {
      store.apply([put(entry('pm-a1'), 1, { hash: 11 }), put(entry('pm-b1'), 2, { hash: 22 }), { kind: 'problem', problem: { id: 'pm-c1', message: 'x' }, file: { signature: sig(3), hash: 33, racy: false } }]);
      const result = store.compareFiles(scanOf([['pm-b1', 22], ['pm-a1', 12], ['pm-new', 5]]));
      expect([...result.changed].sort((x, y) => x.index - y.index)).toEqual([{ index: 1, expected: sig(1) }, { index: 2, expected: null }]);
      expect(result.gone).toEqual([{ id: 'pm-c1', expected: sig(3) }]);
      expect(store.compareFiles(scanOf([]))).toEqual({ changed: [], gone: expect.arrayContaining([{ id: 'pm-a1', expected: sig(1) }]) });
    });

    it('keeps unreadable files apart from items', () => {
      store.apply([put(entry('pm-a1')), { kind: 'problem', problem: { id: 'pm-b1', message: 'broken' }, file: { signature: sig(2), hash: 7, racy: false } }]);
      expect(store.problems()).toEqual([{ id: 'pm-b1', message: 'broken' }]);
      expect(store.size()).toBe(1);
      expect(store.get('pm-b1')).toBeUndefined();
      store.apply([put(entry('pm-b1'), 3)]);
      expect(store.problems()).toEqual([]);
      expect(store.size()).toBe(2);
    });

    it('lists the unreadable files by id, among many readable ones, as they come and go', () => {
      const problem = (id: string, message: string, n: number): IndexChange => ({ kind: 'problem', problem: { id, message }, file: { signature: sig(n), hash: n, racy: false } });
      store.apply([...Array.from({ length: 40 }, (_, k) => put(entry(`pm-i${k}`), k)), problem('pm-z9', 'last', 50), problem('pm-c3', 'middle', 51), problem('pm-a0', 'first', 52)]);
      expect(store.problems()).toEqual([{ id: 'pm-a0', message: 'first' }, { id: 'pm-c3', message: 'middle' }, { id: 'pm-z9', message: 'last' }]);
      store.apply([put(entry('pm-c3'), 53), problem('pm-i7', 'now broken', 54), { kind: 'gone', id: 'pm-z9' }]);
      expect(store.problems()).toEqual([{ id: 'pm-a0', message: 'first' }, { id: 'pm-i7', message: 'now broken' }]);
      expect(store.size()).toBe(40);
    });

    it('returns items as they were put, and getMany in the order asked', () => {
      const full = entry('pm-a1', { tags: ['x', 'y'], parent: 'pm-p1', assignee: 'ana', claimHolder: 'bo', claimExpiresAt: '2026-02-01T00:00:00.000Z', blockedBy: ['pm-b1', 'pm-b1'], related: ['pm-c1'], comments: 2, text: { title: 't', body: 'b', comments: 'c\nd' } });
      store.apply([put(full), put(entry('pm-b1'), 1)]);
      expect(store.get('pm-a1')).toEqual(full);
      expect(store.getMany(['pm-b1', 'pm-none', 'pm-a1']).map((e) => e.id)).toEqual(['pm-b1', 'pm-a1']);
    });

    it('orders text by code point, filters and pages with keyset cursors', () => {
      const titles = ['b', 'B', 'a\u{1F600}', 'a\uFF5A', 'a', 'ab'];
      store.apply(titles.map((title, n) => put(entry(`pm-t${n}`, { title, priority: n % 2 }), n)));
      const page = (after?: (string | number)[]) => store.page({ filter: {}, sort: ['titleText', 'id'], descending: false, ...(after ? { after } : {}), limit: 4 });
      const first = page();
      expect(first.total).toBe(6);
      expect(first.items.map((e) => e.text.title)).toEqual(['a', 'ab', 'a\uFF5A', 'a\u{1F600}']);
      const last = first.items[3]!;
      expect(page([last.text.title, last.id]).items.map((e) => e.text.title)).toEqual(['b', 'b']);
      const down = store.page({ filter: {}, sort: ['priority', 'created', 'id'], descending: true, limit: 2 });
      expect(down.items.map((e) => e.id)).toEqual(['pm-t5', 'pm-t3']);
    });

    it('answers random pages, readiness, searches, referrers and overviews exactly like the reference', () => {
      // The reference: the expectations below are written against the definitions in the port.
      const random = prng(42);
      const all = population(random, 80);
      store.apply(all.map((e, n) => put(e, n)));
      for (let round = 0; round < 30; round++) {
        const filter = {
          ...(random() < 0.4 ? { statuses: ['open', 'blocked'] } : random() < 0.5 ? { excludeStatuses: ['closed', 'canceled'] } : {}),
          ...(random() < 0.3 ? { types: ['Task', 'Epic'] } : {}),
          ...(random() < 0.3 ? { tagsAll: random() < 0.5 ? ['api'] : ['api', 'cli'] } : {}),
          ...(random() < 0.2 ? { assignee: 'ana' } : {}),
          ...(random() < 0.1 ? { parent: all[3]!.id } : {}),
          ...(random() < 0.1 ? { idPrefix: 'pm-000' } : {}),
          ...(random() < 0.1 ? { blockedBy: all[2]!.id } : {}),
          ...(random() < 0.3 ? { text: WORDS[Math.floor(random() * WORDS.length)]! } : {}),
          ...(random() < 0.2 ? { priorities: random() < 0.5 ? [0] : [1, 3] } : {}),
          ...(random() < 0.3 ? { blocked: random() < 0.5 } : {}),
        };
        const expected = all.filter((e) => matches(e, filter, all));
        const result = store.page({ filter, sort: ['updated', 'id'], descending: true, limit: 7 });
        expect(result.total).toBe(expected.length);
        const sorted = [...expected].sort((a, b) => (a.updated === b.updated ? (a.id < b.id ? 1 : -1) : a.updated < b.updated ? 1 : -1));
        expect(result.items.map((e) => e.id)).toEqual(sorted.slice(0, 7).map((e) => e.id));
      }
      const readiness = store.readiness({ status: 'open', nowIso: '2026-03-01T00:00:00.000Z', assignee: 'ana', limit: 5 });
      const expectedReady = referenceReadiness(all, 'ana', '2026-03-01T00:00:00.000Z');
      expect(readiness.counts).toEqual(expectedReady.counts);
      expect(readiness.ready.map((e) => e.id)).toEqual(expectedReady.ready.slice(0, 5));
      for (const terms of [['index'], ['ka', 'lo'], ['日本'], ['ß'], ['straße', 'zzz'], ['😀'], ['a-b', 'x_y']]) {
        for (const requireAll of [true, false]) {
          const got = [...store.searchCandidates({ terms, phrase: terms.join(' '), requireAll, cap: 5, filter: {} })].sort((a, b) => (a.id < b.id ? -1 : 1));
          const want = referenceCandidates(all, terms, requireAll);
          expect(got).toEqual(want);
        }
      }
      const target = all[1]!.id;
      const referrers = all.filter((e) => e.parent === target || e.blockedBy.includes(target) || e.related.includes(target)).map((e) => e.id).sort();
      expect(store.referrers(target)).toEqual(referrers);
      const overview = store.overview('2026-03-01T00:00:00.000Z');
      expect(overview.total).toBe(80);
      expect(Object.values(overview.byStatus).reduce((a, b) => a + b, 0)).toBe(80);
      expect(Object.keys(overview.byType)).toEqual([...new Set(all.map((e) => e.type))].sort());
      expect(overview.claims.map((c) => c.id)).toEqual(
        all.filter((e) => e.claimHolder && e.claimExpiresAt! > '2026-03-01T00:00:00.000Z').sort((a, b) => (a.claimExpiresAt === b.claimExpiresAt ? (a.id < b.id ? -1 : 1) : a.claimExpiresAt! < b.claimExpiresAt! ? -1 : 1)).map((e) => e.id),
      );
      expect(overview.expiredClaims.map((c) => c.id)).toEqual(
        all.filter((e) => e.claimHolder && e.claimExpiresAt! <= '2026-03-01T00:00:00.000Z' && !['closed', 'canceled'].includes(e.status)).sort((a, b) => (a.claimExpiresAt === b.claimExpiresAt ? (a.id < b.id ? -1 : 1) : a.claimExpiresAt! < b.claimExpiresAt! ? -1 : 1)).map((e) => e.id),
      );
    });

    it('offers lapsed claims and holds back live claims and assignments elsewhere, one rule (readiness.ts)', () => {
      const now = '2026-03-01T00:00:00.000Z';
      const past = '2026-02-28T23:00:00.000Z';
      const later = '2026-03-01T01:00:00.000Z';
      store.apply([
        put(entry('pm-r1', { priority: 1 }), 1),
        put(entry('pm-r2', { status: 'in_progress', assignee: 'bob', claimHolder: 'bob', claimExpiresAt: past, priority: 0 }), 2),
        put(entry('pm-r3', { status: 'open', assignee: 'bob', claimHolder: 'bob', claimExpiresAt: later, priority: 0 }), 3),
        put(entry('pm-r4', { assignee: 'bob', priority: 0 }), 4),
        put(entry('pm-r5', { status: 'in_progress', assignee: 'cy', claimHolder: 'bob', claimExpiresAt: past, priority: 0 }), 5),
        put(entry('pm-r6', { status: 'in_progress', priority: 0 }), 6),
        put(entry('pm-r7', { status: 'closed', claimHolder: 'bob', claimExpiresAt: past, priority: 0 }), 7),
        put(entry('pm-r8', { status: 'open', assignee: 'bob', claimHolder: 'bob', claimExpiresAt: past, priority: 3 }), 8),
      ]);
      const alice = store.readiness({ status: 'open', nowIso: now, assignee: 'alice', limit: 10 });
      expect(alice.ready.map((e) => e.id)).toEqual(['pm-r2', 'pm-r1', 'pm-r8']);
      expect(alice.counts).toEqual({ open: 6, ready: 3, blocked: 0, claimed: 3, containers: 0 });
      const bob = store.readiness({ status: 'open', nowIso: now, assignee: 'bob', limit: 10 });
      expect(bob.ready.map((e) => e.id)).toEqual(['pm-r2', 'pm-r3', 'pm-r4', 'pm-r1', 'pm-r8']);
      expect(bob.counts).toEqual({ open: 6, ready: 5, blocked: 0, claimed: 1, containers: 0 });
      const anyone = store.readiness({ status: 'open', nowIso: now, limit: 1 });
      expect(anyone.ready.map((e) => e.id)).toEqual(['pm-r2']);
      expect(store.overview(now).expiredClaims).toEqual([
        { id: 'pm-r2', title: 'Title of pm-r2', holder: 'bob', expiresAt: past },
        { id: 'pm-r5', title: 'Title of pm-r5', holder: 'bob', expiresAt: past },
        { id: 'pm-r8', title: 'Title of pm-r8', holder: 'bob', expiresAt: past },
      ]);
    });

    it('keeps next\'s categories right while blockers, parents, claims and items change', () => {
      const random = prng(7);
      const all = new Map(population(random, 60).map((e) => [e.id, e]));
      store.apply([...all.values()].map((e, n) => put(e, n)));
      const ids = [...all.keys()];
      const pick = () => ids[Math.floor(random() * ids.length)]!;
      for (let round = 0; round < 40; round++) {
        const id = pick();
        const current = all.get(id);
        const roll = random();
        if (roll < 0.15 || !current) {
          if (current && roll < 0.1) {
            all.delete(id);
            store.apply([{ kind: 'gone', id }]);
          } else if (!current) {
            const again = entry(id, { status: 'open', blockedBy: random() < 0.5 ? [pick()] : [], ...(random() < 0.5 ? { parent: pick() } : {}) });
            all.set(id, again);
            store.apply([put(again, 100 + round)]);
          } else {
            all.delete(id);
            store.apply([{ kind: 'problem', problem: { id, message: 'broken' }, file: { signature: sig(200 + round), hash: 7, racy: false } }]);
          }
        } else {
          const status = ['open', 'open', 'closed', 'canceled', 'in_progress', 'draft'][Math.floor(random() * 6)]!;
          const { parent: _parent, ...rest } = current;
          const parent = random() < 0.3 ? pick() : random() < 0.5 ? undefined : current.parent;
          const changed: IndexedItem = {
            ...rest,
            status,
            ...(parent !== undefined && parent !== id ? { parent } : {}),
            blockedBy: random() < 0.3 ? [pick()] : random() < 0.3 ? [] : current.blockedBy,
          };
          all.set(id, changed);
          store.apply([put(changed, 300 + round)]);
        }
        for (const assignee of [undefined, 'ana']) {
          const types = round % 3 === 0 ? ['Task'] : undefined;
          const got = store.readiness({ status: 'open', nowIso: '2026-03-01T00:00:00.000Z', ...(assignee ? { assignee } : {}), ...(types ? { types } : {}), limit: 4 });
          const want = referenceReadiness([...all.values()].filter((e) => !types || types.includes(e.type)), assignee, '2026-03-01T00:00:00.000Z', [...all.values()]);
          expect(got.counts).toEqual(want.counts);
          expect(got.ready.map((e) => e.id)).toEqual(want.ready.slice(0, 4));
        }
      }
    });

    it('pages through every order in both directions with cursors, like the reference', () => {
      const random = prng(11);
      const all = population(random, 90);
      store.apply(all.map((e, n) => put(e, n)));
      const orders: (readonly IndexSortField[])[] = [['priority', 'created', 'id'], ['created', 'id'], ['updated', 'id'], ['titleText', 'id'], ['id']];
      const filters = [{}, { statuses: ['open'] }, { excludeStatuses: ['closed', 'canceled'] }, { tagsAll: ['api'] }, { assignee: 'cy' }, { text: 'ka' }];
      for (const sort of orders) {
        for (const descending of [false, true]) {
          for (const filter of filters) {
            const value = (e: IndexedItem, field: IndexSortField) => (field === 'titleText' ? e.text.title : e[field]);
            const want = all.filter((e) => matches(e, filter)).sort((a, b) => {
              for (const field of sort) {
                const x = value(a, field);
                const y = value(b, field);
                if (x !== y) return (typeof x === 'string' ? byCodePoint(x, String(y)) : x < Number(y) ? -1 : 1) * (descending ? -1 : 1);
              }
              return 0;
            }).map((e) => e.id);
            const got: string[] = [];
            let after: (string | number)[] | undefined;
            for (;;) {
              const page = store.page({ filter, sort, descending, ...(after ? { after } : {}), limit: 6 });
              expect(page.total).toBe(want.length);
              got.push(...page.items.map((e) => e.id));
              const last = page.items[page.items.length - 1];
              if (page.items.length < 6 || !last) break;
              after = sort.map((field) => value(last, field));
            }
            expect(got).toEqual(want);
          }
        }
      }
    });

    it('keeps searching comments right as they are added, edited and removed', () => {
      const withComments = (n: number, comments: string) => put(entry('pm-a1', { comments: comments ? comments.split('\n').length : 0, text: { title: 'plain', body: 'body', comments } }), n);
      const hits = (term: string) => [...store.searchCandidates({ terms: [term], phrase: term, requireAll: true, cap: 5, filter: {} })].map((c) => c.counts);
      store.apply([withComments(1, 'first okapi note')]);
      expect(hits('okapi')).toEqual([[0, 0, 1]]);
      store.apply([withComments(2, 'first okapi note\nsecond okapi and zebra')]);
      expect(hits('okapi')).toEqual([[0, 0, 2]]);
      expect(hits('zebra')).toEqual([[0, 0, 1]]);
      store.apply([withComments(3, 'second okapi and zebra\nthird walrus')]);
      expect(hits('okapi')).toEqual([[0, 0, 1]]);
      expect(hits('first')).toEqual([]);
      expect(hits('walrus')).toEqual([[0, 0, 1]]);
      store.apply([withComments(4, '')]);
      expect(hits('walrus')).toEqual([]);
      store.apply([withComments(5, 'back again walrus')]);
      expect(hits('walrus')).toEqual([[0, 0, 1]]);
      store.apply([{ kind: 'gone', id: 'pm-a1' }]);
      expect(hits('walrus')).toEqual([]);
    });

    it('returns every search candidate that can rank first, with the total, like the reference', () => {
      // A skewed vocabulary (words inside other words, a word in most items) and many ties.
      const random = prng(2026);
      const words = ['cache', 'index', 'indexer', 'ka', 'kalo', 'lo', 'kalolo', 'straße', 'ß', '日本語', 'x_y', 'pm-0003'];
      const skew = () => words[Math.floor(random() ** 2 * words.length)]!;
      const text = (n: number) => Array.from({ length: n }, skew).join(random() < 0.5 ? ' ' : ', ');
      const all = population(random, 150).map((e) => {
        const title = text(1 + Math.floor(random() * 3));
        const body = `${text(Math.floor(random() * 9))}${e.id === 'pm-0003' ? ' pm-0003' : ''}`;
        return { ...e, priority: Math.floor(random() * 2), updated: random() < 0.5 ? '2026-01-01T00:00:00.000Z' : e.updated, text: { title, body, comments: random() < 0.3 ? text(3) : '' } };
      });
      store.apply(all.map((e, n) => put(e, n)));
      const filters = [{}, { excludeStatuses: ['closed', 'canceled'] }, { statuses: ['open'] }, { statuses: [] }];
      const check = (terms: string[], phrase: string, requireAll: boolean, filter: Filter, ranking: { limit: number; weights: readonly [number, number, number]; phraseBonus: number }, cap: number) => {
        const want = referenceCandidates(all.filter((e) => matches(e, filter)), terms, requireAll, phrase, cap);
        const got = store.searchTop({ terms, phrase, requireAll, cap, filter, ranking });
        const context = JSON.stringify({ terms, phrase, requireAll, filter, ranking, cap });
        expect([context, got.total]).toEqual([context, want.length]);
        const byId = new Map(want.map((c) => [c.id, c]));
        for (const candidate of got.candidates) expect([context, candidate]).toEqual([context, byId.get(candidate.id)]);
        const returned = new Set(got.candidates.map((c) => c.id));
        expect(returned.size).toBe(got.candidates.length);
        const first = [...want].sort(referenceRanking(terms.length, phrase, ranking)).slice(0, ranking.limit);
        for (const candidate of [...first, ...want.filter((c) => c.idMatch)]) expect([context, candidate.id, returned.has(candidate.id)]).toEqual([context, candidate.id, true]);
      };
      const stored = { weights: [5, 1, 1] as const, phraseBonus: 20 };
      for (let round = 0; round < 120; round++) {
        const term = () => (random() < 0.5 ? skew() : words[Math.floor(random() * words.length)]!);
        const terms = [...new Set([term(), ...(random() < 0.4 ? [term()] : [])])];
        const phrase = random() < 0.8 ? terms.join(' ') : `${terms.join(' ')}!`;
        const ranking = { limit: 1 + Math.floor(random() * 8), ...(random() < 0.8 ? stored : { weights: [1, 2, 3] as const, phraseBonus: 7 }) };
        check(terms, phrase, random() < 0.8, filters[Math.floor(random() * filters.length)]!, ranking, random() < 0.8 ? 5 : 2);
      }
      // The id match among the word's items, a word in most items, words inside other words.
      for (const terms of [['pm-0003'], ['cache'], ['index'], ['ka', 'lo']]) {
        for (const filter of filters) for (const limit of [1, 3, 200]) check(terms, terms.join(' '), true, filter, { limit, ...stored }, 5);
      }
    });

    it('builds a whole index aside and takes it in one step, or drops it', () => {
      const random = prng(5);
      const all = population(random, 60);
      const changes: IndexChange[] = all.map((e, n) => put(e, n, { racy: n % 7 === 0, hash: 1000 + n }));
      changes.push({ kind: 'problem', problem: { id: 'pm-bad', message: 'unreadable' }, file: { signature: sig(99), hash: 7, racy: false } });
      const dropped = store.startBuild();
      if (typeof dropped === 'string') throw new Error(`build refused: ${dropped}`);
      dropped.add(changes.slice(0, 10));
      dropped.abort();
      expect(store.size()).toBe(0);
      const build = store.startBuild();
      if (typeof build === 'string') throw new Error(`build refused: ${build}`);
      build.add(changes.slice(0, 30));
      build.add([{ kind: 'gone', id: 'pm-0000' }, ...changes.slice(30)]);
      // Until it is finished, the store answers from what it held.
      expect(store.size()).toBe(0);
      expect(store.digest()).toBe(0);
      build.finish();
      // The reference: the same changes applied one by one to the in-memory index.
      const plain = new MemoryItemIndex();
      plain.open();
      plain.apply(changes);
      {
        expect(store.size()).toBe(plain.size());
        expect(store.digest()).toBe(plain.digest());
        expect(store.files()).toEqual(plain.files());
        expect(store.racy()).toEqual(plain.racy());
        expect(store.problems()).toEqual(plain.problems());
        expect(store.getMany(all.map((e) => e.id))).toEqual(all);
        const nowIso = '2026-03-01T00:00:00.000Z';
        expect(store.readiness({ status: 'open', nowIso, limit: 50 })).toEqual(plain.readiness({ status: 'open', nowIso, limit: 50 }));
        for (const filter of [{}, { text: 'kalo' }, { tagsAll: ['api'] }, { blockedBy: all[2]!.id }]) {
          expect(store.page({ filter, sort: ['priority', 'created', 'id'], descending: false, limit: 10 })).toEqual(plain.page({ filter, sort: ['priority', 'created', 'id'], descending: false, limit: 10 }));
        }
        for (const terms of [['index'], ['ka', 'lo'], ['日本']]) {
          const query = { terms, phrase: terms.join(' '), requireAll: true, cap: 5, filter: {} };
          const sorted = (list: Iterable<{ id: string }>) => [...list].sort((a, b) => (a.id < b.id ? -1 : 1));
          expect(sorted(store.searchCandidates(query))).toEqual(sorted(plain.searchCandidates(query)));
        }
        // Later changes apply to the built index as to any other.
        store.apply([{ kind: 'gone', id: all[0]!.id }, put({ ...all[1]!, title: 'renamed', text: { ...all[1]!.text, title: 'renamed cache' } }, 500)]);
        expect(store.size()).toBe(59);
        expect([...store.searchCandidates({ terms: ['renamed'], phrase: 'renamed', requireAll: true, cap: 5, filter: {} })].map((c) => c.id)).toEqual([all[1]!.id]);
        plain.close();
      }
    });

    it('finds an item by its exact id even when no term matches, and caps counts', () => {
      store.apply([put(entry('pm-a1', { title: 'index index index index index index index', text: { title: 'index index index index index index index', body: 'indexindex', comments: '' } }), 1), put(entry('pm-b1'), 2)]);
      const [hit] = [...store.searchCandidates({ terms: ['index'], phrase: 'index', requireAll: true, cap: 5, filter: {} })];
      expect(hit).toEqual({ id: 'pm-a1', priority: 2, updated: '2026-01-01T00:00:00.000Z', idMatch: false, phraseInTitle: true, counts: [5, 2, 0] });
      const byId = [...store.searchCandidates({ terms: ['pm-b1'], phrase: 'pm-b1', requireAll: true, cap: 5, filter: { statuses: ['open'] } })];
      expect(byId.map((c) => [c.id, c.idMatch])).toEqual([['pm-b1', true]]);
      expect([...store.searchCandidates({ terms: ['pm-b1'], phrase: 'pm-b1', requireAll: true, cap: 5, filter: { statuses: ['closed'] } })]).toEqual([]);
    });
  });
}

/** Strings in code point order (the port's order), not JavaScript's UTF-16 code unit order. */
function byCodePoint(a: string, b: string): number {
  const x = [...a].map((c) => c.codePointAt(0)!);
  const y = [...b].map((c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

type Filter = Parameters<ItemIndexStore['page']>[0]['filter'];

function matches(e: IndexedItem, f: Filter, all: readonly IndexedItem[] = []): boolean {
  const blocked = () => e.blockedBy.some((id) => { const b = all.find((x) => x.id === id); return !b || !['closed', 'canceled'].includes(b.status); });
  return (!f.statuses || f.statuses.includes(e.status))
    && (!f.priorities || f.priorities.includes(e.priority))
    && (f.blocked === undefined || blocked() === f.blocked)
    && (!f.excludeStatuses || !f.excludeStatuses.includes(e.status))
    && (!f.types || f.types.includes(e.type))
    && (!f.tagsAll || f.tagsAll.every((t) => e.tags.includes(t)))
    && (f.assignee === undefined || e.assignee === f.assignee)
    && (f.parent === undefined || e.parent === f.parent)
    && (f.idPrefix === undefined || e.id.startsWith(f.idPrefix))
    && (f.blockedBy === undefined || e.blockedBy.includes(f.blockedBy))
    && (f.text === undefined || e.text.title.includes(f.text) || e.text.body.includes(f.text));
}

function referenceReadiness(all: IndexedItem[], assignee: string | undefined, now: string, everything: IndexedItem[] = all) {
  const terminal = new Set(['closed', 'canceled']);
  const status = new Map(everything.map((e) => [e.id, e.status]));
  const counts = { open: 0, ready: 0, blocked: 0, claimed: 0, containers: 0 };
  const ready: IndexedItem[] = [];
  for (const e of all) {
    // Written from the port's definition, not from the domain's functions.
    const lapsed = e.claimHolder !== undefined && (e.claimExpiresAt ?? '') <= now;
    if (e.status !== 'open' && !(lapsed && !terminal.has(e.status))) continue;
    counts.open++;
    if (e.blockedBy.some((b) => !terminal.has(status.get(b) ?? 'open'))) counts.blocked++;
    else if (e.claimHolder && (e.claimExpiresAt ?? '') > now && e.claimHolder !== assignee) counts.claimed++;
    else if (e.assignee && assignee !== undefined && e.assignee !== assignee && !(lapsed && e.claimHolder === e.assignee)) counts.claimed++;
    else if (everything.some((c) => c.parent === e.id && !terminal.has(c.status))) counts.containers++;
    else {
      counts.ready++;
      ready.push(e);
    }
  }
  ready.sort((a, b) => a.priority - b.priority || (a.created < b.created ? -1 : a.created > b.created ? 1 : a.id < b.id ? -1 : 1));
  return { counts, ready: ready.map((e) => e.id) };
}

function count(haystack: string, term: string, cap = 5): number {
  let n = 0;
  for (let at = haystack.indexOf(term); at >= 0 && n < cap; at = haystack.indexOf(term, at + term.length)) n++;
  return n;
}

type Candidate = ReturnType<typeof referenceCandidates>[number];

/** The port's SearchRanking order, written from its definition. */
function referenceRanking(terms: number, phrase: string, ranking: { weights: readonly number[]; phraseBonus: number }) {
  const key = (c: Candidate) => {
    let score = 0;
    let matched = 0;
    for (let k = 0; k < terms; k++) {
      const [t, b, cm] = c.counts.slice(k * 3, k * 3 + 3) as [number, number, number];
      score += t * ranking.weights[0]! + b * ranking.weights[1]! + cm * ranking.weights[2]!;
      if (t + b + cm > 0) matched++;
    }
    if (phrase.length > 2 && c.phraseInTitle) score += ranking.phraseBonus;
    return { matched: c.idMatch ? terms : matched, score };
  };
  return (a: Candidate, b: Candidate) => {
    const x = key(a);
    const y = key(b);
    return y.matched - x.matched || y.score - x.score || a.priority - b.priority || (a.updated > b.updated ? -1 : a.updated < b.updated ? 1 : a.id < b.id ? -1 : 1);
  };
}

function referenceCandidates(all: IndexedItem[], terms: string[], requireAll: boolean, phrase = terms.join(' '), cap = 5) {
  return all.flatMap((e) => {
    const counts = terms.flatMap((t) => [count(e.text.title, t, cap), count(e.text.body, t, cap), count(e.text.comments, t, cap)]);
    const present = terms.filter((_t, i) => counts[i * 3]! + counts[i * 3 + 1]! + counts[i * 3 + 2]! > 0).length;
    const idMatch = e.id === phrase;
    if (!idMatch && !(requireAll ? present === terms.length : present > 0)) return [];
    return [{ id: e.id, priority: e.priority, updated: e.updated, idMatch, phraseInTitle: e.text.title.includes(phrase), counts }];
  }).sort((a, b) => (a.id < b.id ? -1 : 1));
}
