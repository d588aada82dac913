/**
 * The Skills extension over the real protocol core (seed 000 "Skills over MCP"; SEP-2640 at the
 * pinned revision): discovery, the gated methods in both declaration modes and both eras,
 * skill:// reads beside ordinary resources, SKILL.md in resources/list, and reloads (new
 * digest, stale cursors refused, listen streams told).
 */
import { ManualClock } from '../../../../src/adapters/memory/manual-clock.js';
import { MemoryFileSystem } from '../../../../src/adapters/memory/memory-file-system.js';
import {
  mcpExtensionOffers,
  mcpLegacyExtensionIds,
  PmMcpSubscriptionRegistry,
  registerMcpSubscriptionsListenMethod,
  type JsonObject,
} from '../../../../src/domain/mcp/index.js';
import { PM_MCP_SKILLS_SERVER_CAPABILITY, PM_SKILLS_EXTENSION_ID, PM_SKILLS_EXTENSION_REVISION, pmMcpSkillsExtension, PmMcpSkillsService, type PmSkillsDeclarationMode } from '../../../../src/domain/skills/index.js';
import { McpHarness } from '../../../support/mcp-fake-server.js';
import { settle } from '../../../support/subscription-harness.js';
import { load, PACKAGE_DIR, REPO, WORKSPACE_DIR, writeSkill } from '../../../support/skill-fixtures.js';

const DECLARED = { 'io.modelcontextprotocol/clientCapabilities': { extensions: { [PM_SKILLS_EXTENSION_ID]: { revision: PM_SKILLS_EXTENSION_REVISION, directoryRead: true } } } };

async function setup(mode: PmSkillsDeclarationMode = 'required') {
  const fs = new MemoryFileSystem();
  const clock = new ManualClock();
  writeSkill(fs, PACKAGE_DIR, 'pm-user', { 'references/guide.md': '# Guide\r\nCRLF kept\r\n' });
  writeSkill(fs, PACKAGE_DIR, 'pm-sdk');
  const skills = new PmMcpSkillsService({ load: () => load(fs), watch: { fs, clock, workspaceRoot: REPO, debounceMs: 50 } });
  const extension = pmMcpSkillsExtension({ skills, mode });
  const h = new McpHarness(
    { extensions: mcpExtensionOffers([extension]), legacyExtensions: mcpLegacyExtensionIds([extension]), prepare: () => skills.prepare(), resourcesListChanged: true, resourcesSubscribe: true },
    (methods) => {
      extension.register(methods, undefined as never);
    },
  );
  const subscriptions = new PmMcpSubscriptionRegistry(h.server, clock, extension.changeSources ?? [], { debounceMs: 10 });
  registerMcpSubscriptionsListenMethod(h.methods, subscriptions);
  return { fs, clock, skills, h, subscriptions };
}

const result = (reply: { result?: unknown }) => reply.result as JsonObject;

