import { EXIT } from '../../domain/errors/pm-error.js';
import { GLOBAL_OPTIONS } from './argv.js';
import type { CliCommand, OptionSpec } from './command.js';
import { COMMANDS } from './registry.js';
import { columns, lines } from './render/text.js';

/** --help text, generated from the same option specs parseArgs uses (so they never drift). */

function optionRows(specs: Readonly<Record<string, OptionSpec>>): string[][] {
  return Object.entries(specs).map(([name, spec]) => [
    `  ${spec.short ? `-${spec.short}, ` : '    '}--${name}${spec.type === 'string' ? ` ${spec.value ?? 'VALUE'}` : ''}`,
    spec.description,
  ]);
}

/** The usage line, e.g. `pm comment <id> <text...> [options]`. */
export function usageLine(command: CliCommand): string {
  const args = command.args.map((a) => {
    const name = `<${a.name}${a.variadic ? '...' : ''}>`;
    return a.optional ? `[${name}]` : name;
  });
  return ['pm', command.name, ...args, '[options]'].join(' ');
}

/** `pm <command> --help`: usage, description, options, globals, examples. */
export function commandHelp(command: CliCommand): string {
  const options = optionRows(command.options);
  const table = columns([...options, ...optionRows(GLOBAL_OPTIONS)]);
  return lines(
    `Usage: ${usageLine(command)}`,
    command.aliases?.length ? `Alias: ${command.aliases.map((a) => `pm ${a}`).join(', ')}` : undefined,
    '',
    command.description ?? command.summary,
    options.length > 0 && ['', 'Options:', ...table.slice(0, options.length)],
    '',
    'Global options:',
    table.slice(options.length),
    command.examples?.length ? ['', 'Examples:', ...command.examples.map((e) => `  ${e}`)] : undefined,
  );
}

/** Exit codes, documented in --help and docs/CLI.md. */
export const EXIT_CODE_HELP: readonly [number, string][] = [
  [EXIT.ok, 'success'],
  [EXIT.failure, 'unexpected failure'],
  [EXIT.usage, 'bad command line or invalid input (unknown option, bad priority, unknown status)'],
  [EXIT.notFound, 'no such item, or no tracker here (run pm init)'],
  [EXIT.conflict, 'conflict: stale --expected-revision, claimed by someone else, cycle, reused idempotency key'],
  [EXIT.invalid, 'pm validate or pm merge check found errors, or pm skills check found a rejected skill'],
  [EXIT.consent, 'consent needed (pass --yes) or declined'],
  [EXIT.corrupt, 'a file on disk does not parse; nothing was changed'],
  [EXIT.locked, 'the tracker write lock could not be acquired in time'],
  [EXIT.storage, 'the storage failed (disk full, read-only, permission denied, I/O error); the change was not made'],
];

/** `pm --help`: every command, the globals and the exit codes. */
export function generalHelp(version: string): string {
  const commands = columns(COMMANDS.filter((c) => !c.hidden).map((c) => [`  ${c.name}${c.aliases?.length ? ` (${c.aliases.join(', ')})` : ''}`, c.summary]));
  return lines(
    `pm ${version}: a git-native project tracker for people and coding agents`,
    '',
    'Usage: pm <command> [arguments] [options]',
    '',
    'Commands:',
    commands,
    '',
    'Global options:',
    columns(optionRows(GLOBAL_OPTIONS)),
    '',
    'Mutating commands also take --expected-revision N and --idempotency-key KEY.',
    '',
    'Exit codes:',
    columns(EXIT_CODE_HELP.map(([code, text]) => [`  ${code}`, text])),
    '',
    "Run 'pm <command> --help' for a command's options. Docs: docs/CLI.md",
  );
}
