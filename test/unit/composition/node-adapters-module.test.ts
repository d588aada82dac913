import { NodeFileSystem } from '../../../src/adapters/node/node-file-system.js';
import { DEFAULT_TUNING } from '../../../src/adapters/node/sqlite-item-index.js';
import { buildContainer } from '../../../src/composition/container.js';
import { indexTuning } from '../../../src/composition/node-adapters-module.js';
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
