/**
 * MRTR through real processes (seed 004 "MRTR, tasks, and cache behavior"; 2026-07-28
 * `basic/patterns/mrtr`): the official v2 client, whose registered `elicitation/create` handler
 * answers pm's `input_required` results, drives consent for pm_delete (accept and decline) and
 * the missing required custom fields of pm_create over stdio and Streamable HTTP. A raw client
 * shows that the sealed state survives `pm mcp rotate-key` and a server restart, and that the
 * key file is the owner's only.
 */
import { jest } from '@jest/globals';
import { stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpTransportV2 } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { PM_MCP_PROTOCOL_VERSION } from '../../src/domain/mcp/index.js';
import { testRunCacheEnv } from '../support/child-processes.js';
import { modernMeta, PM_MCP_BIN, RawMcpClient, runPm } from '../support/mcp-stdio.js';
import { serverFixture } from '../support/server-fixture.js';

jest.setTimeout(60_000);

type Answer = { action: 'accept'; content: Record<string, unknown> } | { action: 'decline' } | { action: 'cancel' };
const ENV = { PM_MCP_PROFILE: 'full' };

/** A 2026-07-28 host whose person answers every form with the next of `answers`. */
function host(answers: Answer[], seen: { message: string; schema: unknown }[]): ClientV2 {
  const client = new ClientV2({ name: 'consent-host', version: '2.0.0' }, { versionNegotiation: { mode: { pin: PM_MCP_PROTOCOL_VERSION } }, capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler('elicitation/create', async (request) => {
    const params = request.params as { message: string; requestedSchema: unknown };
    seen.push({ message: params.message, schema: params.requestedSchema });
    const answer = answers.shift();
    if (!answer) throw new Error('the host was asked more often than the test expected');
    return answer as never;
  });
  return client;
}

const structured = (result: unknown) => (result as { structuredContent: Record<string, unknown> }).structuredContent;
const firstText = (result: unknown) => ((result as { content: { text: string }[] }).content[0]?.text ?? '');

async function exerciseConsent(client: ClientV2, dir: string, seen: { message: string }[]): Promise<void> {
  const id = (await runPm(dir, ['create', 'Old spike', '--set', 'team=core', '--json']).then((out) => JSON.parse(out) as { item: { id: string } })).item.id;
  // the person declines: nothing changes, and the tool says so
  const declined = await client.callTool({ name: 'pm_delete', arguments: { id } });
  expect(declined.isError).toBe(true);
  expect(firstText(declined)).toMatch(/^Consent was not given: pm-\w+ was left unchanged\./);
  expect(JSON.parse(await runPm(dir, ['get', id, '--json'])).title).toBe('Old spike');
  // the person accepts: the item is deleted
  const deleted = await client.callTool({ name: 'pm_delete', arguments: { id } });
  expect(deleted.isError).toBeFalsy();
  expect(structured(deleted)).toMatchObject({ deleted: id, receipt: { op: 'delete' } });
  expect(seen.map((s) => s.message)).toEqual([expect.stringMatching(/^Delete pm-\w+ "Old spike"\?/), expect.stringMatching(/^Delete pm-\w+ "Old spike"\?/)]);
  await expect(runPm(dir, ['get', id])).rejects.toThrow(/exited 3/);
  // a required custom field: the form asks for it, the answer is stored
  const created = await client.callTool({ name: 'pm_create', arguments: { title: 'Needs a team' } });
  const newId = (structured(created).item as { id: string }).id;
  expect(JSON.parse(await runPm(dir, ['get', newId, '--json'])).custom).toEqual({ team: 'web' });
  expect(seen.at(-1)).toMatchObject({ message: 'The new item "Needs a team" needs the required custom field team.', schema: { required: ['team'] } });
}

const ANSWERS = (): Answer[] => [{ action: 'decline' }, { action: 'accept', content: { confirm: true } }, { action: 'accept', content: { team: 'web' } }];

describe('MRTR over real processes', () => {
  const { stdio, http, tracker } = serverFixture('pm-mrtr-');
  async function project(): Promise<{ dir: string; root: string }> {
    const t = await tracker();
    await writeFile(join(t.root, 'config.yaml'), 'version: 1\ncustomFields:\n  team: { type: enum, values: [core, web], required: true }\n');
    return t;
  }

  test('the official v2 client answers consent and custom-field forms over stdio', async () => {
    const { dir } = await project();
    const seen: { message: string; schema: unknown }[] = [];
    const client = host(ANSWERS(), seen);
    const transport = new StdioClientTransport({ command: process.execPath, args: [PM_MCP_BIN], cwd: dir, stderr: 'pipe', env: { ...getDefaultEnvironment(), ...testRunCacheEnv(), ...ENV } });
    await client.connect(transport);
    stdio.track(transport.pid);
    try {
      await exerciseConsent(client, dir, seen);
    } finally {
      await client.close();
    }
  });

  test('the official v2 client answers them over Streamable HTTP', async () => {
    const { dir } = await project();
    const server = await http.start(dir, ENV);
    const seen: { message: string; schema: unknown }[] = [];
    const client = host(ANSWERS(), seen);
    await client.connect(new HttpTransportV2(new URL(server.url)));
    try {
      await exerciseConsent(client, dir, seen);
    } finally {
      await client.close();
    }
  });

  test('sealed state survives pm mcp rotate-key and a restart, is used once, and its key is private', async () => {
    const { dir, root } = await project();
    const id = (JSON.parse(await runPm(dir, ['create', 'Doomed', '--set', 'team=core', '--json'])) as { item: { id: string } }).item.id;
    const meta = modernMeta({ 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } });
    const first = new RawMcpClient(stdio.spawn(dir, ENV));
    const asked = await first.request('tools/call', { name: 'pm_delete', arguments: { id }, _meta: meta });
    expect(asked.result).toMatchObject({ resultType: 'input_required', inputRequests: { consent: { method: 'elicitation/create' } } });
    const requestState = asked.result!.requestState as string;
    const keyFile = join(root, '.runtime', 'request-state-keys.json');
    expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
    const rotated = JSON.parse(await runPm(dir, ['mcp', 'rotate-key', '--json'])) as { current: { id: string }; retired: { id: string }[] };
    expect(rotated.retired.map((k) => k.id)).toEqual([requestState.split('.')[1]]);
    // a second server process (a restart) accepts the state sealed before the rotation, once
    const second = new RawMcpClient(stdio.spawn(dir, ENV));
    const retry = { name: 'pm_delete', arguments: { id }, requestState, inputResponses: { consent: { action: 'accept', content: { confirm: true } } }, _meta: meta };
    expect((await second.request('tools/call', retry)).result).toMatchObject({ resultType: 'complete', structuredContent: { deleted: id } });
    expect((await first.request('tools/call', retry)).error).toMatchObject({ code: -32602, data: { check: 'replayed' } });
    // new state is sealed with the new key
    const other = (JSON.parse(await runPm(dir, ['create', 'Next', '--set', 'team=core', '--json'])) as { item: { id: string } }).item.id;
    const again = await second.request('tools/call', { name: 'pm_delete', arguments: { id: other }, _meta: meta });
    expect((again.result!.requestState as string).split('.')[1]).toBe(rotated.current.id);
    expect(first.problems()).toEqual([]);
    expect(second.problems()).toEqual([]);
  });
});
