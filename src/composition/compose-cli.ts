import type { FileSystem } from '../ports/file-system.js';
import { realpathSync } from 'node:fs';
import { GitCliMergeSides } from '../adapters/node/git-cli-merge-sides.js';
import { GitCliConfig } from '../adapters/node/git-cli-config.js';
import { GitCliHooks } from '../adapters/node/git-cli-hooks.js';
import { MergeDrivers } from '../domain/merge/merge-drivers.js';
import { MergeInstaller } from '../domain/merge/merge-install.js';
import { repairIdCollisions } from '../domain/merge/id-collisions.js';
import { confinedFileSystem } from '../domain/tracker/confined-file-system.js';
import { TrackerPaths } from '../domain/tracker/tracker-paths.js';
import type { BrowserBoardControl, CliServices, IndexWatcherControl } from '../adapters/cli/command.js';
import { nodeBrowserBoard } from './browser-board.js';
import { buildContainer } from './container.js';
import { contactWatcher, indexWitness, runIndexWatcher } from './index-watcher.js';
import type { ProcessLog } from './process-log.js';
import { IDS } from './service-ids.js';
import type { Settings } from './settings.js';
import { loadPmSkillRegistry, workspaceRootOf } from './skills-composition.js';

/**
 * What the `pm` CLI runs on: the services its commands ask for (all but `initialize`, which
 * needs no tracker and is composed per call) and what the process itself needs.
 */
export interface CliApp extends Omit<CliServices, 'initialize'> {
  readonly fs: FileSystem;
  readonly settings: Settings;
}

/** How a one-shot process starts an index watcher: the command running this pm, and its environment. */
export interface WatcherLaunch {
  readonly launcher?: readonly string[];
  readonly env: NodeJS.ProcessEnv;
}

/**
 * The CLI's graph (see compose-server.ts for the rule every compose function follows). The
 * tracker is resolved on first use: `pm init` runs where there is none yet. A one-shot process
 * checks every item file against the index before each query; `progress` is told how far a long
 * rebuild of the index has come.
 */
export async function composeCli(settings: Settings, log: ProcessLog, progress?: (done: number, total: number) => void, launch: WatcherLaunch = { env: {} }): Promise<CliApp> {
  const witness = indexWitness(settings, launch.launcher, launch.env);
  const container = await buildContainer(settings, 'node', { log, index: { follow: 'check', ...(progress ? { progress } : {}), ...(witness ? { witness } : {}) } });
  const fs = await container.getAsync(IDS.FileSystem);
  const skills = async () => {
    const root = await container.getAsync(IDS.TrackerRoot);
    return loadPmSkillRegistry(fs, await container.getAsync(IDS.Hasher), await container.getAsync(IDS.PackageSkillsDir), workspaceRootOf(root));
  };
  const mergeDrivers = async () => new MergeDrivers(fs, await container.getAsync(IDS.Hasher), await container.getAsync(IDS.Clock), settings.cwd);
  const mergeInstaller = async () => new MergeInstaller(fs, new GitCliConfig(), new GitCliHooks(), new TrackerPaths(await container.getAsync(IDS.TrackerRoot)).projectDir, pmLauncher());
  const repair = async () => {
    const root = await container.getAsync(IDS.TrackerRoot);
    const ports = { fs: confinedFileSystem(fs, root), hasher: await container.getAsync(IDS.Hasher), ids: await container.getAsync(IDS.IdSource), clock: await container.getAsync(IDS.Clock), locker: await container.getAsync(IDS.Locker), lockTimeoutMs: settings.lockTimeoutMs };
    const references = { sides: new GitCliMergeSides(), writer: await container.getAsync(IDS.ReadyTracker) };
    return repairIdCollisions(ports, new TrackerPaths(root), settings.actor, references);
  };
  const indexWatcher = async (): Promise<IndexWatcherControl> => {
    const root = await container.getAsync(IDS.TrackerRoot);
    return {
      status: () => contactWatcher(root, 'status'),
      stop: () => contactWatcher(root, 'stop'),
      run: () => runIndexWatcher(container, settings),
    };
  };
  const browserBoard = async (): Promise<BrowserBoardControl> => nodeBrowserBoard(await container.getAsync(IDS.TrackerRoot), launch.env);
  return { fs, settings, indexWatcher, browserBoard, tracker: () => container.getAsync(IDS.ReadyTracker), skills, requestStates: () => container.getAsync(IDS.RequestStates), mergeDrivers, mergeInstaller, repairIdCollisions: repair };
}

/**
 * How git runs this very pm as a merge driver: node and the script it was started with, both
 * absolute and quoted for the shell git runs drivers with (a clone's drivers need not find pm
 * on PATH, and a clone installs its own).
 */
export function pmLauncher(argv: readonly string[] = process.argv, execPath: string = process.execPath): string {
  const script = argv[1];
  const words = script ? [execPath, realpathSync(script)] : ['pm'];
  return words.map((word) => `'${word.replace(/'/g, "'\\''")}'`).join(' ');
}
