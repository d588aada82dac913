import { sqliteOpener } from '../../../../src/adapters/node/sqlite-driver.js';
import { SqliteItemIndex } from '../../../../src/adapters/node/sqlite-item-index.js';
import type { IndexChange, IndexedItem, IndexFilter } from '../../../../src/ports/item-index-store.js';
import { useTempDir } from '../../../support/temp-dir.js';
import { population, prng, put, sig } from '../item-index-contract.js';

const dir = useTempDir('pm-sqlite-counts-');
const STATUSES = ['open', 'in_progress', 'blocked', 'closed', 'canceled', 'draft'];
const TYPES = ['Task', 'Epic', 'Issue'];
const TAGS = ['api', 'cli', 'docs'];
const PEOPLE = ['ana', 'bo', 'cy'];
const NOWS = ['2025-01-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z'];

describe('the SQLite index\'s kept counts', () => {
  it('give the same totals and next counts as counting every match, through random changes and a first build', () => {
    const random = prng(2026);
    const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
    const some = <T>(list: readonly T[]) => list.filter(() => random() < 0.4);
    const all = new Map(population(random, 120).map((e) => [e.id, e]));
    const counted = new SqliteItemIndex(`${dir()}/counted.sqlite`);
    const plain = new SqliteItemIndex(`${dir()}/plain.sqlite`, undefined, { sortBelow: 2000, walk: 5000, keptCounts: false });
    counted.open();
    plain.open();
    const first = [...all.values()].map((e, n) => put(e, n));
    const build = counted.startBuild();
    if (typeof build === 'string') throw new Error(`build refused: ${build}`);
    build.add(first);
    build.finish();
    plain.apply(first);
    const ids = [...all.keys()];
    const filterOf = (): IndexFilter => ({
      ...(random() < 0.4 ? { statuses: some(STATUSES) } : random() < 0.4 ? { excludeStatuses: ['closed', 'canceled'] } : {}),
      ...(random() < 0.3 ? { types: some(TYPES) } : {}),
      ...(random() < 0.4 ? { tagsAll: random() < 0.7 ? [pick(TAGS)] : random() < 0.5 ? ['api', 'api'] : ['api', 'cli'] } : {}),
      ...(random() < 0.3 ? { assignee: pick(PEOPLE) } : {}),
      ...(random() < 0.05 ? { parent: pick(ids) } : {}),
    });
    for (let round = 0; round < 60; round++) {
      const changes: IndexChange[] = [];
      for (let k = 0; k < 1 + Math.floor(random() * 4); k++) {
        const id = pick(ids);
        const current = all.get(id);
        const roll = random();
        if (roll < 0.08) {
          all.delete(id);
          changes.push({ kind: 'gone', id });
        } else if (roll < 0.12) {
          all.delete(id);
          changes.push({ kind: 'problem', problem: { id, message: 'broken' }, file: { signature: sig(5000 + round * 10 + k), hash: 3, racy: false } });
        } else {
          const base = current ?? population(random, 1)[0]!;
          const { parent: _parent, assignee: _assignee, claimHolder: _holder, claimExpiresAt: _expires, ...rest } = { ...base, id };
          const parent = random() < 0.3 ? pick(ids) : current?.parent;
          const assignee = random() < 0.5 ? (random() < 0.7 ? pick(PEOPLE) : undefined) : current?.assignee;
          const claim = random() < 0.3 ? { claimHolder: pick(PEOPLE), claimExpiresAt: pick(NOWS) } : current?.claimHolder ? { claimHolder: current.claimHolder, claimExpiresAt: current.claimExpiresAt! } : {};
          const changed: IndexedItem = {
            ...rest,
            status: random() < 0.5 ? pick(STATUSES) : base.status,
            type: random() < 0.3 ? pick(TYPES) : base.type,
            tags: random() < 0.4 ? [...new Set(some(TAGS))] : base.tags,
            blockedBy: random() < 0.3 ? [pick(ids)] : random() < 0.2 ? [] : base.blockedBy,
            ...(parent !== undefined && parent !== id ? { parent } : {}),
            ...(assignee !== undefined ? { assignee } : {}),
            ...claim,
          };
          all.set(id, changed);
          changes.push(put(changed, 1000 + round * 10 + k));
        }
      }
      counted.apply(changes);
      plain.apply(changes);
      for (let q = 0; q < 6; q++) {
        const filter = filterOf();
        const query = { filter, sort: ['priority', 'created', 'id'] as const, descending: false, limit: 5 };
        expect([filter, counted.page(query)]).toEqual([filter, plain.page(query)]);
      }
      for (const assignee of [undefined, pick(PEOPLE)]) {
        const readiness = { status: pick(['open', 'open', 'draft']), nowIso: pick(NOWS), ...(assignee ? { assignee } : {}), ...(random() < 0.3 ? { types: some(TYPES) } : {}), ...(random() < 0.2 ? { tagsAll: [pick(TAGS)] } : {}), limit: 3 };
        expect([readiness, counted.readiness(readiness)]).toEqual([readiness, plain.readiness(readiness)]);
      }
    }
    // Whatever the changes, the kept counts are exactly the counts of the rows (no zero is ever negative, nothing is left over).
    const db = sqliteOpener()(`${dir()}/counted.sqlite`, 1000);
    expect(db.prepare('SELECT status, type, assignee, blocked, busy, n FROM item_counts WHERE n <> 0 ORDER BY 1, 2, 3, 4, 5').all())
      .toEqual(db.prepare('SELECT status, type, assignee, blocked, busy, count(*) AS n FROM items GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5').all());
    expect(db.prepare('SELECT tag, status, type, assignee, n FROM tag_counts WHERE n <> 0 ORDER BY 1, 2, 3, 4').all())
      .toEqual(db.prepare('SELECT g.tag, i.status, i.type, i.assignee, count(*) AS n FROM tags g JOIN items i ON i.rid = g.rid GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4').all());
    db.close();
    counted.close();
    plain.close();
  });
});
