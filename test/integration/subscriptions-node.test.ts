/**
 * Listen streams over real files: the tracker's change source watches the items directory of a
 * tracker in a temp dir through the NodeFileSystem adapter, and changes made by *other OS
 * processes* (a real tracker update through the built dist/, a plain atomic rewrite, a delete)
 * reach the listener as tagged notifications (seed 004).
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

/**
 * Waits on what the harness writes: the returned function resolves once `condition` holds,
 * checked now and after every message recorded in `h.written` (no polling), or rejects after
 * `timeoutMs`.
 */
function onWrites(h: McpHarness): (condition: () => boolean, what: string, timeoutMs?: number) => Promise<void> {
  const wakers = new Set<() => void>();
  const push = h.written.push.bind(h.written);
  h.written.push = (...items) => {
    const length = push(...items);
    for (const wake of [...wakers]) wake();
    return length;
  };
  return (condition, what, timeoutMs = 15_000) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => finish(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)), timeoutMs);
      const check = () => {
        if (condition()) finish();
      };
      const finish = (error?: Error) => {
        clearTimeout(timer);
        wakers.delete(check);
        if (error) reject(error);
        else resolve();
      };
      wakers.add(check);
      check();
    });
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
    const acknowledged = (id: JsonRpcId) =>
      h.written.some((w) => w.value.method === 'notifications/subscriptions/acknowledged' && (w.value.params as { _meta?: Record<string, unknown> } | undefined)?._meta?.[SUBSCRIPTION_ID] === id);
    return { root, item, other, h, listen, events, acknowledged, registry, until: onWrites(h) };
  }

  it('an update made by another process (the real tracker from dist/) produces resources/updated for that item', async () => {
    const { root, item, other, h, listen, events, acknowledged, until } = await setup();
    const running = listen('listen-1', { resourceSubscriptions: [`pm://items/${item.id}`] });
    const worker = children.startNode(workerPath('update-worker.mjs'), [root, item.id, 'shell', '1']);
    await worker.waitForLine((line) => line === 'ready');
    worker.process.stdin!.write('go\n');
    const exit = await worker.exited;
    expect(exit.code === 0 ? 'ok' : worker.stderr()).toBe('ok');

    await until(() => events('listen-1').length > 0, 'the updated notification');
    // No stragglers, one updated per burst. A barrier: another listen, on the other item, which
    // a plain node process then rewrites. The watch reports changes in order and a burst is
    // written to listens in the order they were opened, so anything still due to listen-1 is
    // written before the barrier's notification.
    const barrier = listen('barrier', { resourceSubscriptions: [`pm://items/${other.id}`] });
    await until(() => acknowledged('barrier'), 'the barrier acknowledgement');
    await nodeEval(ATOMIC_REWRITE, `${root}/items/${other.id}.md`, 'other item', 'rewritten for the barrier');
    await until(() => events('barrier').includes(`notifications/resources/updated pm://items/${other.id}`), 'the barrier notification');
    expect(events('listen-1')).toEqual([`notifications/resources/updated pm://items/${item.id}`]);
    expect(events('listen-1').some((e) => e.includes(other.id))).toBe(false);

    await h.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'listen-1' } });
    await running;
    expect(registry!.watching).toBe(true); // the barrier still listens
    await h.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'barrier' } });
    await barrier;
    expect(registry!.watching).toBe(false);
    expect(h.problems).toEqual([]);
  });

  it('an atomic rewrite and a delete by plain node processes produce updated and list_changed', async () => {
    const { root, item, other, h, listen, events, until } = await setup();
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
