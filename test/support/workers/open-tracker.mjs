// Shared by the test workers: the Tracker of the tracker at `root`, built through the real
// composition (node adapters) from the compiled dist/, exactly as the pm binaries build it.
import { buildContainer } from '../../../dist/composition/container.js';
import { IDS } from '../../../dist/composition/service-ids.js';
import { settingsFromEnv } from '../../../dist/composition/settings.js';

export async function openTracker(root, actor) {
  const container = await buildContainer(settingsFromEnv({ ...process.env, PM_ROOT: root, PM_ACTOR: actor }, root, actor));
  return container.getAsync(IDS.Tracker);
}

/** Resolves when the parent writes a line containing "go" on stdin (so workers start together). */
export function waitForGo() {
  return new Promise((resolve) => {
    process.stdin.setEncoding('utf8');
    process.stdin.on('data', (chunk) => {
      if (chunk.includes('go')) resolve();
    });
  });
}