describe('Skills over MCP', () => {
  test('discover and the legacy initialize declare the extension with the exact revision; resources stays an object', async () => {
    const { h } = await setup();
    expect(result(await h.modern(1, 'server/discover')).capabilities).toMatchObject({ resources: {}, extensions: { [PM_SKILLS_EXTENSION_ID]: PM_MCP_SKILLS_SERVER_CAPABILITY } });
    expect(result(await h.legacy(2, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'l', version: '1' } })).capabilities).toMatchObject({ extensions: { [PM_SKILLS_EXTENSION_ID]: PM_MCP_SKILLS_SERVER_CAPABILITY } });
    expect(h.problems).toEqual([]);
  });

  test('required mode: a declared request is served (list, get, read, directory read); an undeclared one gets -32021', async () => {
    const { h } = await setup('required');
    const list = result(await h.modern(1, 'skills/list', {}, DECLARED));
    expect(list).toMatchObject({ resultType: 'complete', ttlMs: expect.any(Number), cacheScope: 'private' });
    const skills = list.skills as JsonObject[];
    expect(skills.map((s) => s.uri)).toEqual(['skill://pm-sdk/SKILL.md', 'skill://pm-user/SKILL.md']);
    const user = skills[1]!;
    expect(result(await h.modern(2, 'skills/get', { uri: user.uri }, DECLARED))).toMatchObject({ resultType: 'complete', skill: user, ttlMs: expect.any(Number), cacheScope: 'private' });
    const read = result(await h.modern(3, 'resources/read', { uri: 'skill://pm-user/references/guide.md' }, DECLARED));
    expect(read.contents).toEqual([{ uri: 'skill://pm-user/references/guide.md', mimeType: 'text/markdown', text: '# Guide\r\nCRLF kept\r\n' }]);
    const dir = result(await h.modern(4, 'resources/directory/read', { uri: 'skill://pm-user' }, DECLARED));
    expect(dir.resources).toEqual(expect.arrayContaining([expect.objectContaining({ uri: 'skill://pm-user/references', mimeType: 'inode/directory' })]));
    expect(dir).not.toHaveProperty('ttlMs');
    for (const [id, method, params] of [[5, 'skills/list', {}], [6, 'skills/get', { uri: user.uri }], [7, 'resources/read', { uri: user.uri }], [8, 'resources/directory/read', { uri: 'skill://pm-user' }]] as const) {
      expect((await h.modern(id, method, params)).error).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { [PM_SKILLS_EXTENSION_ID]: expect.objectContaining({ revision: PM_SKILLS_EXTENSION_REVISION }) } } } });
    }
    // Ordinary resources are not gated.
    expect(result(await h.modern(9, 'resources/read', { uri: 'test://readme' })).contents).toBeDefined();
    expect(h.problems).toEqual([]);
  });

  test('optional mode: an undeclared request is served; an incompatible declaration still fails closed', async () => {
    const { h } = await setup('optional');
    expect(result(await h.modern(1, 'skills/list')).skills).toHaveLength(2);
    const wrong = { 'io.modelcontextprotocol/clientCapabilities': { extensions: { [PM_SKILLS_EXTENSION_ID]: { revision: 'SEP-2640@0000' } } } };
    expect((await h.modern(2, 'skills/list', {}, wrong)).error).toMatchObject({ code: -32021 });
    expect(h.problems).toEqual([]);
  });

  test('errors: an unknown skill, a file that is not a directory, an unknown skill file are -32602', async () => {
    const { h } = await setup('optional');
    expect((await h.modern(1, 'skills/get', { uri: 'skill://mcp-conformance-nonexistent-skill-9f3a2b/SKILL.md' })).error).toMatchObject({ code: -32602 });
    expect((await h.modern(2, 'resources/directory/read', { uri: 'skill://pm-user/SKILL.md' })).error).toMatchObject({ code: -32602 });
    expect((await h.modern(3, 'resources/read', { uri: 'skill://pm-user/nope.md' })).error).toMatchObject({ code: -32602, data: { uri: 'skill://pm-user/nope.md' } });
    expect(h.problems).toEqual([]);
  });

  test('resources/list includes each SKILL.md with name and description from its front matter', async () => {
    const { h } = await setup();
    const listed = result(await h.modern(1, 'resources/list', { cursor: undefined })).resources as JsonObject[];
    const all = [...listed];
    let next = result(await h.modern(2, 'resources/list')).nextCursor as string | undefined;
    for (let id = 3; next !== undefined; id++) {
      const page = result(await h.modern(id, 'resources/list', { cursor: next }));
      all.push(...(page.resources as JsonObject[]));
      next = page.nextCursor as string | undefined;
    }
    expect(all).toEqual(expect.arrayContaining([expect.objectContaining({ uri: 'skill://pm-user/SKILL.md', name: 'pm-user', description: 'Use pm-user when it helps.', mimeType: 'text/markdown' })]));
  });

  test('the legacy path: results without resultType or cache fields; required mode needs the declaration from initialize', async () => {
    const { h } = await setup('required');
    expect((await h.legacy(1, 'skills/list')).error).toMatchObject({ code: -32021 });
    await h.legacy(2, 'initialize', { protocolVersion: '2025-11-25', capabilities: { extensions: { [PM_SKILLS_EXTENSION_ID]: { revision: PM_SKILLS_EXTENSION_REVISION } } }, clientInfo: { name: 'l', version: '1' } });
    const list = result(await h.legacy(3, 'skills/list'));
    expect(list.skills).toHaveLength(2);
    expect(list).not.toHaveProperty('resultType');
    expect(list).not.toHaveProperty('ttlMs');
    expect(h.problems).toEqual([]);
  });

  test('a workspace change reloads the registry: new digest, stale cursors refused, listen streams told', async () => {
    const { h, fs, clock, skills } = await setup('optional');
    const first = result(await h.modern(1, 'skills/list', { cursor: undefined }));
    expect(first.skills).toHaveLength(2);
    const oldDigest = skills.current.digest;
    const listening = h.send({ jsonrpc: '2.0', id: 'l', method: 'subscriptions/listen', params: { notifications: { resourcesListChanged: true, resourceSubscriptions: ['skill://team-notes/SKILL.md'] }, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } });
    await settle();
    expect(skills.watching).toBe(true);
    writeSkill(fs, WORKSPACE_DIR, 'team-notes');
    clock.advance(50);
    await settle();
    clock.advance(10);
    await settle();
    expect(skills.current.digest).not.toBe(oldDigest);
    const names = (result(await h.modern(2, 'skills/list')).skills as JsonObject[]).map((s) => (s.frontmatter as JsonObject).name);
    expect(names).toEqual(['pm-sdk', 'pm-user', 'team-notes']);
    const events = h.written.filter((w) => (w.value.params as JsonObject | undefined)?._meta !== undefined && w.value.method !== undefined).map((w) => `${w.value.method} ${String((w.value.params as JsonObject).uri ?? '')}`.trim());
    expect(events).toEqual(expect.arrayContaining(['notifications/resources/list_changed', 'notifications/resources/updated skill://team-notes/SKILL.md']));
    h.connection.cancelAll();
    await listening;
  });

  test('a cursor of an earlier registry is refused, not re-based', async () => {
    const { h, fs, skills } = await setup('optional');
    writeSkill(fs, PACKAGE_DIR, 'pm-aaa');
    await skills.prepare();
    const cursor = skills.current.list({ limit: 1 }).nextCursor!;
    writeSkill(fs, WORKSPACE_DIR, 'team-notes');
    await skills.reloadNow();
    expect((await h.modern(1, 'skills/list', { cursor })).error).toMatchObject({ code: -32602 });
  });
});
