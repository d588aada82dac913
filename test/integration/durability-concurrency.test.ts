import { readFile } from 'node:fs/promises';
import { ChildProcesses, workerPath } from '../support/child-processes.js';
import { initNodeTracker, openNodeTracker } from '../support/node-tracker.js';
import { useTempDir } from '../support/temp-dir.js';

const UPDATES = 200;

describe('two processes updating one item', () => {
  const temp = useTempDir('pm-concurrency-');
  const children = new ChildProcesses();
  afterEach(() => children.killAll());

  it(`loses no update when each of two processes makes ${UPDATES} guarded updates with retry`, async () => {
    const root = await initNodeTracker(temp());
    const setup = await openNodeTracker(root);
    const { item } = await setup.create({ title: 'contended item' });
    await setup.dispose();

    const env = { PM_LOCK_TIMEOUT_MS: '60000' };
    const workers = ['a', 'b'].map((name) => children.startNode(workerPath('update-worker.mjs'), [root, item.id, name, String(UPDATES)], env));
    await Promise.all(workers.map((w) => w.waitForLine((line) => line === 'ready')));
    for (const w of workers) w.process.stdin!.write('go\n');
    const exits = await Promise.all(workers.map((w) => w.exited));
    expect(exits.map((e, i) => (e.code === 0 ? 'ok' : `${e.code ?? e.signal}: ${workers[i]!.stderr()}`))).toEqual(['ok', 'ok']);
    const reports = workers.map((w) => JSON.parse(w.lines[w.lines.length - 1]!) as { name: string; revisions: number[]; retries: number });

    // Every update produced its own revision: together exactly 2..401, none twice.
    const revisions = reports.flatMap((r) => r.revisions).sort((x, y) => x - y);
    expect(revisions).toEqual(Array.from({ length: 2 * UPDATES }, (_, i) => i + 2));
    for (const r of reports) expect(r.revisions).toEqual([...r.revisions].sort((x, y) => x - y));

    const tracker = await openNodeTracker(root);
    const final = await tracker.get(item.id);
    expect(final.revision).toBe(1 + 2 * UPDATES);
    // Each update added a tag only its worker and index could add: a lost update is a missing tag.
    const expected = ['a', 'b'].flatMap((name) => Array.from({ length: UPDATES }, (_, i) => `${name}-${i}`));
    expect([...final.tags].sort()).toEqual(expected.sort());

    const history = await tracker.historyOf(item.id);
    expect(history).toHaveLength(1 + 2 * UPDATES);
    expect(history.map((e) => e.op)).toEqual(['create', ...Array(2 * UPDATES).fill('update')]);
    expect(history.map((e) => e.revisionAfter)).toEqual(Array.from({ length: 1 + 2 * UPDATES }, (_, i) => i + 1));
    expect(new Set(history.slice(1).map((e) => e.actor))).toEqual(new Set(['a', 'b']));
    const lines = (await readFile(`${root}/history/${item.id}.jsonl`, 'utf8')).split('\n').filter(Boolean);
    expect(lines).toHaveLength(1 + 2 * UPDATES);

    const report = await tracker.validate();
    expect(report.findings).toEqual([]);
    expect(report).toMatchObject({ ok: true, items: 1, errors: 0 });
    await tracker.dispose();
  }, 240_000);
});
