import { MemoryFileSystem } from '../../../../src/adapters/memory/memory-file-system.js';
import { SqliteItemIndex } from '../../../../src/adapters/node/sqlite-item-index.js';
import { SystemClock } from '../../../../src/adapters/node/system-clock.js';
import { IndexSync } from '../../../../src/domain/tracker/index-sync.js';
import { TrackerPaths } from '../../../../src/domain/tracker/tracker-paths.js';
import { writeBulkItems } from '../../../support/bulk-items.js';
import { useTempDir } from '../../../support/temp-dir.js';

const dir = useTempDir('pm-first-build-');

describe('the first build of a shared SQLite index', () => {
  it('is done by one of two processes needing it at once; the other waits and reads no file', async () => {
    const fs = new MemoryFileSystem();
    const paths = new TrackerPaths('/t/.agents/pm');
    await writeBulkItems(fs, paths.items, 1200);
    const path = `${dir()}/index.sqlite`;
    const stores = [new SqliteItemIndex(path), new SqliteItemIndex(path)];
    const progress: number[][] = [[], []];
    const syncs = stores.map((store, n) => new IndexSync(fs, new SystemClock(), paths, store, { onProgress: (done) => progress[n]!.push(done) }));
    await Promise.all(syncs.map((sync) => sync.refresh()));
    expect(stores.map((store) => store.size())).toEqual([1200, 1200]);
    expect(progress.filter((calls) => calls.length > 0)).toEqual([[1200]]);
    expect(fs.bodyReads).toBe(1200);
    // What one built, the other answers from, as the same index.
    expect(stores[1]!.readiness({ status: 'open', nowIso: '2026-02-15T00:00:00.000Z', limit: 3 })).toEqual(stores[0]!.readiness({ status: 'open', nowIso: '2026-02-15T00:00:00.000Z', limit: 3 }));
    for (const store of stores) store.close();
  });
});
