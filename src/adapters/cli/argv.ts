import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { z } from 'zod';
import type { CliCommand, GlobalOptions, OptionSpec, OptionValues, ParsedArgs } from './command.js';
import { UsageError } from './usage-error.js';

/** Options every command understands, before or after the command name. */
export const GLOBAL_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  json: { type: 'boolean', description: 'Print the exact result object as JSON (errors go to stderr as JSON too)' },
  actor: { type: 'string', value: 'NAME', description: 'Who the change is recorded as (default: $PM_ACTOR, else the OS user)' },
  root: { type: 'string', value: 'DIR', description: 'Project directory holding .agents/pm, or that directory itself (like $PM_ROOT)' },
  help: { type: 'boolean', short: 'h', description: 'Show help' },
  version: { type: 'boolean', description: 'Print the pm version' },
};

const VALUE_TAKING_GLOBALS = new Set(['--actor', '--root']);

/** Where the command name sits in argv: global options may come before it. */
export interface SplitArgv {
  /** The command word(s), e.g. 'list' or 'deps add'; undefined when argv names none. */
  readonly command?: string;
  /** argv without the command word(s). */
  readonly rest: readonly string[];
}

/**
 * Finds the command name: the first word that is not an option (or a global option's value).
 * A group's subcommand (`deps add`) must follow the group name directly.
 */
export function splitArgv(argv: readonly string[], isCommand: (name: string) => boolean): SplitArgv {
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (token === '--') break;
    if (token.startsWith('-') && token !== '-') {
      if (VALUE_TAKING_GLOBALS.has(token)) i++;
      continue;
    }
    const next = argv[i + 1];
    if (next !== undefined && isCommand(`${token} ${next}`)) {
      return { command: `${token} ${next}`, rest: [...argv.slice(0, i), ...argv.slice(i + 2)] };
    }
    return { command: token, rest: [...argv.slice(0, i), ...argv.slice(i + 1)] };
  }
  return { rest: argv };
}

/** True when argv asks for JSON output: decides how even an argv error is reported. */
export function wantsJson(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).includes('--json');
}

/**
 * Parses a command's argv (its options plus the globals) with node:util parseArgs in strict
 * mode, checks the positional count, and turns parseArgs' errors into short usage errors.
 */
export function parseCommandArgs(command: Pick<CliCommand, 'name' | 'args' | 'options' | 'optionHints'>, argv: readonly string[]): { args: ParsedArgs; globals: GlobalOptions } {
  const specs = { ...command.options, ...GLOBAL_OPTIONS };
  let parsed: { values: OptionValues; positionals: string[] };
  try {
    parsed = parseArgs({ args: [...argv], options: toParseArgsOptions(specs), allowPositionals: true, strict: true }) as typeof parsed;
  } catch (error) {
    throw new UsageError(describeParseError(error, specs, command.optionHints), command.name);
  }
  const globals = globalsFrom(parsed.values);
  if (!globals.help && !globals.version) checkPositionals(command, parsed.positionals, parsed.values);
  return { args: { values: parsed.values, positionals: parsed.positionals }, globals };
}

/** Parses argv that names no command: only global options are allowed. */
export function parseGlobalArgs(argv: readonly string[]): GlobalOptions {
  const { args, globals } = parseCommandArgs({ name: '', args: [], options: {} }, argv);
  if (args.positionals.length && !globals.help && !globals.version) throw new UsageError(`unexpected argument '${args.positionals[0]}'`, '');
  return globals;
}

function globalsFrom(values: OptionValues): GlobalOptions {
  return {
    json: values.json === true,
    help: values.help === true,
    version: values.version === true,
    ...(typeof values.actor === 'string' ? { actor: values.actor } : {}),
    ...(typeof values.root === 'string' ? { root: values.root } : {}),
  };
}

function checkPositionals(command: Pick<CliCommand, 'name' | 'args'>, positionals: readonly string[], values: OptionValues): void {
  const variadic = command.args.some((a) => a.variadic);
  const required = command.args.filter((a) => !a.optional && !(a.orOption && values[a.orOption] !== undefined));
  if (positionals.length < required.length) {
    const missing = required[positionals.length]!;
    throw new UsageError(`missing <${missing.name}${missing.variadic ? '...' : ''}>${missing.orOption ? ` (or --${missing.orOption})` : ''}`, command.name);
  }
  if (!variadic && positionals.length > command.args.length) {
    throw new UsageError(`unexpected argument '${positionals[command.args.length]}'`, command.name);
  }
}

function toParseArgsOptions(specs: Readonly<Record<string, OptionSpec>>): NonNullable<ParseArgsConfig['options']> {
  const options: NonNullable<ParseArgsConfig['options']> = {};
  for (const [name, spec] of Object.entries(specs)) {
    options[name] = { type: spec.type, ...(spec.short ? { short: spec.short } : {}), ...(spec.multiple ? { multiple: true } : {}) };
  }
  return options;
}

function describeParseError(error: unknown, specs: Readonly<Record<string, OptionSpec>>, hints: Readonly<Record<string, string>> = {}): string {
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message : String(error);
  const option = /--[A-Za-z0-9][\w-]*/.exec(message)?.[0] ?? /'(-[^' ,]+)/.exec(message)?.[1];
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION': {
      const hint = option ? hints[option.replace(/^-+/, '').replace(/=.*$/, '')] : undefined;
      if (hint) return `unknown option '${option}'; ${hint}`;
      const suggestion = option ? closestOption(option, specs) : undefined;
      return `unknown option '${option ?? message}'${suggestion ? `; did you mean '${suggestion}'?` : ''}`;
    }
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      if (/argument missing/.test(message)) return `option '${option}' needs a value`;
      if (/does not take an argument/.test(message)) return `option '${option}' takes no value`;
      if (/ambiguous/.test(message)) return `option '${option}' needs a value; to pass one that starts with '-', write ${option}=VALUE`;
      return message;
    default:
      return message;
  }
}

function closestOption(given: string, specs: Readonly<Record<string, OptionSpec>>): string | undefined {
  const name = given.replace(/^-+/, '').replace(/=.*$/, '');
  return closest(name, Object.keys(specs))?.replace(/^/, '--');
}

/** The candidate within edit distance 2 of `word` (for "did you mean" hints). */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(word, candidate);
    if (distance <= 2 && (!best || distance < best.distance)) best = { candidate, distance };
  }
  return best?.candidate;
}

function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    row = next;
  }
  return row[b.length]!;
}

/**
 * Validates raw argv values with a command's zod schema. The first problem becomes a usage
 * error naming the option (`--priority: ...`) or the argument (`<id>: ...`).
 */
export function parseWith<S extends z.ZodType>(schema: S, raw: Record<string, unknown>, command: string, positionalNames: readonly string[] = []): z.output<S> {
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const key = String(issue.path[0] ?? '');
  const label = !key ? '' : positionalNames.includes(key) ? `<${key}>: ` : `--${key}: `;
  throw new UsageError(`${label}${issue.message}`, command, key ? { option: key } : {});
}
