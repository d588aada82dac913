/**
 * Skills over MCP through real processes (seed 000 "Skills over MCP"; SEP-2640 at the pinned
 * revision): the official v2 client in 2026-07-28 mode over stdio and Streamable HTTP discovers
 * and reads pm's skills and a workspace override; the initialize-era path serves them to a
 * client that declared the extension at initialize; a workspace change reaches a listen stream
 * as resources/list_changed and the next listing.
 */
import { jest } from '@jest/globals';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpTransportV2 } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { z } from 'zod';
import { PM_MCP_PROTOCOL_VERSION } from '../../src/domain/mcp/index.js';
import { PM_SKILLS_EXTENSION_ID, PM_SKILLS_EXTENSION_REVISION } from '../../src/domain/skills/index.js';
import { testRunCacheEnv } from '../support/child-processes.js';
import { modernMeta, PM_MCP_BIN, RawMcpClient } from '../support/mcp-stdio.js';
import { serverFixture } from '../support/server-fixture.js';

jest.setTimeout(60_000);

const DECLARATION = { [PM_SKILLS_EXTENSION_ID]: { revision: PM_SKILLS_EXTENSION_REVISION, directoryRead: true } };
const Entry = z.object({ uri: z.string(), frontmatter: z.record(z.string(), z.unknown()), resources: z.array(z.object({ uri: z.string(), digest: z.string(), size: z.number() })), _meta: z.record(z.string(), z.unknown()).optional() });
const ListResult = z.looseObject({ skills: z.array(Entry), nextCursor: z.string().optional() });
const GetResult = z.looseObject({ skill: Entry });

async function workspaceSkill(dir: string, name: string, body = `# ${name}\n`): Promise<void> {
  await mkdir(join(dir, '.agents', 'skills', name, 'references'), { recursive: true });
  await writeFile(join(dir, '.agents', 'skills', name, 'SKILL.md'), `---\nname: ${name}\ndescription: Workspace guidance for ${name}.\n---\n${body}`);
  await writeFile(join(dir, '.agents', 'skills', name, 'references', 'notes.md'), `Notes of ${name}.\n`);
}

function v2(): ClientV2 {
  return new ClientV2({ name: 'skills-host', version: '2.0.0' }, { versionNegotiation: { mode: { pin: PM_MCP_PROTOCOL_VERSION } }, capabilities: { extensions: DECLARATION } as never });
}

/** What a SEP-2640 host does: list, get the first entry, read every file, read the root directory. */
async function exerciseSkills(client: ClientV2): Promise<string[]> {
  const list = await client.request({ method: 'skills/list', params: {} } as never, ListResult);
  const names = list.skills.map((s) => String(s.frontmatter.name));
  expect(names).toEqual([...names].sort());
  expect(names).toContain('team-notes');
  const team = list.skills.find((s) => s.frontmatter.name === 'team-notes')!;
  expect(team._meta).toMatchObject({ 'dev.unbrained.pm/skill': { origin: 'workspace', trust: 'untrusted' } });
  const got = await client.request({ method: 'skills/get', params: { uri: team.uri } } as never, GetResult);
  expect(got.skill).toEqual(team);
  for (const resource of team.resources) {
    const read = await client.readResource({ uri: resource.uri });
    const text = (read.contents[0] as { text: string }).text;
    expect(Buffer.byteLength(text)).toBe(resource.size);
  }
  const dir = await client.request({ method: 'resources/directory/read', params: { uri: 'skill://team-notes' } } as never, z.looseObject({ resources: z.array(z.looseObject({ uri: z.string(), mimeType: z.string().optional() })) }));
  expect(dir.resources).toEqual(expect.arrayContaining([expect.objectContaining({ uri: 'skill://team-notes/references', mimeType: 'inode/directory' })]));
  const { resources } = await client.listResources();
  expect(resources).toEqual(expect.arrayContaining([expect.objectContaining({ uri: 'skill://team-notes/SKILL.md', name: 'team-notes', mimeType: 'text/markdown' })]));
  return names;
}

