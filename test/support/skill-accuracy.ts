import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { GLOBAL_OPTIONS, parseCommandArgs, parseGlobalArgs, splitArgv } from '../../src/adapters/cli/argv.js';
import { COMMANDS, findCommand } from '../../src/adapters/cli/registry.js';
import type { AnyMcpToolDefinition } from '../../src/domain/mcp/tool-registry.js';
import { confirmArgumentConsent } from '../../src/domain/mcp-tracker/consent.js';
import { createPmTrackerTools } from '../../src/domain/mcp-tracker/tool-catalog.js';
import { PM_SKILLS_EXTENSION_REVISION } from '../../src/domain/skills/types.js';
import { markdownCode, type CodeBlock, type CodeSpan } from './markdown-code.js';
import { memoryTracker } from './memory-tracker.js';
import { shellCommands, shellLines } from './shell-words.js';

/**
 * Checks that what the skills tell an agent in code is true of this repository: every
 * `pm <command>` line parses with the CLI's own argv parser (command, subcommand, options,
 * argument count), every `--flag` exists, every `pm_*` tool exists and every argument object
 * given to one is accepted by its schema, every SDK import and every SDK identifier written as
 * inline code is exported by src/sdk/index.ts, every `PM_*` name is an environment variable pm
 * reads (or an SDK export), the pinned SEP-2640 revision is the one served, and every relative
 * link resolves to a file inside the skill.
 */

/** One wrong statement, where it is. */
export interface SkillProblem {
  readonly file: string;
  readonly line: number;
  readonly what: string;
  readonly why: string;
}

/** What the statements are checked against, read once from the sources. */
export interface SkillFacts {
  /** The SDK's runtime exports (from importing src/sdk/index.ts). */
  readonly sdkValues: ReadonlySet<string>;
  /** Every name src/sdk/index.ts exports, types included (from its source). */
  readonly sdkNames: ReadonlySet<string>;
  /** `PM_*` variables the composition and the bins read from the environment. */
  readonly envVars: ReadonlySet<string>;
  readonly tools: ReadonlyMap<string, AnyMcpToolDefinition>;
  /** Every long option (without `--`) and short option (without `-`) of any command, globals included. */
  readonly longOptions: ReadonlySet<string>;
  readonly shortOptions: ReadonlySet<string>;
}

const REPO = fileURLToPath(new URL('../../', import.meta.url));

function walk(dir: string, keep: (file: string) => boolean): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? walk(path, keep) : keep(path) ? [path] : [];
  });
}

/**
 * The names a TypeScript module exports, types included, following `export … from` and
 * `export * from` through the sources (the module graph is plain relative imports).
 */
export function exportedNames(file: string, memo = new Map<string, Set<string>>()): Set<string> {
  const known = memo.get(file);
  if (known) return known;
  const names = new Set<string>();
  memo.set(file, names);
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement)) {
      const from = statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier) ? resolve(dirname(file), statement.moduleSpecifier.text.replace(/\.js$/, '.ts')) : undefined;
      const clause = statement.exportClause;
      if (!clause && from) for (const name of exportedNames(from, memo)) names.add(name);
      else if (clause && ts.isNamedExports(clause)) for (const element of clause.elements) names.add(element.name.text);
      else if (clause && ts.isNamespaceExport(clause)) names.add(clause.name.text);
      continue;
    }
    if (!ts.canHaveModifiers(statement) || !ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) if (ts.isIdentifier(declaration.name)) names.add(declaration.name.text);
    } else if ((ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement) || ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement) || ts.isEnumDeclaration(statement)) && statement.name) {
      names.add(statement.name.text);
    }
  }
  return names;
}

