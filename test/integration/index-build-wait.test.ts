import { jest } from '@jest/globals';
import { NodeFileSystem } from '../../src/adapters/node/node-file-system.js';
import { TrackerPaths } from '../../src/domain/tracker/tracker-paths.js';
import { writeBulkItems } from '../support/bulk-items.js';
import { ChildProcesses, type Child, workerPath } from '../support/child-processes.js';
import { PM_BIN } from '../support/mcp-stdio.js';
import { initNodeTracker } from '../support/node-tracker.js';
import { useTempDir } from '../support/temp-dir.js';

// Real processes: one holds the first build of the SQLite index (mid-build, its build lock
// taken), and a concurrent `pm list` needs the index. It waits at most PM_LOCK_TIMEOUT_MS, then
// answers from the item files with one warning (docs/TRACKER.md "Waits").
jest.setTimeout(120_000);

const LOCK_TIMEOUT_MS = 1500;
/** What a pm start and a read of 1,100 item files may add to the wait on a loaded machine. */
const MARGIN_MS = 15_000;

describe('a query while another process builds the index', () => {
  const temp = useTempDir('pm-build-wait-');
  const children = new ChildProcesses();
  afterEach(() => children.killAll());

  /** `pm list` (the first 500 by id) in `dir`; killed (and the test failed) when it runs past timeout + margin. */
  async function list(dir: string): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
    const started = Date.now();
    const run: Child = children.startNode(PM_BIN, ['list', '--all', '--sort', 'id', '--limit', '500', '--json'], { PM_ACTOR: 'tester', PM_INDEX_WATCHER: 'off', PM_LOCK_TIMEOUT_MS: String(LOCK_TIMEOUT_MS), PM_ROOT: `${dir}/.agents/pm` });
    run.process.stdin!.end();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), LOCK_TIMEOUT_MS + MARGIN_MS)));
    const ended = await Promise.race([run.exited, late]);
    clearTimeout(timer);
    if (ended === 'late') throw new Error(`pm list still waits after ${LOCK_TIMEOUT_MS + MARGIN_MS} ms; stderr: ${run.stderr()}`);
    return { code: ended.code, stdout: run.lines.join('\n'), stderr: run.stderr(), ms: Date.now() - started };
  }

  it('answers from the item files after PM_LOCK_TIMEOUT_MS, saying so once, and uses the index once the build is over', async () => {
    const dir = temp();
    const root = await initNodeTracker(dir);
    const paths = new TrackerPaths(root);
    const ids = await writeBulkItems(new NodeFileSystem(), paths.items, 1100);
    const builder = children.startNode(workerPath('hold-index-build.mjs'), [paths.indexDatabase]);
    await builder.waitForLine((line) => line === 'building');

    const waited = await list(dir);
    expect(waited.code).toBe(0);
    expect(waited.ms).toBeGreaterThanOrEqual(LOCK_TIMEOUT_MS);
    const warnings = waited.stderr.split('\n').filter(Boolean);
    expect(warnings).toEqual([expect.stringMatching(/another process has been building the index for longer than PM_LOCK_TIMEOUT_MS \(1500 ms\), so this process reads every item file until that build is done/)]);
    const page = JSON.parse(waited.stdout) as { items: { id: string }[]; total: number };
    expect(page.total).toBe(1100);
    expect(page.items.map((item) => item.id)).toEqual([...ids].sort().slice(0, 500));

    // The build ends (here: given up): the next query builds the index itself, without a word.
    builder.process.stdin!.write('abort\n');
    await builder.waitForLine((line) => line === 'aborted');
    const built = await list(dir);
    expect({ code: built.code, stderr: built.stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(built.stdout)).toEqual(JSON.parse(waited.stdout));
  });
});