describe('Skills over real processes', () => {
  const { stdio, http, tracker } = serverFixture('pm-skills-');
  async function project(): Promise<string> {
    const t = await tracker();
    await workspaceSkill(t.dir, 'team-notes');
    return t.dir;
  }

  test('the official v2 client over stdio (declaring the extension, required mode)', async () => {
    const dir = await project();
    const client = v2();
    const transport = new StdioClientTransport({ command: process.execPath, args: [PM_MCP_BIN], cwd: dir, stderr: 'pipe', env: { ...getDefaultEnvironment(), ...testRunCacheEnv() } });
    await client.connect(transport);
    stdio.track(transport.pid);
    try {
      const discover = await client.discover();
      expect(discover.capabilities.extensions).toMatchObject({ [PM_SKILLS_EXTENSION_ID]: { directoryRead: true, status: 'draft', revision: PM_SKILLS_EXTENSION_REVISION } });
      await exerciseSkills(client);
    } finally {
      await client.close();
    }
  });

  test('the official v2 client over Streamable HTTP', async () => {
    const dir = await project();
    const server = await http.start(dir);
    const client = v2();
    await client.connect(new HttpTransportV2(new URL(server.url)));
    try {
      await exerciseSkills(client);
    } finally {
      await client.close();
    }
  });

  test('required mode refuses an undeclared request with -32021; optional mode serves it', async () => {
    const dir = await project();
    const required = new RawMcpClient(stdio.spawn(dir));
    expect((await required.request('skills/list', { _meta: modernMeta() })).error).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { [PM_SKILLS_EXTENSION_ID]: { revision: PM_SKILLS_EXTENSION_REVISION } } } } });
    const optional = new RawMcpClient(stdio.spawn(dir, { PM_MCP_SKILLS_DECLARATION: 'optional' }));
    expect((await optional.request('skills/list', { _meta: modernMeta() })).result).toMatchObject({ resultType: 'complete', skills: expect.arrayContaining([expect.objectContaining({ uri: 'skill://team-notes/SKILL.md' })]) });
    expect(required.problems()).toEqual([]);
    expect(optional.problems()).toEqual([]);
  });

  test('the legacy path: initialize declares the extension; a client that declared it at initialize is served', async () => {
    const dir = await project();
    const client = new RawMcpClient(stdio.spawn(dir));
    const init = await client.request('initialize', { protocolVersion: '2025-11-25', capabilities: { extensions: DECLARATION }, clientInfo: { name: 'legacy-skills', version: '1' } });
    expect(init.result?.capabilities).toMatchObject({ extensions: { [PM_SKILLS_EXTENSION_ID]: { revision: PM_SKILLS_EXTENSION_REVISION } } });
    client.notify('notifications/initialized');
    const list = await client.request('skills/list', {});
    expect(list.result).toMatchObject({ skills: expect.arrayContaining([expect.objectContaining({ uri: 'skill://team-notes/SKILL.md' })]) });
    expect(list.result).not.toHaveProperty('resultType');
    const read = await client.request('resources/read', { uri: 'skill://team-notes/references/notes.md' });
    expect(read.result).toMatchObject({ contents: [{ uri: 'skill://team-notes/references/notes.md', text: 'Notes of team-notes.\n' }] });
    expect(client.problems()).toEqual([]);
  });

  test('a rejected workspace skill is reported on stderr (name, rule, limit, actual) and the good ones are still served', async () => {
    const dir = await project();
    await mkdir(join(dir, '.agents', 'skills', 'Bad_Name'), { recursive: true });
    await writeFile(join(dir, '.agents', 'skills', 'Bad_Name', 'SKILL.md'), '---\nname: Bad_Name\ndescription: x\n---\n');
    await mkdir(join(dir, '.agents', 'skills', 'too-big'), { recursive: true });
    await writeFile(join(dir, '.agents', 'skills', 'too-big', 'SKILL.md'), '---\nname: too-big\ndescription: x\n---\n');
    await writeFile(join(dir, '.agents', 'skills', 'too-big', 'blob.bin'), Buffer.alloc(17 * 1024 * 1024));
    const proc = stdio.spawn(dir, { PM_MCP_SKILLS_DECLARATION: 'optional' });
    const client = new RawMcpClient(proc);
    const list = await client.request('skills/list', { _meta: modernMeta() });
    expect((list.result!.skills as { uri: string }[]).map((s) => s.uri)).toContain('skill://team-notes/SKILL.md');
    await proc.waitUntil(() => proc.stderr().includes('too-big'), 20_000, 'the diagnostic of too-big');
    expect(proc.stderr()).toMatch(/pm-mcp: skills: workspace skill "too-big" rejected \((resource|skill)-bytes, limit 16777216, actual \d+\)/);
    expect(proc.stderr()).toMatch(/pm-mcp: skills: workspace skill "Bad_Name" rejected \(skill-name/);
  });

  test('a workspace change reloads the registry and reaches a listen stream as resources/list_changed', async () => {
    const dir = await project();
    const client = new RawMcpClient(stdio.spawn(dir));
    const meta = modernMeta({ 'io.modelcontextprotocol/clientCapabilities': { extensions: DECLARATION } });
    const before = (await client.request('skills/list', { _meta: meta })).result!.skills as { uri: string }[];
    expect(before.map((s) => s.uri)).not.toContain('skill://release-checklist/SKILL.md');
    client.send({ jsonrpc: '2.0', id: 'watch', method: 'subscriptions/listen', params: { notifications: { resourcesListChanged: true }, _meta: meta } });
    await client.waitFor((m) => m.method === 'notifications/subscriptions/acknowledged', 'the acknowledgement');
    await workspaceSkill(dir, 'release-checklist');
    await client.waitFor((m) => m.method === 'notifications/resources/list_changed', 'resources/list_changed after the new skill');
    const after = (await client.request('skills/list', { _meta: meta })).result!.skills as { uri: string }[];
    expect(after.map((s) => s.uri)).toContain('skill://release-checklist/SKILL.md');
    client.notify('notifications/cancelled', { requestId: 'watch' });
    expect(client.problems()).toEqual([]);
  });
});
