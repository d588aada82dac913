/**
 * Many agents, one backlog (docs/TRACKER.md "Claims and leases"): real `pm` processes claiming
 * at once each win a different item; an expired lease is shown as expired by every command and
 * taken over with a history record; CLI and MCP (a real `pm-mcp`) answer one table of next
 * queries alike for the same caller.
 */
import { jest } from '@jest/globals';
import { ManualClock } from '../../src/adapters/memory/manual-clock.js';
import { MemoryItemIndex } from '../../src/adapters/memory/memory-item-index.js';
import { MemoryLocker } from '../../src/adapters/memory/memory-locker.js';
import { PureSha256Hasher } from '../../src/adapters/memory/pure-hasher.js';
import { SeededIdSource } from '../../src/adapters/memory/seeded-id-source.js';
import { NodeFileSystem } from '../../src/adapters/node/node-file-system.js';
import { Tracker } from '../../src/domain/tracker/tracker.js';
import { runToEnd, type Run } from '../support/child-processes.js';
import { McpHttpProcesses, modernRequest, openSse, type LooseJson } from '../support/mcp-http.js';
import { makeTempTracker, McpProcesses, modernMeta, PM_BIN, RawMcpClient } from '../support/mcp-stdio.js';
import { openNodeTracker } from '../support/node-tracker.js';

jest.setTimeout(180_000);

function pm(cwd: string, args: string[], actor: string): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...process.env, PM_ACTOR: actor, PM_LOCK_TIMEOUT_MS: '60000' };
  delete env.PM_ROOT;
  return runToEnd(process.execPath, [PM_BIN, ...args], { cwd, env, input: '' });
}

async function pmJson<T = any>(cwd: string, args: string[], actor: string): Promise<T> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const run = await pm(cwd, [...args, '--json'], actor);
  if (run.code !== 0) throw new Error(`pm ${args.join(' ')} exited ${run.code}: ${run.stderr}`);
  return JSON.parse(run.stdout) as T;
}

const trackers: { remove(): Promise<void> }[] = [];
const stdio = new McpProcesses();
const http = new McpHttpProcesses();
afterAll(async () => {
  await stdio.killAll();
  await http.killAll();
  await Promise.all(trackers.map((t) => t.remove()));
});

async function freshTracker() {
  const tracker = await makeTempTracker('pm-claim-next-');
  trackers.push(tracker);
  return tracker;
}

