import { NodeFileSystem } from '../../../src/adapters/node/node-file-system.js';
import { DEFAULT_TUNING } from '../../../src/adapters/node/sqlite-item-index.js';
import { buildContainer } from '../../../src/composition/container.js';
import { MemoryItemIndex } from '../../../src/adapters/memory/memory-item-index.js';
import { FirstUseItemIndex } from '../../../src/adapters/node/first-use-item-index.js';
import { SqliteDriverUnavailableError, type SqliteDriverPreference } from '../../../src/adapters/node/sqlite-driver.js';
import { HealingItemIndex } from '../../../src/adapters/node/healing-item-index.js';
import { indexTuning, runtimeIndexStore } from '../../../src/composition/node-adapters-module.js';
import { packageDir } from '../../../src/composition/package-info.js';
import { RUNTIME_SQLITE_DRIVERS } from '../../support/sqlite-drivers.js';
import { describeItemIndexContract } from '../adapters/item-index-contract.js';
import { IDS } from '../../../src/composition/service-ids.js';
import { settingsFromEnv } from '../../../src/composition/settings.js';
import { initTracker } from '../../../src/domain/tracker/init.js';
import { useTempDir } from '../../support/temp-dir.js';

describe('the SQLite index tuning per process kind', () => {
  const temp = useTempDir('pm-index-tuning-');

  it('sums searches over posting columns, read ahead in a worker, only in a long-lived process', () => {
    expect(indexTuning({ follow: 'watch' })).toEqual({ ...DEFAULT_TUNING, postingColumns: true });
    expect(indexTuning({ follow: 'check' })).toEqual({ ...DEFAULT_TUNING, postingColumns: false, pageCacheKib: 2048 });
  });

  it('gives a one-shot and a long-lived process the same search answers', async () => {
    const dir = temp();
    await initTracker(new NodeFileSystem(), `${dir}/.agents/pm`);
    const settings = settingsFromEnv({ PM_ACTOR: 'tuning' }, dir, 'fallback');
    const oneShot = await (await buildContainer(settings, 'node', { index: { follow: 'check' } })).getAsync(IDS.Tracker);
    const words = ['cache', 'cached', 'server', 'parser', 'cache server'];
    for (let i = 0; i < 30; i++) await oneShot.create({ title: `${words[i % 5]} item ${i}`, body: `${words[(i * 3) % 5]} body ${words[(i * 7) % 5]}`, priority: i % 4 });
    const longLived = await (await buildContainer(settings, 'node', { index: { follow: 'watch' } })).getAsync(IDS.Tracker);
    for (const query of ['cache server', 'cache', 'parser body', 'erver cach', 'item 7']) {
      const [a, b] = [await oneShot.search({ query }), await longLived.search({ query })];
      expect(a.total).toBeGreaterThan(0);
      expect(b).toEqual(a);
    }
  });
});

describe('the index store of the runtime', () => {
  const temp = useTempDir('pm-index-store-');
  const lines: string[] = [];
  const log = { name: 'pm', line: (text: string) => void lines.push(text), error: () => undefined };
  beforeEach(() => (lines.length = 0));
  const unavailable = new SqliteDriverUnavailableError([{ name: 'better-sqlite3', reason: 'The module was compiled against\na different Node.js version' }], 'rebuild it');

  it('is the self-healing SQLite index over the driver the runtime has, said nothing of', () => {
    const asked: SqliteDriverPreference[] = [];
    const store = runtimeIndexStore(`${temp()}/index.sqlite`, { follow: 'check' }, log, 'auto', (preference = 'auto') => (asked.push(preference), RUNTIME_SQLITE_DRIVERS[0]!));
    expect(store).toBeInstanceOf(HealingItemIndex);
    expect(store.open()).toEqual({ created: true, reason: 'missing' });
    store.close();
    expect({ asked, lines }).toEqual({ asked: ['auto'], lines: [] });
  });

  it('is the in-memory index when no driver loads, after one warning that says why, the fix and where', () => {
    const store = runtimeIndexStore(`${temp()}/index.sqlite`, { follow: 'watch' }, log, 'better-sqlite3', () => unavailable);
    expect(store).toBeInstanceOf(MemoryItemIndex);
    expect(lines).toEqual([
      [
        'no SQLite driver could load for the index, so pm keeps the index in memory and reads every item file (correct, but slower on large trackers)',
        '  better-sqlite3: The module was compiled against a different Node.js version',
        '  fix: rebuild it',
        '  PM_INDEX_DRIVER=better-sqlite3 asks for this driver alone: unset it to let pm choose',
        `  pm's directory: ${packageDir()}`,
      ].join('\n'),
    ]);
  });

  it('is the in-memory index, with no driver loaded and nothing said, when PM_INDEX_DRIVER=memory', () => {
    const store = runtimeIndexStore(`${temp()}/index.sqlite`, { follow: 'check' }, log, 'memory', () => {
      throw new Error('no driver is loaded for an index in memory');
    });
    expect(store).toBeInstanceOf(MemoryItemIndex);
    expect(lines).toEqual([]);
  });
});

describeItemIndexContract('FirstUseItemIndex over the in-memory index', async () => new FirstUseItemIndex(() => new MemoryItemIndex()));

describe('FirstUseItemIndex', () => {
  it('makes its store at the first call that needs one, once; closing an unused one makes none', () => {
    let made = 0;
    const choose = () => (made++, new MemoryItemIndex());
    const unused = new FirstUseItemIndex(choose);
    unused.close();
    expect(made).toBe(0);
    const used = new FirstUseItemIndex(choose);
    expect(used.size()).toBe(0);
    expect(used.open()).toEqual({ created: true, reason: 'missing' });
    used.close();
    expect(made).toBe(1);
  });
});
