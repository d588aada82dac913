import { readFile, writeFile } from 'node:fs/promises';
import { ManualClock } from '../../../../src/adapters/memory/manual-clock.js';
import { MemoryItemIndex } from '../../../../src/adapters/memory/memory-item-index.js';
import { MemoryLocker } from '../../../../src/adapters/memory/memory-locker.js';
import { PureSha256Hasher } from '../../../../src/adapters/memory/pure-hasher.js';
import { SeededIdSource } from '../../../../src/adapters/memory/seeded-id-source.js';
import { HealingItemIndex } from '../../../../src/adapters/node/healing-item-index.js';
import { NodeFileSystem } from '../../../../src/adapters/node/node-file-system.js';
import { SqliteItemIndex } from '../../../../src/adapters/node/sqlite-item-index.js';
import { buildItemGraph, buildProjectGraph } from '../../../../src/domain/mcp-tracker/item-graph.js';
import { initTracker } from '../../../../src/domain/tracker/init.js';
import { Tracker } from '../../../../src/domain/tracker/tracker.js';
import { useTempDir } from '../../../support/temp-dir.js';
import { failingOpener } from '../../../support/failing-sqlite-opener.js';

const dir = useTempDir('pm-healing-tracker-');

/** A tracker over real item files whose SQLite index starts failing its writes with `code` when told. */
async function trackerWhoseIndexTurns(code: string, watchIndex: boolean) {
  const root = `${dir()}/.agents/pm`;
  const fs = new NodeFileSystem();
  await initTracker(fs, root);
  const clock = new ManualClock('2026-03-01T10:00:00.000Z');
  let failing = false;
  const lines: string[] = [];
  const sqlite = new SqliteItemIndex(`${root}/.runtime/index.sqlite`, failingOpener(code, () => failing, true));
  const index = new HealingItemIndex(sqlite, () => new MemoryItemIndex(), (text) => lines.push(text));
  const tracker = await Tracker.open({ fs, clock, ids: new SeededIdSource(3), hasher: new PureSha256Hasher(), locker: new MemoryLocker(clock), index }, root, { defaultActor: 'alice', watchIndex });
  const ids: string[] = [];
  for (const title of ['alpha parent', 'beta child', 'gamma blocked']) {
    clock.advance(1000);
    ids.push((await tracker.create({ title })).item.id);
  }
  await tracker.update(ids[1]!, { parent: ids[0]! });
  await tracker.addDependency(ids[2]!, { kind: 'blockedBy', target: ids[1]! });
  expect((await tracker.list()).total).toBe(3);
  return { root, tracker, ids, lines, turn: () => (failing = true), index };
}

describe('a tracker whose index cannot be written answers every query from the item files', () => {
  for (const [code, watch] of [['SQLITE_READONLY', false], ['SQLITE_FULL', false], ['SQLITE_READONLY', true]] as const) {
    it(`after ${code} (${watch ? 'a server following a watch' : 'a one-shot process'}), with an item file changed outside pm`, async () => {
      const { root, tracker, ids, lines, turn, index } = await trackerWhoseIndexTurns(code, watch);
      turn();
      // A checkout changed a file: the check must write the index, which now fails.
      const path = `${root}/items/${ids[0]}.md`;
      await writeFile(path, (await readFile(path, 'utf8')).replace(/^title: .*$/m, 'title: alpha renamed by a checkout'));

      expect((await tracker.list()).items.map((item) => item.title).sort()).toEqual(['alpha renamed by a checkout', 'beta child', 'gamma blocked']);
      expect((await tracker.search({ query: 'renamed' })).results.map((hit) => hit.id)).toEqual([ids[0]]);
      const next = await tracker.next();
      expect(next.item?.id).toBe(ids[1]);
      const context = await tracker.context();
      expect({ total: context.total, byStatus: context.byStatus }).toEqual({ total: 3, byStatus: { open: 3 } });
      expect((await tracker.get(ids[0]!)).title).toBe('alpha renamed by a checkout');
      expect((await tracker.list({ blockedBy: ids[1]! })).items.map((item) => item.id)).toEqual([ids[2]]);
      const graph = await buildItemGraph(tracker, ids[1]!, { depth: 2, maxNodes: 50 });
      expect(graph.nodes.map((node) => node.id).sort()).toEqual([...ids].sort());
      expect((await buildProjectGraph(tracker, { maxNodes: 50, all: false })).total).toBe(3);
      // Writes keep working, into the index kept in memory.
      const created = (await tracker.create({ title: 'delta after the switch' })).item.id;
      expect((await tracker.search({ query: 'delta' })).results.map((hit) => hit.id)).toEqual([created]);

      expect(index.keptInMemory).toBe(true);
      expect(lines).toEqual([expect.stringContaining(`cannot be written (${code}: injected ${code}), so this process keeps the index in memory`)]);
      await tracker.dispose();
    });
  }
});
