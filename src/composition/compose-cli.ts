import type { PmMcpRequestStateSealer } from '../domain/mcp/interaction/request-state.js';
import type { PmMcpSkillRegistry } from '../domain/skills/registry.js';
import type { Tracker } from '../domain/tracker/tracker.js';
import type { FileSystem } from '../ports/file-system.js';
import { buildContainer } from './container.js';
import type { ProcessLog } from './process-log.js';
import { IDS } from './service-ids.js';
import type { Settings } from './settings.js';
import { loadPmSkillRegistry, workspaceRootOf } from './skills-composition.js';

/** What the `pm` CLI runs on. */
export interface CliApp {
  /** The tracker with config.yaml read (exit 7 on a bad file, through the command's error). */
  tracker(): Promise<Tracker>;
  /** The skills registry a server over this tracker would serve (package and workspace skills). */
  skills(): Promise<PmMcpSkillRegistry>;
  /** The requestState sealer the servers over this tracker use (its keys in the runtime area). */
  requestStates(): Promise<PmMcpRequestStateSealer>;
  readonly fs: FileSystem;
  readonly settings: Settings;
}

/**
 * The CLI's graph (see compose-server.ts for the rule every compose function follows). The
 * tracker is resolved on first use: `pm init` runs where there is none yet. A one-shot process
 * checks every item file against the index before each query; `progress` is told how far a long
 * rebuild of the index has come.
 */
export async function composeCli(settings: Settings, log: ProcessLog, progress?: (done: number, total: number) => void): Promise<CliApp> {
  const container = await buildContainer(settings, 'node', { log, index: { follow: 'check', ...(progress ? { progress } : {}) } });
  const fs = await container.getAsync(IDS.FileSystem);
  const skills = async () => {
    const root = await container.getAsync(IDS.TrackerRoot);
    return loadPmSkillRegistry(fs, await container.getAsync(IDS.Hasher), await container.getAsync(IDS.PackageSkillsDir), workspaceRootOf(root));
  };
  return { fs, settings, tracker: () => container.getAsync(IDS.ReadyTracker), skills, requestStates: () => container.getAsync(IDS.RequestStates) };
}
