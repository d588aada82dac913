import { readdir } from 'node:fs/promises';
import { MemoryFileSystem } from '../../../src/adapters/memory/memory-file-system.js';
import { NodeFileSystem } from '../../../src/adapters/node/node-file-system.js';
import type { ServiceIdentifier } from 'inversify';
import { ConfiguredMacKeyStore } from '../../../src/adapters/memory/configured-mac-key-store.js';
import { buildContainer, ROOT_SERVICES } from '../../../src/composition/container.js';
import { IDS } from '../../../src/composition/service-ids.js';
import { settingsFromEnv } from '../../../src/composition/settings.js';
import { initTracker } from '../../../src/domain/tracker/init.js';
import { Tracker } from '../../../src/domain/tracker/tracker.js';
import { BoundedCache } from '../../../src/domain/util/bounded-cache.js';
import { useTempDir } from '../../support/temp-dir.js';

describe('composition root', () => {
  const temp = useTempDir('pm-container-');

  it('resolves every root service of the node family over a real tracker directory', async () => {
    const dir = temp();
    await initTracker(new NodeFileSystem(), `${dir}/.agents/pm`);
    const container = await buildContainer(settingsFromEnv({ PM_ACTOR: 'smoke' }, `${dir}/src/deep`, 'fallback'), 'node');
    for (const id of ROOT_SERVICES as readonly ServiceIdentifier<unknown>[]) {
      const service = await container.getAsync(id);
      expect(service).toBeDefined();
      expect(await container.getAsync(id)).toBe(service);
    }
    expect(await container.getAsync(IDS.FileSystem)).toBeInstanceOf(NodeFileSystem);
    expect(await container.getAsync(IDS.TrackerRoot)).toBe(`${dir}/.agents/pm`);
    const tracker = await container.getAsync(IDS.Tracker);
    expect(tracker).toBeInstanceOf(Tracker);
    const { item } = await tracker.create({ title: 'composed' });
    expect(item.id).toMatch(/^pm-[0-9a-z]{6}$/);
    expect((await tracker.historyOf(item.id))[0]).toMatchObject({ actor: 'smoke', op: 'create' });
    const tasks = await container.getAsync(IDS.TaskStore);
    await tasks.create({ taskId: 't1', principal: 'local:smoke', status: 'working', createdAt: 1, updatedAt: 1, ttlMs: 1000, expiresAt: 1001, pollIntervalMs: 1000, request: { method: 'tools/call', name: 'pm_validate' } });
    expect(await readdir(`${dir}/.agents/pm/.runtime/tasks`)).toEqual(['t1.json']);
    expect(await (await container.getAsync(IDS.Authorizer)).authorize({ requiredScopes: ['pm:read'] })).toMatchObject({ id: 'local:smoke' });
    await tracker.dispose();
  });

  it('PM_MCP_MAC_KEYS replaces the task store\'s requestState keys in the node family, and none are written', async () => {
    const dir = temp();
    await initTracker(new NodeFileSystem(), `${dir}/.agents/pm`);
    const secret = Buffer.alloc(32, 7);
    const container = await buildContainer(settingsFromEnv({ PM_ACTOR: 'smoke', PM_MCP_MAC_KEYS: secret.toString('base64') }, dir, 'fallback'), 'node');
    const keys = await container.getAsync(IDS.MacKeyStore);
    expect(keys).toBeInstanceOf(ConfiguredMacKeyStore);
    expect(Buffer.from((await keys.current()).secret)).toEqual(secret);
    await (await container.getAsync(IDS.RequestStates)).seal({}, { method: 'tools/call', params: {}, principal: 'local:smoke' });
    expect(await readdir(`${dir}/.agents/pm/.runtime`).catch(() => [])).not.toContain('request-state-keys.json');
  });

  it('honours PM_ROOT and reports a missing tracker when resolving the root', async () => {
    const dir = temp();
    await initTracker(new NodeFileSystem(), `${dir}/elsewhere/.agents/pm`);
    const container = await buildContainer(settingsFromEnv({ PM_ROOT: `${dir}/elsewhere` }, '/', 'someone'));
    expect(await container.getAsync(IDS.TrackerRoot)).toBe(`${dir}/elsewhere/.agents/pm`);
    const lost = await buildContainer(settingsFromEnv({}, dir, 'someone'));
    await expect(lost.getAsync(IDS.TrackerRoot)).rejects.toThrow(/no tracker found/);
  });

  it('resolves every root service of the memory family with no disk at all', async () => {
    const container = await buildContainer(settingsFromEnv({}, '/project', 'embedded'), 'memory');
    const fs = await container.getAsync(IDS.FileSystem);
    expect(fs).toBeInstanceOf(MemoryFileSystem);
    await initTracker(fs, '/project/.agents/pm');
    for (const id of ROOT_SERVICES as readonly ServiceIdentifier<unknown>[]) {
      const service = await container.getAsync(id);
      expect(service).toBeDefined();
      expect(await container.getAsync(id)).toBe(service);
    }
    const tracker = await container.getAsync(IDS.Tracker);
    const { item } = await tracker.create({ title: 'in memory' });
    expect((await tracker.list()).items.map((i) => i.id)).toEqual([item.id]);
    expect((fs as MemoryFileSystem).paths()).toContain(`/project/.agents/pm/items/${item.id}.md`);
  });

  it('PM_CACHES=off bypasses every bounded cache of the process, with the same answers', async () => {
    const answers = async (env: NodeJS.ProcessEnv) => {
      const container = await buildContainer(settingsFromEnv(env, '/project', 'embedded'), 'memory');
      await initTracker(await container.getAsync(IDS.FileSystem), '/project/.agents/pm');
      const tracker = await container.getAsync(IDS.Tracker);
      await tracker.create({ title: 'first' });
      await tracker.create({ title: 'second', tags: ['x'] });
      return { bypassing: BoundedCache.bypassing, titles: (await tracker.list()).items.map((i) => i.title).sort() };
    };
    try {
      const on = await answers({});
      const off = await answers({ PM_CACHES: 'off' });
      expect([on.bypassing, off.bypassing]).toEqual([false, true]);
      expect(off.titles).toEqual(on.titles);
    } finally {
      BoundedCache.bypass(false);
    }
  });
});
