import { isAlias, isMap, isScalar, parseDocument, visit, type Document } from 'yaml';
import { deepFreeze } from '../util/canonical-json.js';
import { utf8Length } from '../util/utf8.js';
import { accepted, rejected, type PmSkillOutcome } from './diagnostics.js';
import { pmJsonValueProblem, type PmSkillFrontMatter } from './json-value.js';

/**
 * The front matter block of SKILL.md, located the way SEP-2640 hosts and the conformance suite
 * locate it: after an optional BOM, a `---` line, the YAML, and the first line that is `---`
 * (optionally followed by spaces or tabs).
 */
const BLOCK = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/**
 * Parses SKILL.md's front matter as YAML 1.2 with the core schema and passes it through
 * verbatim (SEP-2640 "Frontmatter": the entry's `frontmatter` must be identical in content to
 * the file). Under the core schema `2024-01-01` and `yes` stay strings while `010` is 10 and
 * `0x1F` is 31: exactly what a host parsing the file with a YAML 1.2 parser finds.
 *
 * Refused (seed 000 "Skills over MCP": malformed or aliased YAML is rejected):
 * - no front matter block, or one over `maxBytes` (bounds the parser's work);
 * - any YAML error or warning (unknown tags included), and more than one document;
 * - duplicate keys;
 * - anchors and aliases (an alias can expand a small file into a huge value);
 * - anything a JSON round trip would not carry unchanged (dates from `!!timestamp`, binary,
 *   sets, `.inf`, `.nan`, `-0`, collection keys): the wire value must equal the file's.
 */
export function parsePmSkillFrontMatter(text: string, maxBytes: number): PmSkillOutcome<PmSkillFrontMatter> {
  const match = BLOCK.exec(text.startsWith('\uFEFF') ? text.slice(1) : text);
  if (!match) return rejected('front-matter-missing', 'SKILL.md', 'SKILL.md must start with a front matter block: a --- line, YAML, and a closing --- line');
  const block = match[1]!;
  const size = utf8Length(block);
  if (size > maxBytes) return rejected('front-matter-too-large', 'SKILL.md', `the front matter has ${size} bytes; at most ${maxBytes} are allowed`, maxBytes, size);
  const doc = parseDocument(block, { version: '1.2', schema: 'core', uniqueKeys: true, merge: false, strict: true, prettyErrors: false });
  const syntax = syntaxProblem(doc);
  if (syntax) return syntax;
  const structure = structureProblem(doc);
  if (structure) return structure;
  const value: unknown = doc.toJS({ maxAliasCount: 0 });
  const problem = pmJsonValueProblem(value);
  if (problem !== undefined) return rejected('front-matter-not-json', 'SKILL.md', `the front matter ${problem}, which JSON cannot carry unchanged`);
  return accepted(deepFreeze(value as PmSkillFrontMatter));
}

function syntaxProblem(doc: Document): PmSkillOutcome<never> | undefined {
  const error = doc.errors[0];
  if (error?.code === 'DUPLICATE_KEY') return rejected('front-matter-duplicate-key', 'SKILL.md', `the front matter repeats a key: ${firstLine(error.message)}`);
  if (error) return rejected('front-matter-malformed', 'SKILL.md', `the front matter is not valid YAML: ${firstLine(error.message)}`);
  const warning = doc.warnings[0];
  if (warning) return rejected('front-matter-malformed', 'SKILL.md', `the front matter is ambiguous YAML: ${firstLine(warning.message)}`);
  return undefined;
}

function structureProblem(doc: Document): PmSkillOutcome<never> | undefined {
  let found: PmSkillOutcome<never> | undefined;
  visit(doc, {
    Alias() {
      found = rejected('front-matter-alias', 'SKILL.md', 'the front matter uses a YAML alias (*name); aliases are not accepted');
      return visit.BREAK;
    },
    Node(_key, node) {
      if (node.anchor === undefined) return undefined;
      found = rejected('front-matter-anchor', 'SKILL.md', `the front matter declares the YAML anchor &${node.anchor}; anchors are not accepted`);
      return visit.BREAK;
    },
    Pair(_key, pair) {
      if (pair.key === null || isScalar(pair.key) || isAlias(pair.key)) return undefined;
      found = rejected('front-matter-not-json', 'SKILL.md', 'the front matter uses a collection as a mapping key, which JSON cannot carry');
      return visit.BREAK;
    },
  });
  if (found) return found;
  if (!isMap(doc.contents)) return rejected('front-matter-not-mapping', 'SKILL.md', 'the front matter must be a YAML mapping (key: value lines)');
  return undefined;
}

function firstLine(message: string): string {
  return message.split('\n')[0]!;
}
