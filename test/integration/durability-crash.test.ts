import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { parseItem } from '../../src/domain/tracker/item-codec.js';
import type { Tracker } from '../../src/domain/tracker/tracker.js';
import { ChildProcesses, workerPath } from '../support/child-processes.js';
import { initNodeTracker, openNodeTracker } from '../support/node-tracker.js';
import { useTempDir } from '../support/temp-dir.js';

const ROUNDS = 8;
/** A random 0–8 ms before the kill: deliberate jitter, so each round's SIGKILL lands at another point of a mutation. */
const jitter = () => new Promise((resolve) => setTimeout(resolve, Math.random() * 8));
const exists = (path: string) => stat(path).then(() => true, () => false);

/** Every item file must parse completely: a torn or half-written file fails here. */
async function assertNoTornItems(root: string): Promise<number> {
  let count = 0;
  for (const name of await readdir(`${root}/items`)) {
    if (!name.endsWith('.md')) continue;
    const text = await readFile(`${root}/items/${name}`, 'utf8');
    expect(() => parseItem(text, name)).not.toThrow();
    expect(parseItem(text, name).id).toBe(name.slice(0, -3));
    count++;
  }
  return count;
}

/** Items whose history records an edit made outside pm (none may appear: only pm writes here). */
async function externalEdits(root: string): Promise<string[]> {
  const found: string[] = [];
  for (const name of await readdir(`${root}/history`)) {
    if ((await readFile(`${root}/history/${name}`, 'utf8')).includes('"op":"external_edit"')) found.push(name);
  }
  return found;
}

async function assertValid(tracker: Tracker): Promise<string[]> {
  const report = await tracker.validate();
  expect(report.findings.filter((f) => f.severity === 'error')).toEqual([]);
  expect(report.ok).toBe(true);
  return report.findings.filter((f) => f.code === 'interrupted_write').map((f) => f.itemId!);
}

describe('a writer killed with SIGKILL mid-write', () => {
  const temp = useTempDir('pm-crash-');
  const children = new ChildProcesses();
  afterEach(() => children.killAll());

  it(`never leaves a torn item file, and the tracker recovers (${ROUNDS} random kills)`, async () => {
    const root = await initNodeTracker(temp());
    const seen = { lockLeftBehind: 0, interrupted: 0, mutationsBeforeKill: 0 };
    for (let round = 1; round <= ROUNDS; round++) {
      const writer = children.startNode(workerPath('crash-writer.mjs'), [root]);
      await writer.waitForLine((line) => line === 'ready');
      const target = 5 + Math.floor(Math.random() * 40);
      await writer.waitForLine((line) => line === `done ${target}`);
      await jitter();
      await children.kill(writer);
      expect((await writer.exited).signal).toBe('SIGKILL');
      seen.mutationsBeforeKill += writer.lines.length - 1;
      if (await exists(`${root}/.runtime/write.lock`)) seen.lockLeftBehind++;

      expect(await assertNoTornItems(root)).toBeGreaterThan(0);
      const tracker = await openNodeTracker(root, 'survivor', { PM_LOCK_TIMEOUT_MS: '15000' });
      const interrupted = await assertValid(tracker);
      seen.interrupted += interrupted.length;
      // A later mutation succeeds: the dead writer's lock is recovered, interrupted writes roll forward.
      const survivors = (await tracker.list({ all: true, limit: 500 })).items.map((i) => i.id);
      const victim = survivors.find((id) => interrupted.includes(id)) ?? survivors[0]!;
      const { item } = await tracker.comment(victim, `after kill ${round}`);
      expect(item.comments.at(-1)!.text).toBe(`after kill ${round}`);
      await tracker.create({ title: `created after kill ${round}` });
      expect(await assertValid(tracker)).not.toContain(victim);
      // Interrupted writes were rolled forward from their history lines, never taken for outside edits.
      expect(await externalEdits(root)).toEqual([]);
      expect(await exists(`${root}/.runtime/write.lock`)).toBe(false);
      await assertNoTornItems(root);
    }
    expect(seen.mutationsBeforeKill).toBeGreaterThan(ROUNDS * 5);
    // Most mutation time is spent holding the write lock, so some kills must have left it behind.
    expect(seen.lockLeftBehind).toBeGreaterThan(0);
  }, 240_000);

  it('recovers the write lock of a process killed while holding it', async () => {
    const root = await initNodeTracker(temp());
    const tracker = await openNodeTracker(root, 'survivor', { PM_LOCK_TIMEOUT_MS: '5000' });
    const { item } = await tracker.create({ title: 'locked out?' });
    const holder = children.startNode(workerPath('hold-lock.mjs'), [`${root}/.runtime/write.lock`]);
    await holder.waitForLine((line) => line === 'locked');
    const blocked = await openNodeTracker(root, 'impatient', { PM_LOCK_TIMEOUT_MS: '300' });
    await expect(blocked.update(item.id, { title: 'too early' })).rejects.toThrow(/locked by process/);
    await children.kill(holder);
    const { item: updated } = await tracker.update(item.id, { title: 'after the holder died' });
    expect(updated.revision).toBe(2);
    expect(await exists(`${root}/.runtime/write.lock`)).toBe(false);
    expect((await tracker.validate()).ok).toBe(true);
  }, 60_000);

  it('rolls a write interrupted after its history line forward on the next mutation', async () => {
    const root = await initNodeTracker(temp());
    const tracker = await openNodeTracker(root);
    const { item } = await tracker.create({ title: 'before', tags: ['x'] });
    const file = `${root}/items/${item.id}.md`;
    const before = await readFile(file, 'utf8');
    await tracker.update(item.id, { title: 'after', addTags: ['y'] });
    // The state a kill between the write-ahead history line and the item rename leaves behind.
    await writeFile(file, before);
    const report = await tracker.validate();
    expect(report.findings.map((f) => [f.code, f.itemId])).toEqual([['interrupted_write', item.id]]);
    expect(report.ok).toBe(true);

    const fresh = await openNodeTracker(root, 'next-process');
    const { item: next } = await fresh.update(item.id, { priority: 0 });
    expect(next).toMatchObject({ title: 'after', tags: ['x', 'y'], priority: 0, revision: 3 });
    expect((await fresh.historyOf(item.id)).map((e) => [e.op, e.revisionAfter])).toEqual([['create', 1], ['update', 2], ['update', 3]]);
    expect((await fresh.validate()).findings).toEqual([]);
    expect((await fresh.list()).items.map((i) => i.title)).toEqual(['after']);
  }, 60_000);
});
