import type { CliServices } from '../../src/adapters/cli/command.js';
import { runCli } from '../../src/adapters/cli/run-cli.js';
import { PureSha256Hasher } from '../../src/adapters/memory/pure-hasher.js';
import { MemoryMacKeyStore } from '../../src/adapters/memory/memory-mac-key-store.js';
import { MemoryReplayLedger } from '../../src/adapters/memory/memory-replay-ledger.js';
import { PmMcpRequestStateSealer } from '../../src/domain/mcp/interaction/request-state.js';
import { PmMcpSkillRegistry } from '../../src/domain/skills/registry.js';
import { initTracker } from '../../src/domain/tracker/init.js';
import { MemoryGitConfig } from '../../src/adapters/memory/memory-git-config.js';
import { MemoryGitHooks } from '../../src/adapters/memory/memory-git-hooks.js';
import { MergeDrivers } from '../../src/domain/merge/merge-drivers.js';
import { MergeInstaller } from '../../src/domain/merge/merge-install.js';
import { repairIdCollisions } from '../../src/domain/merge/id-collisions.js';
import { TrackerPaths } from '../../src/domain/tracker/tracker-paths.js';
import { FakeCliIo } from './fake-cli-io.js';
import { memoryTracker } from './memory-tracker.js';

export interface CliRun {
  readonly code: number | undefined;
  readonly stdout: string;
  readonly io: FakeCliIo;
  /** What runCli threw (the composition root maps it to an exit code). */
  readonly error?: unknown;
}

/**
 * The CLI adapter over an in-memory tracker: runs `pm` argv through runCli with a fake
 * terminal. `--actor` switches who the tracker records, as the composition root does.
 */
/** `packageSkillsDir`: a directory of the in-memory file system holding the "package" skills `pm skills` shows. */
export async function cliHarness(options: { configYaml?: string; packageSkillsDir?: string; browserFails?: boolean } = {}) {
  const memory = await memoryTracker(options.configYaml ? { configYaml: options.configYaml } : {});
  const board = { running: false };
  const initRoot = '/fresh/.agents/pm';
  const git = new MemoryGitConfig();
  git.addRepository('/project');
  const hooks = new MemoryGitHooks();
  hooks.addRepository('/project');
  const requestStates = new PmMcpRequestStateSealer({ hasher: memory.hasher, clock: memory.clock, ids: memory.ids, keys: new MemoryMacKeyStore(memory.clock), replays: new MemoryReplayLedger() });
  async function run(argv: string[], ioOptions: ConstructorParameters<typeof FakeCliIo>[0] = {}): Promise<CliRun> {
    const io = new FakeCliIo(ioOptions);
    const services = (globals: { actor?: string }): CliServices => ({
      // No process to start over memory adapters: a board that starts once, then is reused.
      browserBoard: async () => ({
        open: async ({ browser }) => {
          const reused = board.running;
          board.running = true;
          return { url: 'http://127.0.0.1:4545/', reused, pid: 4242, opened: browser && !options.browserFails, ...(browser && options.browserFails ? { openError: 'could not run xdg-open: spawn xdg-open ENOENT' } : {}) };
        },
        stop: async () => {
          const was = board.running;
          board.running = false;
          return was ? 4242 : undefined;
        },
      }),
      tracker: async () => (globals.actor ? memory.reopen(globals.actor) : memory.tracker),
      initialize: (init) => initTracker(memory.fs, initRoot, init),
      skills: () => PmMcpSkillRegistry.load({ fileSystem: memory.fs, hasher: new PureSha256Hasher(), package: { name: '@unbrained/pm-cli', version: '9.9.9' }, ...(options.packageSkillsDir ? { packageSkillsDir: options.packageSkillsDir } : {}), workspaceRoot: '/project' }),
      requestStates: async () => requestStates,
      mergeDrivers: async () => new MergeDrivers(memory.fs, memory.hasher, memory.clock, '/project'),
      mergeInstaller: async () => new MergeInstaller(memory.fs, git, hooks, '/project', "'pm'"),
      repairIdCollisions: () => repairIdCollisions(memory, new TrackerPaths('/project/.agents/pm'), globals.actor ?? 'alice'),
      // A memory tracker has no watcher process: every query checks its files.
      indexWatcher: async () => ({
        status: async () => ({ running: false, socket: '(memory)' }),
        stop: async () => ({ running: false, socket: '(memory)' }),
        run: async () => {
          throw new Error('an index watcher needs the node adapters');
        },
      }),
    });
    try {
      const code = await runCli(argv, { io, version: '9.9.9', services });
      return { code, stdout: io.stdout, io };
    } catch (error) {
      return { code: undefined, stdout: io.stdout, io, error };
    }
  }
  /** Runs with --json and parses stdout. */
  async function json<T = Record<string, unknown>>(argv: string[], ioOptions: ConstructorParameters<typeof FakeCliIo>[0] = {}): Promise<T> {
    const result = await run(['--json', ...argv], ioOptions);
    if (result.error) throw result.error;
    return JSON.parse(result.stdout) as T;
  }
  return { ...memory, run, json, initRoot, requestStates, git, hooks };
}