describe('claim-next across processes', () => {
  it('gives every one of many processes claiming at once a different item, each item won once', async () => {
    const { dir, root } = await freshTracker();
    const setup = await openNodeTracker(root);
    const ids: string[] = [];
    for (let n = 0; n < 10; n++) ids.push((await setup.create({ title: `work ${n}`, priority: n % 4 })).item.id);
    await setup.dispose();
    const agents = Array.from({ length: 14 }, (_, n) => `agent-${n}`);
    const runs = await Promise.all(agents.map((agent) => pmJson(dir, ['next', '--claim', '--lease', '30'], agent)));
    const won = runs.filter((r) => r.item !== null);
    expect(won).toHaveLength(10);
    expect(won.map((r) => r.item.id).sort()).toEqual([...ids].sort());
    for (const [n, r] of runs.entries()) if (r.item) expect(r.item.claim.holder).toBe(agents[n]);
    for (const r of runs.filter((x) => x.item === null)) expect(r).toMatchObject({ counts: { open: 0, ready: 0 }, rationale: expect.stringContaining('in progress under a live claim') });
    const check = await openNodeTracker(root);
    for (const id of ids) {
      const history = await check.historyOf(id);
      expect(history.filter((e) => e.op === 'claim')).toHaveLength(1);
    }
    expect((await check.validate()).findings).toEqual([]);
    await check.dispose();
  });

  it('shows an expired lease as expired everywhere, offers it to others, and records the takeover', async () => {
    const { dir, root } = await freshTracker();
    // bob claimed it two hours ago for one minute: his lease ran out long since (a crashed agent).
    const clock = new ManualClock(new Date(Date.now() - 2 * 3_600_000).toISOString());
    const ports = { fs: new NodeFileSystem(), clock, ids: new SeededIdSource(3), hasher: new PureSha256Hasher(), locker: new MemoryLocker(clock), index: new MemoryItemIndex() };
    const past = await Tracker.open(ports, root, { defaultActor: 'bob' });
    const { item } = await past.create({ title: 'crashed work' });
    const claimed = await past.claim(item.id, { leaseMinutes: 1 });
    await past.dispose();
    const expiredAt = claimed.item.claim!.expiresAt;

    expect((await pm(dir, ['get', item.id], 'alice')).stdout).toMatch(/claim:\s+bob, expired .*pm next offers it to others/);
    expect(await pmJson(dir, ['get', item.id], 'alice')).toMatchObject({ id: item.id, claim: { holder: 'bob', expiresAt: expiredAt }, claimExpired: true });
    expect((await pm(dir, ['list'], 'alice')).stdout).toContain('(claim by bob expired)');
    const context = await pmJson(dir, ['context'], 'alice');
    expect(context.claims).toEqual([]);
    expect(context.expiredClaims).toEqual([{ id: item.id, title: 'crashed work', holder: 'bob', expiresAt: expiredAt }]);
    expect((await pm(dir, ['context'], 'alice')).stdout).toContain('Expired claims (offered by pm next):');
    const next = await pmJson(dir, ['next'], 'alice');
    expect(next.item).toMatchObject({ id: item.id, claimExpired: true });
    expect(next.rationale).toMatch(/claim by bob expired (119|120|121) min ago|claim by bob expired 2 h ago/);

    const taken = await pmJson(dir, ['next', '--claim'], 'alice');
    expect(taken.item).toMatchObject({ id: item.id, assignee: 'alice', status: 'in_progress', claim: { holder: 'alice' } });
    expect(taken.receipt.takeover).toEqual({ from: 'bob', expiredAt });
    const history = await pmJson(dir, ['history', item.id], 'alice');
    expect(history.at(-1)).toMatchObject({ op: 'claim', actor: 'alice', takeover: { from: 'bob', expiredAt } });
    expect((await pm(dir, ['claim', item.id, '--renew'], 'bob')).code).toBe(4);
    expect((await pm(dir, ['claim', item.id, '--renew'], 'alice')).code).toBe(0);
    const released = await pmJson(dir, ['release', item.id], 'alice');
    expect(released.item).toMatchObject({ status: 'open' });
    expect(released.item.assignee).toBeUndefined();
  });

  it('answers one table of next queries alike through the CLI and MCP for the same caller', async () => {
    const { dir, root } = await freshTracker();
    const setup = await openNodeTracker(root, 'setup');
    await setup.create({ title: 'bob’s legal review', tags: ['legal'], assignee: 'bob', priority: 0 });
    await setup.create({ title: 'legal follow-up', tags: ['legal'], priority: 2 });
    await setup.create({ title: 'alice’s bug', type: 'Issue', assignee: 'alice', priority: 1 });
    const held = await setup.create({ title: 'carol holds this', tags: ['legal'], priority: 0 });
    await setup.claim(held.item.id, {}, { actor: 'carol' });
    await setup.create({ title: 'plain task', priority: 3 });
    await setup.dispose();

    // pm-mcp records its changes under PM_ACTOR (docs/MCP.md "Actor"): alice here, as for the CLI.
    const mcp = new RawMcpClient(stdio.spawn(dir, { PM_ACTOR: 'alice' }));
    const table: { cli: string[]; mcp: Record<string, unknown> }[] = [
      { cli: [], mcp: {} },
      { cli: ['--tag', 'legal'], mcp: { tag: ['legal'] } },
      { cli: ['--type', 'Issue'], mcp: { type: ['Issue'] } },
      { cli: ['--tag', 'nothing-has-this'], mcp: { tag: ['nothing-has-this'] } },
    ];
    for (const row of table) {
      const cli = await pmJson(dir, ['next', ...row.cli], 'alice');
      const answer = await mcp.request('tools/call', { name: 'pm_next', arguments: row.mcp, _meta: modernMeta({}, 'alice') });
      const viaMcp = (answer.result as { structuredContent: Record<string, unknown> }).structuredContent;
      expect({ item: viaMcp.item, rationale: viaMcp.rationale, counts: viaMcp.counts, alternatives: viaMcp.alternatives })
        .toEqual({ item: cli.item, rationale: cli.rationale, counts: cli.counts, alternatives: cli.alternatives });
    }
    const legal = await pmJson(dir, ['next', '--tag', 'legal'], 'alice');
    expect(legal.item.title).toBe('legal follow-up');
    expect(legal.counts).toMatchObject({ open: 2, ready: 1, claimed: 1 });

    const viaCli = await pmJson(dir, ['next', '--claim', '--tag', 'legal'], 'alice');
    const viaMcp = await mcp.request('tools/call', { name: 'pm_next', arguments: { claim: true, tag: ['legal'] }, _meta: modernMeta({}, 'alice') });
    expect(viaCli.item.title).toBe('legal follow-up');
    expect((viaMcp.result as { structuredContent: Record<string, unknown> }).structuredContent).toMatchObject({ item: null, counts: { ready: 0, claimed: 1 } });
    expect(mcp.problems()).toEqual([]);
  });

  it('tells a real two-second lease running out on a pm-mcp-http listen stream, with no file written', async () => {
    const { dir, root } = await freshTracker();
    const setup = await openNodeTracker(root);
    const { item } = await setup.create({ title: 'short lease' });
    await setup.dispose();
    const server = await http.start(dir);
    const listen = modernRequest('leases', 'subscriptions/listen', { notifications: { resourceSubscriptions: ['pm://claims', `pm://items/${item.id}`] } });
    const stream = await openSse(server.url, listen.body, listen.headers);
    try {
      await stream.waitFor((e) => e.method === 'notifications/subscriptions/acknowledged');
      const updated = (uri: string, after = 0) => (e: LooseJson) => e.method === 'notifications/resources/updated' && e.params?.uri === uri && stream.events.indexOf(e) > after;
      // Another process claims with a 2 s lease: its write is told first (the file watch).
      const claimed = await pmJson(dir, ['claim', item.id, '--lease', '2s'], 'bob');
      const expiresAt = Date.parse(claimed.item.claim.expiresAt);
      expect(expiresAt - Date.parse(claimed.item.claim.claimedAt)).toBe(2_000);
      const write = stream.events.indexOf(await stream.waitFor(updated('pm://claims')));
      // Then the expiry, which writes nothing: the server's lease timer tells it.
      const lapse = await stream.waitFor(updated('pm://claims', write), 10_000);
      expect(Date.now()).toBeGreaterThanOrEqual(expiresAt);
      await stream.waitFor(updated(`pm://items/${item.id}`, write), 1_000);
      expect(lapse.params._meta).toEqual({ 'io.modelcontextprotocol/subscriptionId': 'leases' });
      expect(await pmJson(dir, ['get', item.id], 'alice')).toMatchObject({ claimExpired: true });
      const taken = await pmJson(dir, ['next', '--claim', '--lease', '5m'], 'alice');
      expect(taken.receipt.takeover).toEqual({ from: 'bob', expiredAt: claimed.item.claim.expiresAt });
    } finally {
      stream.close();
    }
    expect(server.proc.stderr()).not.toMatch(/error/i);
  });
});
