import { NodeFileSystem } from '../../src/adapters/node/node-file-system.js';
import { buildContainer } from '../../src/composition/container.js';
import { IDS } from '../../src/composition/service-ids.js';
import { settingsFromEnv } from '../../src/composition/settings.js';
import { initTracker } from '../../src/domain/tracker/init.js';
import type { Tracker } from '../../src/domain/tracker/tracker.js';

/** Creates `.agents/pm` under a project directory and returns its path. */
export async function initNodeTracker(projectDir: string): Promise<string> {
  const root = `${projectDir}/.agents/pm`;
  await initTracker(new NodeFileSystem(), root);
  return root;
}

/** A Tracker over real files, built by the real composition (node adapters), as the CLI does. */
export async function openNodeTracker(root: string, actor = 'tester', env: NodeJS.ProcessEnv = {}): Promise<Tracker> {
  const container = await buildContainer(settingsFromEnv({ ...env, PM_ROOT: root, PM_ACTOR: actor }, root, actor));
  return container.getAsync(IDS.Tracker);
}
