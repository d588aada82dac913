import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { z } from 'zod';
import type { CliCommand, GlobalOptions, OptionSpec, OptionValues, ParsedArgs } from './command.js';
import { nearestDeclaredKey, unknownValueMessage } from '../../domain/util/nearest-key.js';
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
  if (!globals.help && !globals.version) {
    checkPositionals(command, parsed.positionals, parsed.values);
    checkEmptyValues(command.name, specs, parsed.values);
  }
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

/**
 * An empty value (`--assignee ""`, `--tag ""`) is refused with the option's name, never
 * ignored or passed on to a schema (docs/CLI.md "How it behaves"), unless the option gives
 * it a meaning (`allowEmpty`).
 */
function checkEmptyValues(command: string, specs: Readonly<Record<string, OptionSpec>>, values: OptionValues): void {
  for (const [name, value] of Object.entries(values)) {
    const spec = specs[name];
    if (!spec || spec.type !== 'string' || spec.allowEmpty) continue;
    const given = Array.isArray(value) ? value : [value];
    if (!given.some((v) => typeof v === 'string' && v.trim() === '')) continue;
    const expected = [`expected ${spec.value ?? 'a value'}`, ...(spec.emptyHint ? [spec.emptyHint] : [])].join('; ');
    throw new UsageError(`--${name}: the value is empty (${expected})`, command, { option: name });
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

/**
 * The candidate a mistyped word most likely meant (for "did you mean" hints): the distance and
 * threshold the MCP edge uses for unknown arguments (domain/util/nearest-key.ts).
 */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  return nearestDeclaredKey(word, candidates);
}

/**
 * Validates raw argv values with a command's zod schema. The first problem becomes a usage
 * error naming the option (`--priority: ...`) or the argument (`<id>: ...`).
 */
export function parseWith<S extends z.ZodType>(schema: S, raw: Record<string, unknown>, command: string, positionalNames: readonly string[] = []): z.output<S> {
  const result = schema.safeParse(raw, { error: cliIssueMessage });
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const key = String(issue.path[0] ?? '');
  const label = !key ? '' : positionalNames.includes(key) ? `<${key}>: ` : `--${key}: `;
  throw new UsageError(`${label}${issue.message}`, command, key ? { option: key } : {});
}

/**
 * CLI words for what a schema leaves to zod's defaults (a schema's own message wins): no raw
 * "Too small: expected string to have >=1 characters" reaches the user, and a value outside
 * an enum gets the nearest allowed one named, as a type or status does.
 */
function cliIssueMessage(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case 'too_small':
      return issue.origin === 'string' ? (Number(issue.minimum) <= 1 ? 'the value is empty' : `needs at least ${issue.minimum} characters`) : `needs at least ${issue.minimum}`;
    case 'too_big':
      return issue.origin === 'string' ? `at most ${issue.maximum} characters` : `at most ${issue.maximum}`;
    case 'invalid_value':
      return typeof issue.input === 'string' ? unknownValueMessage('value', issue.input, issue.values.map(String)) : `expected one of: ${issue.values.map(String).join(', ')}`;
    case 'invalid_type':
      return issue.input === undefined ? 'missing' : `expected ${issue.expected === 'array' ? 'a list' : `a ${issue.expected}`}`;
    default:
      return undefined;
  }
}
