import { ItemIndex, StringPool } from '../../../../src/domain/tracker/item-index.js';
import { TrackerPaths } from '../../../../src/domain/tracker/tracker-paths.js';
import { BoundedCache } from '../../../../src/domain/util/bounded-cache.js';
import { cachedAndPlain } from '../../../support/cache-comparison.js';
import { ROOT, memoryTracker } from '../../../support/memory-tracker.js';

afterEach(() => BoundedCache.bypass(false));

const PEOPLE = ['ana', 'bo', 'cy'];
const TAGS = ['api', 'cli', 'docs', 'perf'];

/** A small project with repeated statuses, people and tags, and references between items. */
async function seeded() {
  const env = await memoryTracker();
  const { tracker } = env;
  const epic = (await tracker.create({ title: 'Epic of the pool', type: 'Epic' })).item.id;
  const ids: string[] = [];
  for (let i = 0; i < 24; i++) {
    const { item } = await tracker.create({
      title: `Task ${i} of the pool`,
      priority: i % 5,
      tags: [TAGS[i % 4]!, TAGS[(i + 1) % 4]!],
      ...(i % 3 ? { assignee: PEOPLE[i % 3]! } : {}),
      ...(i % 2 ? { parent: epic } : {}),
      ...(i > 2 && i % 4 === 0 ? { blockedBy: [ids[i - 3]!] } : {}),
      body: `Body ${i} mentions ${TAGS[i % 4]}.`,
    });
    ids.push(item.id);
  }
  return { ...env, epic, ids };
}

describe('the string pool of the item index (BoundedCache "index strings")', () => {
  it('gives the same list, next, search and context results with caching on and bypassed', async () => {
    const scenario = async () => {
      const { tracker, reopen, ids } = await seeded();
      const results: unknown[] = [];
      const queries = async (t: typeof tracker) => {
        results.push(await t.list({ status: ['open'], tag: ['api'], limit: 50 }));
        results.push(await t.list({ assignee: 'bo', sort: 'updated' }));
        results.push(await t.next({}), await t.next({ assignee: 'ana' }));
        results.push(await t.search({ query: 'pool docs' }));
        results.push(await t.context());
      };
      await queries(tracker);
      await tracker.update(ids[5]!, { assignee: 'cy', addTags: ['new-tag'] });
      await tracker.close(ids[0]!, { evidence: 'done' });
      await queries(tracker);
      // A second tracker adopts the entries from the index snapshot (the other pooled path).
      await queries(await reopen());
      return JSON.stringify(results);
    };
    const { cached, plain } = await cachedAndPlain(scenario);
    expect(cached).toBe(plain);
    expect(cached).toContain('new-tag');
  });

  it('never shares more strings than its limit, from files and from the snapshot', async () => {
    const { fs, tracker } = await seeded();
    await tracker.list();
    const paths = new TrackerPaths(ROOT);
    const entriesOf = (index: ItemIndex) => [...index.values()].sort((x, y) => x.id.localeCompare(y.id));

    const plain = new ItemIndex(fs, paths);
    BoundedCache.bypass(true);
    await plain.refresh();
    BoundedCache.bypass(false);

    // Rebuilt from the files (no snapshot), then adopted from the snapshot that build wrote.
    await fs.remove(paths.indexSnapshot);
    const strings = new BoundedCache<string, string>('index strings', 6);
    const fromFiles = new ItemIndex(fs, paths, new StringPool(strings));
    await fromFiles.refresh();
    expect(strings.size).toBeGreaterThan(0);
    expect(strings.size).toBeLessThanOrEqual(6);
    expect(entriesOf(fromFiles)).toEqual(entriesOf(plain));

    const adopted = new BoundedCache<string, string>('index strings', 6);
    const fromSnapshot = new ItemIndex(fs, paths, new StringPool(adopted));
    await fromSnapshot.refresh();
    expect(adopted.size).toBeGreaterThan(0);
    expect(adopted.size).toBeLessThanOrEqual(6);
    expect(entriesOf(fromSnapshot)).toEqual(entriesOf(plain));
    fromFiles.close();
    fromSnapshot.close();
    plain.close();
  });
});
