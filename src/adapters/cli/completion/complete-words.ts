import { GLOBAL_OPTIONS } from '../argv.js';
import type { CliCommand, CompletionSource, OptionSpec, PositionalSpec } from '../command.js';

/**
 * What the completion engine knows of the tracker: statuses and types from config.yaml, tags
 * in use, item ids (open first). Absent where no tracker is found: commands and flags still
 * complete.
 */
export interface CompletionData {
  statuses(): Promise<readonly string[]>;
  types(): Promise<readonly string[]>;
  tags(): Promise<readonly string[]>;
  assignees(): Promise<readonly string[]>;
  /** Ids starting with `prefix`, open items first, each with its title; no cap. */
  ids(prefix: string): Promise<readonly Candidate[]>;
}

/** One completion: the word, and a description shells that show one (zsh, fish) print beside it. */
export interface Candidate {
  readonly value: string;
  readonly description?: string;
}

/** What to complete: candidates, or `files` when the value is a path (the shell completes those itself). */
export interface Completion {
  readonly candidates: readonly Candidate[];
  readonly files?: boolean;
}

/** Option names that say what their value is (docs/CLI.md "pm completion"). */
const BY_NAME: Readonly<Record<string, CompletionSource>> = {
  status: 'status', type: 'type', tag: 'tag', tags: 'tag', 'add-tag': 'tag', 'remove-tag': 'tag',
  parent: 'id', 'blocked-by': 'id', blocks: 'id', related: 'id', after: 'id', assignee: 'assignee',
  'body-file': 'file', 'from-file': 'file', resume: 'file', root: 'file', file: 'file', out: 'file',
};

const VALUE_TAKING_GLOBALS = new Set(Object.entries(GLOBAL_OPTIONS).filter(([, s]) => s.type === 'string').map(([n]) => `--${n}`));

/**
 * Completes the last of `words` (the command line after `pm`, the last word half typed), from
 * the command registry (commands, subcommands, long and short flags: new commands complete
 * with no change here) and from the tracker (statuses, types, tags, ids).
 */
export async function completeWords(words: readonly string[], commands: readonly CliCommand[], data: CompletionData | undefined): Promise<Completion> {
  const visible = commands.filter((c) => !c.hidden);
  const current = words[words.length - 1] ?? '';
  const before = words.slice(0, -1);
  const position = locate(before, visible);
  const previous = before[before.length - 1];
  if (previous !== undefined && VALUE_TAKING_GLOBALS.has(previous)) return complete(BY_NAME[previous.slice(2)] ?? 'none', current, data);
  if (!position.command) {
    if (current.startsWith('-')) return { candidates: flagCandidates(GLOBAL_OPTIONS, current) };
    return { candidates: prefixed(topLevel(visible), current) };
  }
  const { command, args } = position;
  const specs = { ...command.options, ...GLOBAL_OPTIONS };
  const valueOf = previous !== undefined && args.length > 0 ? optionTakingValue(previous, specs) : undefined;
  if (valueOf) return complete(valueOf.spec.complete ?? BY_NAME[valueOf.name] ?? 'none', current, data);
  if (current.startsWith('-')) return { candidates: flagCandidates(specs, current) };
  const positionals = args.filter((a, i) => !a.startsWith('-') && !(i > 0 && optionTakingValue(args[i - 1]!, specs)));
  const subcommands = positionals.length === 0 ? subcommandsOf(command, visible) : [];
  const spec = positionalAt(command.args, positionals.length);
  const values = spec ? await complete(spec.complete ?? positionalSource(spec), current, data) : { candidates: [] };
  return { ...values, candidates: [...prefixed(subcommands, current), ...values.candidates] };
}

