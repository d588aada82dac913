import { closest, parseCommandArgs, parseGlobalArgs, splitArgv } from './argv.js';
import type { CliIo, CliServices, GlobalOptions, ParsedArgs } from './command.js';
import { colorize } from './render/colors.js';
import { neutralizeControls, oneLine } from './render/text.js';
import { commandHelp, generalHelp } from './help.js';
import { commandNames, findCommand } from './registry.js';
import { UsageError } from './usage-error.js';

/** What the host gives the CLI: the terminal, the package version, and the services. */
export interface CliRuntime {
  readonly io: CliIo;
  readonly version: string;
  /** The services for this run, configured by the parsed global options (--actor, --root). */
  services(globals: GlobalOptions): CliServices;
}

/**
 * Runs one `pm` command line: finds the command, handles --help and --version, parses and
 * validates argv, runs the command and prints its result (JSON with --json, readable text
 * otherwise). Returns the exit code of a successful run; every failure is thrown, so the
 * composition root maps errors to exit codes and messages in exactly one place.
 */
export async function runCli(argv: readonly string[], runtime: CliRuntime): Promise<number> {
  const { io, version } = runtime;
  const { command: name, rest } = splitArgv(argv, (n) => findCommand(n) !== undefined);
  if (name === undefined || name === 'help') return runGeneral(name, name === undefined ? argv : rest, runtime);
  const command = findCommand(name);
  if (!command) {
    const suggestion = closest(name, commandNames());
    throw new UsageError(`unknown command '${name}'${suggestion ? `; did you mean '${suggestion}'?` : ''}`, '');
  }
  const { args, globals } = command.rawArgs ? rawArgs(rest) : parseCommandArgs(command, rest);
  if (globals.help) return print(io, commandHelp(command));
  if (globals.version) return print(io, `${version}\n`);
  const outcome = await command.run(args, { io, services: runtime.services(globals), globals });
  for (const warning of outcome.warnings ?? []) await io.writeError(`pm: warning: ${oneLine(warning)}\n`);
  if (outcome.written) return outcome.exitCode ?? 0;
  // Item text never drives the terminal (docs/CLI.md "How it behaves"); --json stays exact (JSON escapes controls itself).
  const human = globals.json ? '' : neutralizeControls(outcome.human);
  await io.write(globals.json ? `${JSON.stringify(outcome.value, null, 2)}\n` : io.color ? colorize(human) : human);
  return outcome.exitCode ?? 0;
}

/** `pm`, `pm --help`, `pm --version`, `pm help [command]`. */
async function runGeneral(name: string | undefined, argv: readonly string[], runtime: CliRuntime): Promise<number> {
  const { io, version } = runtime;
  if (name === 'help') {
    const topic = argv.filter((a) => !a.startsWith('-'));
    if (topic.length === 0) return print(io, generalHelp(version));
    const command = findCommand(topic.join(' ')) ?? findCommand(topic[0]!);
    if (!command) throw new UsageError(`no help for unknown command '${topic.join(' ')}'`, '');
    return print(io, commandHelp(command));
  }
  const globals: GlobalOptions = parseGlobalArgs(argv);
  if (globals.version) return print(io, `${version}\n`);
  if (globals.help) return print(io, generalHelp(version));
  throw new UsageError('missing command', '');
}

/**
 * argv of a command that takes it unparsed (the completion engine): only `--root` and `--actor`
 * are read, so completion looks at the tracker the completed command would.
 */
function rawArgs(argv: readonly string[]): { args: ParsedArgs; globals: GlobalOptions } {
  const valueOf = (name: string) => {
    const at = argv.indexOf(name);
    return at >= 0 && at + 1 < argv.length - 1 ? argv[at + 1] : undefined;
  };
  const root = valueOf('--root');
  const actor = valueOf('--actor');
  return { args: { values: {}, positionals: argv }, globals: { json: false, help: false, version: false, ...(root ? { root } : {}), ...(actor ? { actor } : {}) } };
}

async function print(io: CliIo, text: string): Promise<number> {
  await io.write(text);
  return 0;
}