/** Reads the facts from the sources (the SDK module, the composition, the CLI registry, the tool catalogue). */
export async function loadSkillFacts(): Promise<SkillFacts> {
  const sdk = (await import('../../src/sdk/index.js')) as Record<string, unknown>;
  const envVars = new Set<string>();
  for (const file of [...walk(join(REPO, 'src/composition'), (f) => f.endsWith('.ts')), ...walk(join(REPO, 'bin'), (f) => /\.c?js$/.test(f))]) {
    for (const match of readFileSync(file, 'utf8').matchAll(/(?:env\.|env\[['"]|['"`])(PM_[A-Z0-9_]+)/g)) envVars.add(match[1]!);
  }
  const { tracker } = await memoryTracker();
  const tools = new Map(createPmTrackerTools({ tracker, actorOf: () => undefined, consent: confirmArgumentConsent }).map((tool) => [tool.name, tool]));
  const specs = [GLOBAL_OPTIONS, ...COMMANDS.map((c) => c.options)];
  return {
    sdkValues: new Set(Object.keys(sdk)),
    sdkNames: exportedNames(join(REPO, 'src/sdk/index.ts')),
    envVars,
    tools,
    longOptions: new Set(specs.flatMap((s) => Object.keys(s))),
    shortOptions: new Set(specs.flatMap((s) => Object.values(s).flatMap((o) => (o.short ? [o.short] : [])))),
  };
}

const SHELL_LANGS = new Set(['', 'sh', 'bash', 'shell', 'console', 'text']);
const SCRIPT_LANGS = new Set(['ts', 'typescript', 'js', 'javascript', 'mjs']);

/** Checks one Markdown file of `skillsDir` (path relative to it). */
export function checkSkillMarkdown(skillsDir: string, file: string, text: string, facts: SkillFacts): SkillProblem[] {
  const problems: SkillProblem[] = [];
  const report = (line: number, what: string, why: string) => problems.push({ file, line, what, why });
  const { blocks, spans, links } = markdownCode(text);
  for (const block of blocks) {
    if (SHELL_LANGS.has(block.lang)) shellLines(block.text).forEach((line, i) => checkShell(line, block.line + 1 + i, facts, report));
    if (SCRIPT_LANGS.has(block.lang)) checkImports(block, facts, report);
    if (block.lang === 'json') checkJsonBlock(block, facts, report);
    checkNames(block.text, block.line + 1, facts, report);
  }
  for (const span of spans) {
    checkShell(span.text, span.line, facts, report, true);
    checkIdentifier(span, facts, report);
    checkNames(span.text, span.line, facts, report);
  }
  for (const link of links) checkLink(skillsDir, file, link.target, link.line, report);
  return problems;
}

type Report = (line: number, what: string, why: string) => void;

/** `pm …` commands parse with the CLI's parser; a span or line of bare options names existing ones. */
function checkShell(line: string, at: number, facts: SkillFacts, report: Report, inline = false): void {
  for (const words of shellCommands(line)) {
    if (words[0] === 'pm') checkInvocation(words.slice(1), at, report);
    else if (inline && words[0]!.startsWith('-')) checkOptions(words, at, facts, report);
  }
}

function checkInvocation(args: string[], at: number, report: Report): void {
  const what = ['pm', ...args].join(' ');
  try {
    const { command, rest } = splitArgv(args, (name) => findCommand(name) !== undefined);
    if (command === undefined) {
      parseGlobalArgs(rest);
    } else if (command === 'help') {
      const topic = rest.filter((a) => !a.startsWith('-'));
      if (topic.length && !findCommand(topic.join(' '))) report(at, what, `no command '${topic.join(' ')}' to show help for`);
    } else {
      const found = findCommand(command);
      if (!found) report(at, what, `unknown command '${command}'`);
      // A bare `pm claim` names the command; anything more is an invocation and must parse.
      else if (rest.length > 0) parseCommandArgs(found, rest);
    }
  } catch (error) {
    report(at, what, (error as Error).message);
  }
}

function checkOptions(words: string[], at: number, facts: SkillFacts, report: Report): void {
  for (const word of words) {
    const long = /^--([A-Za-z0-9][\w-]*)/.exec(word)?.[1];
    const short = /^-([A-Za-z])$/.exec(word)?.[1];
    if (long !== undefined && !facts.longOptions.has(long)) report(at, word, 'no pm command has this option');
    if (short !== undefined && !facts.shortOptions.has(short)) report(at, word, 'no pm command has this short option');
  }
}

/** Tool names, argument objects after a tool name, `PM_*` names and the pinned revision, in any code. */
function checkNames(text: string, at: number, facts: SkillFacts, report: Report): void {
  const lineOf = (index: number) => at + text.slice(0, index).split('\n').length - 1;
  for (const match of text.matchAll(/\bpm_[a-z][a-z0-9_]*\b/g)) {
    const tool = facts.tools.get(match[0]);
    if (!tool) {
      report(lineOf(match.index), match[0], 'not a tool of the catalogue');
      continue;
    }
    const rest = text.slice(match.index + match[0].length);
    const open = /^[ \t]*\{/.exec(rest);
    if (open) checkToolArguments(tool, balancedObject(rest.slice(open[0].length - 1)), lineOf(match.index), report);
  }
  for (const match of text.matchAll(/\bPM_[A-Z0-9_]*[A-Z0-9]\b/g)) {
    if (!facts.sdkValues.has(match[0]) && !facts.envVars.has(match[0])) report(lineOf(match.index), match[0], 'neither an environment variable pm reads nor an SDK export');
  }
  for (const match of text.matchAll(/SEP-2640@([0-9a-f]+)/g)) {
    if (match[0] !== PM_SKILLS_EXTENSION_REVISION) report(lineOf(match.index), match[0], `pm serves ${PM_SKILLS_EXTENSION_REVISION}`);
  }
}

/** The text of the `{…}` object at the start of `text` (strings respected), or all of it when unbalanced. */
function balancedObject(text: string): string {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
    } else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return text.slice(0, i + 1);
  }
  return text;
}

function checkToolArguments(tool: AnyMcpToolDefinition, json: string | Record<string, unknown>, at: number, report: Report): void {
  let args: unknown = json;
  if (typeof json === 'string') {
    try {
      args = JSON.parse(json);
    } catch {
      return report(at, `${tool.name} ${json}`, 'the arguments are not a JSON object');
    }
  }
  const properties = Object.keys((tool.inputSchema.properties ?? {}) as Record<string, unknown>);
  const unknown = Object.keys(args as Record<string, unknown>).filter((key) => !properties.includes(key));
  if (unknown.length) return report(at, `${tool.name} ${JSON.stringify(args)}`, `unknown arguments ${unknown.join(', ')}; ${tool.name} takes ${properties.join(', ')}`);
  const parsed = tool.args.safeParse(args);
  if (!parsed.success) report(at, `${tool.name} ${JSON.stringify(args)}`, `rejected by the tool's schema: ${parsed.error.issues[0]!.message}`);
}

/** A JSON block parses; every `{name: pm_*, arguments}` object in it is a valid call. */
function checkJsonBlock(block: CodeBlock, facts: SkillFacts, report: Report): void {
  let value: unknown;
  try {
    value = JSON.parse(block.text);
  } catch (error) {
    return report(block.line + 1, 'json block', `does not parse: ${(error as Error).message}`);
  }
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    const object = node as Record<string, unknown>;
    const tool = typeof object.name === 'string' ? facts.tools.get(object.name) : undefined;
    if (tool && object.arguments && typeof object.arguments === 'object') checkToolArguments(tool, object.arguments as Record<string, unknown>, block.line + 1, report);
    Object.values(object).forEach(visit);
  };
  visit(value);
}

/** Imports from the package name only `@unbrained/pm-cli/sdk`, and only what it exports. */
function checkImports(block: CodeBlock, facts: SkillFacts, report: Report): void {
  for (const match of block.text.matchAll(/import\s+(type\s+)?\{([^}]*)\}\s*from\s*['"](@unbrained\/pm-cli[^'"]*)['"]/g)) {
    const at = block.line + 1 + block.text.slice(0, match.index).split('\n').length - 1;
    if (match[3] !== '@unbrained/pm-cli/sdk') {
      report(at, match[3]!, 'the package exports only @unbrained/pm-cli/sdk (and package.json)');
      continue;
    }
    for (const raw of match[2]!.split(',').map((s) => s.trim()).filter(Boolean)) {
      const typeOnly = Boolean(match[1]) || raw.startsWith('type ');
      const name = raw.replace(/^type\s+/, '').split(/\s+as\s+/)[0]!;
      const exported = typeOnly ? facts.sdkNames.has(name) : facts.sdkValues.has(name);
      if (!exported) report(at, name, typeOnly ? 'not exported by @unbrained/pm-cli/sdk' : 'not a runtime export of @unbrained/pm-cli/sdk');
    }
  }
}

/**
 * Inline code written as an SDK identifier: `PascalCase` (optionally `.member` or `()`),
 * `camelCase()`, or `SCREAMING_CASE` outside `PM_*` (checked as a variable or export above).
 */
function checkIdentifier(span: CodeSpan, facts: SkillFacts, report: Report): void {
  const pascal = /^([A-Z][A-Za-z0-9]*)(?:\.[A-Za-z_]\w*)*(?:\(\))?$/.exec(span.text);
  const call = /^([a-z][A-Za-z0-9]*)\(\)$/.exec(span.text);
  const constant = /^((?!PM_)[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)$/.exec(span.text);
  const name = (pascal && /[a-z]/.test(pascal[1]!) ? pascal[1] : undefined) ?? call?.[1] ?? constant?.[1];
  if (name !== undefined && !facts.sdkNames.has(name)) report(span.line, span.text, `${name} is not exported by @unbrained/pm-cli/sdk`);
}

/** A relative link names a file, inside the skill's own directory when the link is in a skill. */
function checkLink(skillsDir: string, file: string, target: string, at: number, report: Report): void {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) return;
  const path = decodeURI(target.split('#')[0]!);
  const absolute = resolve(skillsDir, dirname(file), path);
  const skill = file.includes('/') ? resolve(skillsDir, file.split('/')[0]!) : undefined;
  if (!existsSync(absolute) || !statSync(absolute).isFile()) return report(at, target, 'the link names no file');
  if (skill && relative(skill, absolute).split(sep)[0] === '..') report(at, target, 'the link leaves the skill (an MCP host resolves it inside skill://<name>/)');
}

/** Every Markdown file below `skillsDir`, relative to it. */
export function skillMarkdownFiles(skillsDir: string): string[] {
  return walk(skillsDir, (f) => f.endsWith('.md')).map((f) => relative(skillsDir, f).split(sep).join('/')).sort();
}

/** One problem as a line. */
export function formatSkillProblem(p: SkillProblem): string {
  return `${p.file}:${p.line}: ${p.what}: ${p.why}`;
}
