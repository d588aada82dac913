import { resolve } from 'node:path';
import { wantsJson } from '../adapters/cli/argv.js';
import type { CliIo, CliServices, GlobalOptions } from '../adapters/cli/command.js';
import { NodeCliIo } from '../adapters/cli/node-cli-io.js';
import { progressBar } from '../adapters/cli/progress-bar.js';
import { runCli } from '../adapters/cli/run-cli.js';
import { UsageError } from '../adapters/cli/usage-error.js';
import { cliMessage } from '../adapters/cli/remedy-words.js';
import { oneLine } from '../adapters/cli/render/text.js';
import { EXIT, INTERNAL_ERROR, INVALID_PARAMS, PmError } from '../domain/errors/pm-error.js';
import { initTracker } from '../domain/tracker/init.js';
import { trackerRootFor } from '../domain/tracker/root-locator.js';
import { composeCli, type CliApp, type WatcherLaunch } from './compose-cli.js';
import { boundHeap } from './heap-growth.js';
import { osUser } from './os-user.js';
import { packageInfo } from './package-info.js';
import { stderrLog } from './process-log.js';
import { SettingsError, settingsFromEnv, type Settings } from './settings.js';

/** What the `pm` process runs with; every field defaults to the real process. */
export interface CliMainOptions {
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
  readonly io?: CliIo;
  /**
   * The command that runs this pm (node and bin/pm.cjs), for starting an index watcher that
   * outlives this process; bin/pm.cjs passes it. Without it no watcher is started.
   */
  readonly watcherLauncher?: readonly string[];
}

/**
 * The composition root of the `pm` CLI: parses settings once (environment plus --actor and
 * --root), builds the container lazily (so --help works anywhere), runs the command, and maps
 * every failure to a message and an exit code here and only here. Resolves to the exit code;
 * bin/pm.cjs then exits the process. The tracker is not disposed: every write already reached
 * the index in its own transaction, and a one-shot process watches nothing. A long rebuild of
 * the index draws a progress bar when stderr is a terminal. The heap is bounded (heap-growth.ts):
 * a first build of 100,000 items stays within the one-shot memory budget.
 */
export async function main(argv: readonly string[], options: CliMainOptions = {}): Promise<number> {
  // The real process (no io handed in).
  if (options.io === undefined) boundHeap('one-shot');
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const io = options.io ?? new NodeCliIo(cwd, process.stdin, process.stdout, process.stderr, env);
  try {
    const progress = options.io === undefined && process.stderr.isTTY ? progressBar(process.stderr, 'pm: indexing items') : undefined;
    const launch = { env, ...(options.watcherLauncher ? { launcher: options.watcherLauncher } : {}) };
    const services = (globals: GlobalOptions) => lazyServices(() => settingsFor(globals, env, cwd), progress, launch);
    return await runCli(argv, { io, services, version: packageVersion() });
  } catch (error) {
    return reportFailure(error, io, { json: wantsJson(argv), debug: env.PM_DEBUG === '1' });
  }
}

/** One failure, as the CLI reports it. */
export interface CliFailure {
  readonly exitCode: number;
  readonly message: string;
  /** The `--json` error object: `{ error: { code, reason, message, data } }`. */
  readonly json: { error: { code: number; reason: string; message: string; data: Record<string, unknown> } };
}

/**
 * The one mapping from a thrown value to an exit code and message: typed pm errors carry
 * their own exit code and JSON-RPC code; bad settings are usage errors; anything else is an
 * unexpected failure (exit 1).
 */
export function describeFailure(error: unknown): CliFailure {
  if (error instanceof PmError) {
    const rpc = error.toJsonRpcError();
    const hint = error instanceof UsageError ? ` (see '${error.hint}')` : '';
    const message = cliMessage(error);
    return { exitCode: error.exitCode, message: `${message}${hint}`, json: { error: { code: rpc.code, reason: error.reason, message, data: rpc.data } } };
  }
  if (error instanceof SettingsError) {
    return { exitCode: EXIT.usage, message: error.message, json: { error: { code: INVALID_PARAMS, reason: 'invalid_settings', message: error.message, data: { reason: 'invalid_settings' } } } };
  }
  // An unexpected error's message is all there is to go on (a native module's load error says
  // what to do on its last lines): folded onto one line, never cut to its first.
  const message = (error instanceof Error ? error.message : String(error)).replace(/\s*\n\s*/g, ' ');
  return { exitCode: EXIT.failure, message, json: { error: { code: INTERNAL_ERROR, reason: 'internal_error', message, data: { reason: 'internal_error' } } } };
}

async function reportFailure(error: unknown, io: CliIo, how: { json: boolean; debug: boolean }): Promise<number> {
  const failure = describeFailure(error);
  const firstLine = failure.message.split('\n')[0] ?? '';
  await io.writeError(how.json ? `${JSON.stringify(failure.json)}\n` : `pm: ${oneLine(firstLine)}\n`).catch(() => undefined);
  if (how.debug && error instanceof Error && error.stack) await io.writeError(`${error.stack}\n`).catch(() => undefined);
  return failure.exitCode;
}

/** Settings from the environment, with --actor and --root (relative to cwd) on top. */
function settingsFor(globals: GlobalOptions, env: NodeJS.ProcessEnv, cwd: string): Settings {
  const root = globals.root ?? env.PM_ROOT;
  return settingsFromEnv(env, cwd, osUser(env), {
    ...(globals.actor !== undefined ? { actor: globals.actor } : {}),
    ...(root ? { root: resolve(cwd, root) } : {}),
  });
}

/** The CLI's services over its composed graph, built on first use (so --help works anywhere). */
function lazyServices(settings: () => Settings, progress: ((done: number, total: number) => void) | undefined, launch: WatcherLaunch): CliServices {
  let app: Promise<CliApp> | undefined;
  const composed = () => (app ??= Promise.resolve().then(() => composeCli(settings(), stderrLog('pm'), progress, launch)));
  return {
    tracker: async () => (await composed()).tracker(),
    skills: async () => (await composed()).skills(),
    requestStates: async () => (await composed()).requestStates(),
    mergeDrivers: async () => (await composed()).mergeDrivers(),
    mergeInstaller: async () => (await composed()).mergeInstaller(),
    repairIdCollisions: async () => (await composed()).repairIdCollisions(),
    indexWatcher: async () => (await composed()).indexWatcher(),
    browserBoard: async () => (await composed()).browserBoard(),
    initialize: async (options) => {
      const { fs, settings: s } = await composed();
      return initTracker(fs, trackerRootFor(s.root ?? s.cwd), options);
    },
  };
}

function packageVersion(): string {
  return packageInfo().version;
}
