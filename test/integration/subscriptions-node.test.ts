/**
 * Listen streams over real files: the tracker's change source watches the items directory of a
 * tracker in a temp dir through the NodeFileSystem adapter, and changes made by *other OS
 * processes* (a real tracker update through the built dist/, a plain atomic rewrite, a delete)
 * reach the listener as tagged notifications (issue 3 "Subscriptions"; seed 004).
 */
import { spawn } from 'node:child_process';
import { NodeFileSystem } from '../../src/adapters/node/node-file-system.js';
import { SystemClock } from '../../src/adapters/node/system-clock.js';
import {
  MCP_META,
  PM_MCP_SUBSCRIPTION_SERVER_OPTIONS,
  PmMcpSubscriptionRegistry,
  registerMcpSubscriptionsListenMethod,
  type JsonRpcId,
} from '../../src/domain/mcp/index.js';
import { PmMcpTrackerChangeSource } from '../../src/domain/mcp-tracker/index.js';
import { ChildProcesses, workerPath } from '../support/child-processes.js';
import { McpHarness, MODERN_META } from '../support/mcp-fake-server.js';
import { initNodeTracker, openNodeTracker } from '../support/node-tracker.js';
import { useTempDir } from '../support/temp-dir.js';

const SUBSCRIPTION_ID = MCP_META.subscriptionId;

async function until(predicate: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Runs `node -e script` as a separate OS process and waits for it to exit successfully. */
async function nodeEval(script: string, ...args: string[]): Promise<void> {
  const child = spawn(process.execPath, ['-e', script, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`node -e exited ${code}: ${stderr}`);
}

/** Rewrites a file atomically (temp file in the same directory + rename), as pm and editors do. */
const ATOMIC_REWRITE = `
const fs = require('node:fs');
const [file, from, to] = process.argv.slice(1);
const temp = file + '.tmp-' + process.pid;
fs.writeFileSync(temp, fs.readFileSync(file, 'utf8').replace(from, to));
fs.renameSync(temp, file);
`;

describe('subscriptions/listen over real files', () => {
  const temp = useTempDir('pm-subscriptions-');
  const children = new ChildProcesses();
  let registry: PmMcpSubscriptionRegistry | undefined;
  afterEach(async () => {
    registry?.shutdown(); // never leave a real fs watcher behind
    registry = undefined;
    await children.killAll();
  });

  async function setup() {
    const root = await initNodeTracker(temp());
    const tracker = await openNodeTracker(root);
    const { item } = await tracker.create({ title: 'watched item' });
    const { item: other } = await tracker.create({ title: 'other item' });
    await tracker.dispose();
    const h = new McpHarness(PM_MCP_SUBSCRIPTION_SERVER_OPTIONS);
    registry = new PmMcpSubscriptionRegistry(h.server, new SystemClock(), [new PmMcpTrackerChangeSource(new NodeFileSystem(), new SystemClock(), `${root}/items`)], { debounceMs: 30 });
    registerMcpSubscriptionsListenMethod(h.methods, registry);
    const listen = (id: JsonRpcId, notifications: Record<string, unknown>) =>
      h.send({ jsonrpc: '2.0', id, method: 'subscriptions/listen', params: { notifications, _meta: MODERN_META } });
    const events = (id: JsonRpcId) =>
      h.written
        .map((w) => w.value)
        .filter((v) => (v.params as { _meta?: Record<string, unknown> } | undefined)?._meta?.[SUBSCRIPTION_ID] === id)
        .slice(1)
        .map((v) => `${String(v.method)}${(v.params as { uri?: string }).uri ? ` ${(v.params as { uri: string }).uri}` : ''}`);
    return { root, item, other, h, listen, events, registry };
  }

  it('an update made by another process (the real tracker from dist/) produces resources/updated for that item', async () => {
    const { root, item, other, h, listen, events } = await setup();
    const running = listen('listen-1', { resourceSubscriptions: [`pm://items/${item.id}`] });
    const worker = children.startNode(workerPath('update-worker.mjs'), [root, item.id, 'shell', '1']);
    await worker.waitForLine((line) => line === 'ready');
    worker.process.stdin!.write('go\n');
    const exit = await worker.exited;
    expect(exit.code === 0 ? 'ok' : worker.stderr()).toBe('ok');

    await until(() => events('listen-1').length > 0, 'the updated notification');
    await new Promise((resolve) => setTimeout(resolve, 200)); // no stragglers: one updated per burst
    expect(events('listen-1')).toEqual([`notifications/resources/updated pm://items/${item.id}`]);
    expect(events('listen-1').some((e) => e.includes(other.id))).toBe(false);

    await h.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'listen-1' } });
    await running;
    expect(registry!.watching).toBe(false);
    expect(h.problems).toEqual([]);
  });

  it('an atomic rewrite and a delete by plain node processes produce updated and list_changed', async () => {
    const { root, item, other, h, listen, events } = await setup();
    const running = listen(3, { resourcesListChanged: true, resourceSubscriptions: ['pm://items', 'pm://context'] });
    await nodeEval(ATOMIC_REWRITE, `${root}/items/${item.id}.md`, 'watched item', 'renamed in a shell');
    await until(() => events(3).includes(`notifications/resources/updated pm://items/${item.id}`), 'the rewrite');
    expect(events(3)).not.toContain('notifications/resources/list_changed'); // a rewrite is not an appearance

    const seen = events(3).length;
    await nodeEval(`require('node:fs').unlinkSync(process.argv[1])`, `${root}/items/${other.id}.md`);
    await until(() => events(3).slice(seen).includes('notifications/resources/list_changed'), 'the delete');
    await until(() => events(3).slice(seen).includes(`notifications/resources/updated pm://items/${other.id}`), 'the deleted item');

    registry!.shutdown();
    await running;
    const result = h.written.at(-1)!.value;
    expect(result).toMatchObject({ id: 3, result: { resultType: 'complete', _meta: { [SUBSCRIPTION_ID]: 3 } } });
    expect(registry!.watching).toBe(false);
    expect(h.problems).toEqual([]);
  });
});
