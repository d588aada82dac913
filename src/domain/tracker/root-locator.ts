import type { FileSystem } from '../../ports/file-system.js';
import { TrackerNotFoundError } from '../errors/index.js';
import { joinPath, parentPath } from '../util/paths.js';

export const TRACKER_DIR = '.agents/pm';

/**
 * Finds the tracker root (`.agents/pm`) by walking up from `cwd`. `override` (PM_ROOT) is used
 * as is: either a project directory holding `.agents/pm` or the `.agents/pm` directory itself.
 */
export async function locateTrackerRoot(fs: FileSystem, cwd: string, override?: string): Promise<string> {
  if (override) {
    const candidates = [joinPath(override, TRACKER_DIR), override];
    for (const candidate of candidates) {
      if (await fs.stat(joinPath(candidate, 'config.yaml'))) return candidate;
    }
    throw new TrackerNotFoundError(`PM_ROOT=${override} holds no tracker (no ${TRACKER_DIR}/config.yaml); run 'pm init' there`, { root: override });
  }
  let dir = cwd;
  for (;;) {
    const candidate = joinPath(dir, TRACKER_DIR);
    if (await fs.stat(joinPath(candidate, 'config.yaml'))) return candidate;
    if (dir === '/') break;
    dir = parentPath(dir);
  }
  throw new TrackerNotFoundError(`no tracker found in ${cwd} or any parent directory; run 'pm init' to create one`, { cwd });
}

/** The tracker root `pm init` creates for a project directory (PM_ROOT or cwd). */
export function trackerRootFor(projectDir: string): string {
  return projectDir.endsWith(`/${TRACKER_DIR}`) ? projectDir : joinPath(projectDir, TRACKER_DIR);
}
