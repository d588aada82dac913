import { readFile } from 'node:fs/promises';
import type { Tracker } from '../../src/domain/tracker/tracker.js';
import { ChildProcesses, workerPath } from '../support/child-processes.js';
import { initNodeTracker, openNodeTracker } from '../support/node-tracker.js';
import { useTempDir } from '../support/temp-dir.js';

// Real processes writing through the group commit (write-batch.ts): each worker keeps 16 comment
// calls in flight, so its calls share batches and one item's calls are coalesced into one append
// and one file replace. No answered call may be lost or doubled, whatever the other process does
// or wherever a SIGKILL lands.

/** The acknowledged comment texts per item id, from the workers' "ack <id> <text>" lines. */
function acknowledged(lines: readonly string[]): Map<string, string[]> {
  const byItem = new Map<string, string[]>();
  for (const line of lines) {
    const match = /^ack (\S+) (.+)$/.exec(line);
    if (match) byItem.set(match[1]!, [...(byItem.get(match[1]!) ?? []), match[2]!]);
  }
  return byItem;
}

/** Comment texts in an item's history file, each with how many lines added it. */
async function historyTexts(root: string, id: string): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const line of (await readFile(`${root}/history/${id}.jsonl`, 'utf8')).split('\n').filter(Boolean)) {
    const entry = JSON.parse(line) as { op: string; patch: { value?: { text?: string } }[] };
    if (entry.op !== 'comment') continue;
    for (const op of entry.patch) if (op.value?.text) counts.set(op.value.text, (counts.get(op.value.text) ?? 0) + 1);
  }
  return counts;
}

async function assertChains(tracker: Tracker, ids: readonly string[]): Promise<void> {
  for (const id of ids) {
    const history = await tracker.historyOf(id);
    expect(history.map((e) => e.seq)).toEqual(history.map((_, i) => i + 1));
    expect(history.map((e) => e.revisionAfter)).toEqual(history.map((_, i) => i + 1));
    expect(history.filter((e) => e.op === 'external_edit')).toEqual([]);
  }
}

describe('the group commit with real processes', () => {
  const temp = useTempDir('pm-group-commit-');
  const children = new ChildProcesses();
  afterEach(() => children.killAll());

  async function setUp(): Promise<{ root: string; hot: string; others: string[] }> {
    const root = await initNodeTracker(temp());
    const setup = await openNodeTracker(root);
    const created = [];
    for (const title of ['hot', 'a', 'b', 'c']) created.push((await setup.create({ title })).item.id);
    await setup.dispose();
    return { root, hot: created[0]!, others: created.slice(1) };
  }

  it('two processes with 16 callers each, on one item and on several, lose and double nothing', async () => {
    const { root, hot, others } = await setUp();
    const WRITES = 120;
    const env = { PM_LOCK_TIMEOUT_MS: '60000' };
    const workers = [
      children.startNode(workerPath('batch-writer.mjs'), [root, 'left', hot, String(WRITES)], env),
      children.startNode(workerPath('batch-writer.mjs'), [root, 'right', [hot, ...others].join(','), String(WRITES)], env),
    ];
    await Promise.all(workers.map((w) => w.waitForLine((line) => line === 'ready')));
    for (const w of workers) w.process.stdin!.write('go\n');
    const exits = await Promise.all(workers.map((w) => w.exited));
    expect(exits.map((e, i) => (e.code === 0 ? 'ok' : `${e.code ?? e.signal}: ${workers[i]!.stderr()}`))).toEqual(['ok', 'ok']);

    const acked = acknowledged(workers.flatMap((w) => w.lines));
    expect([...acked.values()].flat()).toHaveLength(2 * WRITES);
    const tracker = await openNodeTracker(root);
    for (const id of [hot, ...others]) {
      const expected = acked.get(id) ?? [];
      const item = await tracker.get(id);
      expect([...item.comments.map((c) => c.text)].sort()).toEqual([...expected].sort());
      expect(item.revision).toBe(1 + expected.length);
      expect([...(await historyTexts(root, id)).values()].every((n) => n === 1)).toBe(true);
    }
    await assertChains(tracker, [hot, ...others]);
    expect((await tracker.validate()).findings).toEqual([]);
    await tracker.dispose();
  }, 180_000);

  it('a writer killed with SIGKILL mid-batch loses only unanswered calls, and the next write repairs the item', async () => {
    const { root, hot, others } = await setUp();
    for (let round = 1; round <= 4; round++) {
      const writer = children.startNode(workerPath('batch-writer.mjs'), [root, `w${round}`, [hot, hot, hot, ...others].join(','), 'forever']);
      await writer.waitForLine((line) => line === 'ready');
      writer.process.stdin!.write('go\n');
      const target = 20 + Math.floor(Math.random() * 60);
      await writer.waitForLine(() => writer.lines.filter((l) => l.startsWith('ack ')).length >= target, 60_000);
      await children.kill(writer);
      expect((await writer.exited).signal).toBe('SIGKILL');

      const acked = acknowledged(writer.lines);
      const survivor = await openNodeTracker(root, 'survivor', { PM_LOCK_TIMEOUT_MS: '15000' });
      const report = await survivor.validate();
      expect(report.findings.filter((f) => f.severity === 'error')).toEqual([]);
      // Every answered call is on disk: in the item file and once in the history.
      for (const [id, texts] of acked) {
        const comments = (await survivor.get(id)).comments.map((c) => c.text);
        for (const text of texts) expect(comments).toContain(text);
      }
      // The next write rolls any interrupted batch forward; nothing is doubled or taken for an outside edit.
      for (const id of [hot, ...others]) await survivor.comment(id, `after kill ${round}`);
      for (const id of [hot, ...others]) {
        const comments = (await survivor.get(id)).comments.map((c) => c.text);
        expect(new Set(comments).size).toBe(comments.length);
        const inHistory = await historyTexts(root, id);
        expect([...inHistory.keys()].sort()).toEqual([...comments].sort());
      }
      await assertChains(survivor, [hot, ...others]);
      expect((await survivor.validate()).findings).toEqual([]);
      await survivor.dispose();
    }
  }, 240_000);
});
