/**
 * requestState keys shared by configuration (PM_MCP_MAC_KEYS; seed 004 "MRTR, tasks, and cache
 * behavior"): real pm-mcp processes over two copies of one tracker, each copy with its own
 * runtime area (as instances on machines that share no file system), so only the configured
 * keys can make one instance accept what another sealed. Rotation is by configuration: a new
 * key first keeps the old state verifying; once the old key is dropped, its state is refused
 * with `unknown-key`. `pm mcp rotate-key` refuses and says to change the configuration.
 */
import { jest } from '@jest/globals';
import { cp, readdir, rm } from 'node:fs/promises';
import { makeTempTracker, McpProcesses, modernMeta, RawMcpClient, runPm } from '../support/mcp-stdio.js';

jest.setTimeout(60_000);

const K1 = Buffer.alloc(32, 0x11).toString('base64');
const K2 = Buffer.alloc(48, 0x22).toString('base64url');
const meta = modernMeta({ 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } });
const ACCEPT = { consent: { action: 'accept', content: { confirm: true } } };

describe('PM_MCP_MAC_KEYS across instances', () => {
  const stdio = new McpProcesses();
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    await stdio.killAll();
    for (const cleanup of cleanups) await cleanup();
  });

  test('instances configured alike accept each other\'s requestState, through a rotation; a dropped key is refused', async () => {
    const a = await makeTempTracker('pm-mackeys-a-');
    const b = await makeTempTracker('pm-mackeys-b-');
    cleanups.push(a.remove, b.remove);
    const ids: string[] = [];
    for (const title of ['one', 'two', 'three']) ids.push((JSON.parse(await runPm(a.dir, ['create', title, '--json'])) as { item: { id: string } }).item.id);
    // b: the same items, its own runtime area
    await rm(b.root, { recursive: true, force: true });
    await cp(a.root, b.root, { recursive: true, filter: (source) => !source.includes('.runtime') });

    const env = (keys?: string) => ({ PM_MCP_PROFILE: 'full', ...(keys !== undefined ? { PM_MCP_MAC_KEYS: keys } : {}) });
    const sealer = new RawMcpClient(stdio.spawn(a.dir, env(K1)));
    const states: string[] = [];
    for (const id of ids) {
      const asked = await sealer.request('tools/call', { name: 'pm_delete', arguments: { id }, _meta: meta });
      expect(asked.result).toMatchObject({ resultType: 'input_required' });
      states.push(asked.result!.requestState as string);
    }
    const retry = (index: number) => ({ name: 'pm_delete', arguments: { id: ids[index] }, requestState: states[index], inputResponses: ACCEPT, _meta: meta });

    // without the configuration, b keeps its own keys and refuses a's state
    const own = new RawMcpClient(stdio.spawn(b.dir, env()));
    expect((await own.request('tools/call', retry(0))).error).toMatchObject({ code: -32602, data: { check: 'unknown-key' } });
    // the same keys: accepted
    const same = new RawMcpClient(stdio.spawn(b.dir, env(K1)));
    expect((await same.request('tools/call', retry(0))).result).toMatchObject({ resultType: 'complete', structuredContent: { deleted: ids[0] } });
    // rotated (a new key first, the old one still listed): the old state still verifies, new state is sealed with the new key
    const rotated = new RawMcpClient(stdio.spawn(b.dir, env(`${K2}, ${K1}`)));
    expect((await rotated.request('tools/call', retry(1))).result).toMatchObject({ resultType: 'complete', structuredContent: { deleted: ids[1] } });
    const fresh = await rotated.request('tools/call', { name: 'pm_delete', arguments: { id: ids[2] }, _meta: meta });
    expect((fresh.result!.requestState as string).split('.')[1]).not.toBe(states[2]!.split('.')[1]);
    // the old key dropped: its state is refused with the documented error
    const dropped = new RawMcpClient(stdio.spawn(b.dir, env(K2)));
    const refused = await dropped.request('tools/call', retry(2));
    expect(refused.error).toMatchObject({ code: -32602, data: { field: 'requestState', check: 'unknown-key' } });
    expect(refused.error!.message).toMatch(/no longer accepts/);
    // and what the rotated instance sealed verifies on the dropped one
    const retryFresh = { name: 'pm_delete', arguments: { id: ids[2] }, requestState: fresh.result!.requestState, inputResponses: ACCEPT, _meta: meta };
    expect((await dropped.request('tools/call', retryFresh)).result).toMatchObject({ resultType: 'complete', structuredContent: { deleted: ids[2] } });

    // configured instances write no key file
    expect(await readdir(`${a.root}/.runtime`).catch(() => [])).not.toContain('request-state-keys.json');
    // pm mcp rotate-key refuses: the configuration rotates
    await expect(runPm(a.dir, ['mcp', 'rotate-key'], { PM_MCP_MAC_KEYS: K1 })).rejects.toThrow(/PM_MCP_MAC_KEYS/);
    for (const client of [sealer, own, same, rotated, dropped]) expect(client.problems()).toEqual([]);
  });

  test('a bad key stops pm-mcp at startup, naming the variable and the key\'s position', async () => {
    const t = await makeTempTracker('pm-mackeys-bad-');
    cleanups.push(t.remove);
    const child = stdio.spawn(t.dir, { PM_MCP_MAC_KEYS: `${K1},c2hvcnQ=` });
    expect((await child.exited).code).toBe(1);
    expect(child.stderr()).toMatch(/PM_MCP_MAC_KEYS \(macKeys\): key 2 of 2 is 5 bytes; a key needs at least 32/);
  });
});