/** The command the words name (a group's subcommand when one follows it), and the words after it. */
function locate(words: readonly string[], commands: readonly CliCommand[]): { command?: CliCommand; args: readonly string[] } {
  const find = (name: string) => commands.find((c) => c.name === name || c.aliases?.includes(name));
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (word.startsWith('-')) {
      if (VALUE_TAKING_GLOBALS.has(word)) i++;
      continue;
    }
    const group = words[i + 1] !== undefined ? find(`${word} ${words[i + 1]}`) : undefined;
    if (group) return { command: group, args: words.slice(i + 2) };
    // A group with no command of its own (`index`, `mcp`) stands for its subcommands.
    const command = find(word) ?? groupOnly(word, commands);
    return command ? { command, args: words.slice(i + 1) } : { args: [] };
  }
  return { args: [] };
}

function groupOnly(word: string, commands: readonly CliCommand[]): CliCommand | undefined {
  if (!commands.some((c) => c.name.startsWith(`${word} `))) return undefined;
  return { name: word, summary: `${word} commands`, args: [], options: {}, run: () => Promise.reject(new Error(`pm ${word} needs a subcommand`)) };
}

function topLevel(commands: readonly CliCommand[]): Candidate[] {
  const seen = new Map<string, Candidate>();
  for (const c of commands) {
    const word = c.name.split(' ')[0]!;
    if (!seen.has(word)) seen.set(word, { value: word, description: c.name === word ? c.summary : `${word} commands` });
    for (const alias of c.aliases ?? []) if (!seen.has(alias)) seen.set(alias, { value: alias, description: c.summary });
  }
  return [...seen.values()];
}

/** `deps` → add, remove; `merge` → install, uninstall, check…: the words after a group's name. */
function subcommandsOf(command: CliCommand, commands: readonly CliCommand[]): Candidate[] {
  if (command.name.includes(' ')) return [];
  return commands.filter((c) => c.name.startsWith(`${command.name} `)).map((c) => ({ value: c.name.slice(command.name.length + 1), description: c.summary }));
}

function flagCandidates(specs: Readonly<Record<string, OptionSpec>>, current: string): Candidate[] {
  const all: Candidate[] = [];
  for (const [name, spec] of Object.entries(specs)) {
    all.push({ value: `--${name}`, description: spec.description });
    if (spec.short) all.push({ value: `-${spec.short}`, description: spec.description });
  }
  // `-` offers every flag; `-p` or `--pri` narrows.
  return current === '-' ? all : prefixed(all, current);
}

/** The option `word` names when it takes a value (`--status`, `-p`), else undefined. */
function optionTakingValue(word: string, specs: Readonly<Record<string, OptionSpec>>): { name: string; spec: OptionSpec } | undefined {
  if (word.includes('=')) return undefined;
  const entry = word.startsWith('--')
    ? Object.entries(specs).find(([name]) => `--${name}` === word)
    : word.length === 2 && word.startsWith('-') ? Object.entries(specs).find(([, s]) => s.short === word[1]) : undefined;
  return entry && entry[1].type === 'string' ? { name: entry[0], spec: entry[1] } : undefined;
}

function positionalAt(args: readonly PositionalSpec[], index: number): PositionalSpec | undefined {
  return args[index] ?? (args.length > 0 && args[args.length - 1]!.variadic ? args[args.length - 1] : undefined);
}

function positionalSource(spec: PositionalSpec): CompletionSource {
  return spec.name === 'id' || spec.name === 'ids' ? 'id' : 'none';
}

async function complete(source: readonly string[] | CompletionSource, current: string, data: CompletionData | undefined): Promise<Completion> {
  if (typeof source !== 'string') return { candidates: prefixed(source.map((value) => ({ value })), current) };
  if (source === 'file') return { candidates: [], files: true };
  if (source === 'none' || !data) return { candidates: [] };
  if (source === 'id') return { candidates: await data.ids(current) };
  const words = source === 'status' ? await data.statuses() : source === 'type' ? await data.types() : source === 'tag' ? await data.tags() : await data.assignees();
  // A comma list completes its last entry: `--tag a,b<TAB>`.
  const comma = current.lastIndexOf(',');
  const head = comma < 0 ? '' : current.slice(0, comma + 1);
  return { candidates: prefixed(words.map((value) => ({ value: `${head}${value}` })), current) };
}

function prefixed(candidates: readonly Candidate[], current: string): Candidate[] {
  return candidates.filter((c) => c.value.startsWith(current));
}
