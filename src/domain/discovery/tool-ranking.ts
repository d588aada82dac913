import type { JsonObject, McpToolDescriptor } from '../mcp/wire-types.js';

/**
 * Deterministic ranking of tools against a free-text need (seed 004 "Decision": the public SDK
 * owns ranking). No model and no randomness: the need and each tool's words (name, curated
 * keywords, title, description, argument names, enum values and descriptions) are reduced to
 * light stems; every need term scores the best field it matches in, weighted by the field and
 * by how rare the term is across the catalogue (inverse document frequency), and a term that
 * only starts a tool's word counts half. The result is explained by the matched terms and the
 * field each matched in, so a model (or a person) can see why a tool came up.
 */

/** The fields a term can match in, with their weights. */
export const PM_TOOL_RANKING_WEIGHTS = Object.freeze({ name: 6, keywords: 4, title: 3, description: 2, arguments: 1 });
export type PmToolMatchField = keyof typeof PM_TOOL_RANKING_WEIGHTS;
const FIELDS = Object.keys(PM_TOOL_RANKING_WEIGHTS) as PmToolMatchField[];

/** Weight of a match on a word's start only (need "block" in "blocker"). */
const PREFIX_FACTOR = 0.5;
/** Shortest need term that may match a word's start. */
const MIN_PREFIX = 4;

/** Words that say nothing about which tool is meant. */
const STOPWORDS: ReadonlySet<string> = new Set([
  'a', 'an', 'the', 'to', 'of', 'for', 'and', 'or', 'in', 'on', 'at', 'by', 'with', 'from', 'into', 'as', 'is', 'are', 'be', 'it', 'its',
  'this', 'that', 'these', 'those', 'i', 'me', 'my', 'we', 'our', 'you', 'your', 'do', 'does', 'can', 'want', 'need', 'should', 'would',
  'please', 'some', 'any', 'one', 'pm', 'tool', 'tools', 'item', 'items', 'up', 'so', 'if', 'then', 'about', 'how',
]);

/**
 * A light stem: plural and verb endings off (`claimed`, `claiming`, `claims` → `claim`), a final
 * `e` off (`close`, `closing` → `clos`) and a final `y` as `i` (`dependency`, `dependencies` →
 * `dependenci`). Words of three letters or fewer are kept whole.
 */
export function stemPmToolTerm(word: string): string {
  if (word.length <= 3) return word;
  let w = word;
  for (const [suffix, replacement] of [['ies', 'i'], ['ing', ''], ['ed', ''], ['es', ''], ['s', '']] as const) {
    if (w.endsWith(suffix) && w.length - suffix.length + replacement.length >= 3 && !w.endsWith('ss')) {
      w = w.slice(0, w.length - suffix.length) + replacement;
      break;
    }
  }
  if (w.length > 3 && w.endsWith('e')) w = w.slice(0, -1);
  if (w.length > 3 && w.endsWith('y')) w = `${w.slice(0, -1)}i`;
  return w;
}

/** The words of a text: camelCase split, lowercased, letters and digits only. */
function words(text: string): string[] {
  return text.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** The distinct stems of a text's meaningful words, in order of first appearance. */
export function pmToolTerms(text: string): string[] {
  const out: string[] = [];
  for (const word of words(text)) {
    if (STOPWORDS.has(word)) continue;
    const stem = stemPmToolTerm(word);
    if (!out.includes(stem)) out.push(stem);
  }
  return out;
}

/** What a tool is ranked on: its descriptor and, optionally, curated keywords. */
export interface PmRankableTool {
  readonly descriptor: McpToolDescriptor;
  readonly keywords?: readonly string[];
}

/** One ranked tool: its score and, per matched need term, the field it matched in. */
export interface PmToolRank {
  readonly name: string;
  readonly score: number;
  readonly matched: Readonly<Record<string, PmToolMatchField>>;
}

function argumentText(schema: JsonObject | undefined): string {
  const properties = schema?.properties;
  if (!properties || typeof properties !== 'object') return '';
  const parts: string[] = [];
  for (const [key, value] of Object.entries(properties as Record<string, JsonObject>)) {
    parts.push(key);
    if (typeof value?.description === 'string') parts.push(value.description);
    const values = Array.isArray(value?.enum) ? value.enum : Array.isArray((value?.items as JsonObject | undefined)?.enum) ? ((value.items as JsonObject).enum as unknown[]) : [];
    for (const v of values) if (typeof v === 'string') parts.push(v);
  }
  return parts.join(' ');
}

function fieldTexts(tool: PmRankableTool): Record<PmToolMatchField, string> {
  const d = tool.descriptor;
  return {
    name: d.name.replace(/^pm_/, '').replace(/[_.-]+/g, ' '),
    keywords: (tool.keywords ?? []).join(' '),
    title: d.title ?? '',
    description: d.description ?? '',
    arguments: argumentText(d.inputSchema as JsonObject),
  };
}

interface IndexedTool {
  readonly name: string;
  readonly order: number;
  readonly fields: Readonly<Record<PmToolMatchField, ReadonlySet<string>>>;
}

/** The ranking index of one catalogue, built once. */
export class PmToolRankingIndex {
  private readonly tools: readonly IndexedTool[];
  private readonly documentFrequency = new Map<string, number>();

  constructor(tools: readonly PmRankableTool[]) {
    this.tools = tools.map((tool, order) => {
      const texts = fieldTexts(tool);
      const fields = Object.fromEntries(FIELDS.map((f) => [f, new Set(pmToolTerms(texts[f]))])) as Record<PmToolMatchField, Set<string>>;
      const all = new Set(FIELDS.flatMap((f) => [...fields[f]]));
      for (const term of all) this.documentFrequency.set(term, (this.documentFrequency.get(term) ?? 0) + 1);
      return { name: tool.descriptor.name, order, fields };
    });
  }

  /** How rare a term is across the catalogue: ln(1 + tools / tools having it); unseen terms count as rarest. */
  private idf(term: string): number {
    return Math.log(1 + this.tools.length / Math.max(1, this.documentFrequency.get(term) ?? 0));
  }

  /**
   * The tools matching `need`, best first: score descending, then catalogue order. Tools
   * matching no term are left out. Scores are rounded to two decimals.
   */
  rank(need: string): PmToolRank[] {
    const terms = pmToolTerms(need);
    const ranked: (PmToolRank & { order: number })[] = [];
    for (const tool of this.tools) {
      let score = 0;
      const matched: Record<string, PmToolMatchField> = {};
      for (const term of terms) {
        let best = 0;
        let field: PmToolMatchField | undefined;
        for (const f of FIELDS) {
          const set = tool.fields[f];
          const weight = set.has(term) ? PM_TOOL_RANKING_WEIGHTS[f] : term.length >= MIN_PREFIX && [...set].some((w) => w.startsWith(term)) ? PM_TOOL_RANKING_WEIGHTS[f] * PREFIX_FACTOR : 0;
          if (weight > best) {
            best = weight;
            field = f;
          }
        }
        if (field) {
          score += best * this.idf(term);
          matched[term] = field;
        }
      }
      if (score > 0) ranked.push({ name: tool.name, score: Math.round(score * 100) / 100, matched, order: tool.order });
    }
    ranked.sort((a, b) => b.score - a.score || a.order - b.order);
    return ranked.map(({ order: _order, ...rank }) => rank);
  }
}
