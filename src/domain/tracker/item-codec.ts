import { parseDocument, stringify } from 'yaml';
import { CorruptDataError } from '../errors/index.js';
import { BoundedCache } from '../util/bounded-cache.js';
import { ListPrefixCache } from '../util/list-prefix-cache.js';
import { readFastFrontMatter } from './front-matter-fast.js';
import { ITEM_KEY_ORDER, itemSchemas, type Item, type ItemFrontMatter } from './item.js';

const FENCE = '---';

/**
 * Key order of the nested objects, as the schema declares them (and as parsing yields them).
 * Serializing in this order, not in whatever order an object was built with, is what makes the
 * bytes a function of the item alone: a write rolled forward from its history patch (whose
 * values are canonical JSON, keys sorted) must reproduce the very file the patch describes.
 */
const NESTED_KEY_ORDER: Readonly<Partial<Record<keyof ItemFrontMatter, readonly string[]>>> = {
  claim: ['holder', 'claimedAt', 'expiresAt'],
  closure: ['at', 'by', 'evidence'],
  comments: ['id', 'author', 'at', 'text'],
  acceptance: ['text', 'done'],
};

function inKeyOrder(value: unknown, order: readonly string[]): unknown {
  if (Array.isArray(value)) return value.map((entry) => inKeyOrder(entry, order));
  if (!value || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of order) if (record[key] !== undefined) out[key] = record[key];
  for (const key of Object.keys(record).sort()) if (!(key in out) && record[key] !== undefined) out[key] = record[key];
  return out;
}

/**
 * Serializes an item to its file form: YAML front matter in a fixed key order (nested objects
 * too), empty optional collections omitted, then the Markdown body. The same item always yields
 * the same bytes, whatever order its objects' keys were built in.
 *
 * A block map's pairs and a block list's entries are written independently of each other, so
 * the front matter is the concatenation of its pairs' YAML, and a list of comments (or
 * acceptance criteria) the concatenation of its entries'. The YAML of each pair is kept (by
 * key and value, or by the frozen value object), that of each list entry by the entry object,
 * and that of a whole list by its entries ({@link ListPrefixCache}): a comment on an item with
 * 1,000 comments writes the new entry and the pairs whose values changed (`updated`,
 * `revision`) and copies the rest (docs/BENCHMARKS.md, writes).
 */
export function serializeItem(item: Item): string {
  let yaml = '';
  for (const key of ITEM_KEY_ORDER) {
    const value = item[key];
    if (value === undefined) continue;
    if (Array.isArray(value) && value.length === 0) continue;
    if (key === 'custom' && Object.keys(value as object).length === 0) continue;
    const nested = NESTED_KEY_ORDER[key];
    yaml += LISTS_OF_ENTRIES.has(key) && nested ? `${key}:\n${listYaml(key, value as readonly object[], nested)}` : pairYaml(key, value);
  }
  const body = item.body.trim();
  return `${FENCE}\n${yaml}${FENCE}\n${body ? `\n${body}\n` : ''}`;
}

/**
 * `item` with its keys in the order parsing yields them (the schema's, body last; claim and
 * closure in their schema order), so code that walks keys (diffDocuments) sees a remembered
 * written item exactly as it would see the parse of its file. List entries are kept as they are.
 */
export function inParseOrder(item: Item): Item {
  const out: Record<string, unknown> = {};
  for (const key of ITEM_KEY_ORDER) {
    const value = item[key];
    if (value === undefined) continue;
    out[key] = (key === 'claim' || key === 'closure') ? inKeyOrder(value, NESTED_KEY_ORDER[key]!) : value;
  }
  out.body = item.body;
  return out as unknown as Item;
}

const STRINGIFY_OPTIONS = { lineWidth: 0, indent: 2, aliasDuplicateObjects: false } as const;
/** The lists whose entries are written (and kept) one by one. */
const LISTS_OF_ENTRIES: ReadonlySet<keyof ItemFrontMatter> = new Set(['acceptance', 'comments']);
/**
 * The characters of YAML each of the caches below keeps at most, and the entries of all the whole
 * lists kept: a long-lived server's memory stays flat however large its items grow
 * (docs/TRACKER.md "Memory"). A list of up to half of them (an item's
 * 32,768 comments) is still extended by its next write instead of written whole.
 */
export const KEPT_YAML_CHARS = 4_194_304;
export const KEPT_LIST_ENTRIES = 65_536;
/**
 * The YAML of recently written list entries, by (frozen) entry object: items are immutable and
 * a mutation keeps the entries it does not change. A speed-up only: a forgotten or bypassed
 * entry is written again, to the same bytes.
 */
const entryYamls = new BoundedCache<object, string>('item list entries', 16_384, { max: KEPT_YAML_CHARS, of: (yaml) => yaml.length });
/**
 * The YAML of recently written whole lists (entry lines only), by their entries. Few, and bounded
 * by their entries: a value is as large as the item's comments, and only an item's latest list is
 * extended by its next write.
 */
const listYamls = new ListPrefixCache<string>('item lists', 128, KEPT_LIST_ENTRIES);
/** The YAML of recently written pairs with a plain value, by key, type and value (the key holds the value: a body is counted twice). */
const plainPairYamls = new BoundedCache<string, string>('item plain pairs', 8192, { max: KEPT_YAML_CHARS, of: (yaml) => 2 * yaml.length });
/** The YAML of recently written pairs with a frozen object value, by that object. */
const objectPairYamls = new BoundedCache<object, { readonly key: string; readonly yaml: string }>('item object pairs', 4096, { max: KEPT_YAML_CHARS, of: (pair) => pair.yaml.length });

/** One top-level pair that is not a list of entries, as its lines in the file. */
function pairYaml(key: keyof ItemFrontMatter, value: unknown): string {
  if (value === null || typeof value !== 'object') {
    const id = `${key}\u0000${typeof value}\u0000${String(value)}`;
    const kept = plainPairYamls.get(id);
    if (kept !== undefined) return kept;
    const yaml = stringify({ [key]: value }, STRINGIFY_OPTIONS);
    plainPairYamls.set(id, yaml);
    return yaml;
  }
  const kept = objectPairYamls.get(value);
  if (kept !== undefined && kept.key === key) return kept.yaml;
  const nested = NESTED_KEY_ORDER[key];
  const yaml = stringify({ [key]: key === 'custom' ? sortedRecord(value as Record<string, unknown>) : nested ? inKeyOrder(value, nested) : value }, STRINGIFY_OPTIONS);
  // Only a value frozen all the way down can be remembered by identity: it cannot change after this.
  if (deeplyFrozen(value)) objectPairYamls.set(value, { key, yaml });
  return yaml;
}

/** A top-level list's entries, as their lines in the file (the list's own `key:` line excluded). */
function listYaml(key: string, list: readonly object[], order: readonly string[]): string {
  return listYamls.fold(key, list, '', (yaml, entry) => yaml + entryYaml(key, entry as object, order));
}

/** One entry of a top-level list, as its lines in the file (the list's own `key:` line excluded). */
function entryYaml(key: string, entry: object, order: readonly string[]): string {
  const kept = entryYamls.get(entry);
  if (kept !== undefined) return kept;
  const whole = stringify({ [key]: [inKeyOrder(entry, order)] }, STRINGIFY_OPTIONS);
  const lines = whole.slice(whole.indexOf('\n') + 1);
  // Only a frozen entry can be remembered by identity: it cannot change after this.
  if (Object.isFrozen(entry)) entryYamls.set(entry, lines);
  return lines;
}

/**
 * Parses an item file; any deviation from the schema is a CorruptDataError naming the file. The
 * front matter goes through the fast reader of pm's own format when it fits that subset, else
 * through the YAML parser: both give the same result for it (front-matter-fast.ts).
 */
export function parseItem(text: string, source: string): Item {
  const normalized = text.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
  if (!normalized.startsWith(`${FENCE}\n`)) throw corrupt(source, 'missing the opening --- of the front matter');
  const end = normalized.indexOf(`\n${FENCE}\n`, FENCE.length);
  const endAtEof = end < 0 && normalized.endsWith(`\n${FENCE}`) ? normalized.length - FENCE.length - 1 : -1;
  const close = end >= 0 ? end : endAtEof;
  if (close < 0) throw corrupt(source, 'missing the closing --- of the front matter');
  const front = normalized.slice(FENCE.length + 1, close + 1);
  const raw = (UNUSUAL_CHARACTERS.test(front) ? undefined : readFastFrontMatter(front)) ?? parseYaml(front, source);
  const parsed = itemSchemas().frontMatter.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const key = issue.path[0];
    const at = typeof key === 'string' ? front.search(new RegExp(`^${key}:`, 'm')) : -1;
    throw corrupt(source, `${issue.path.join('.') || 'front matter'}: ${issue.message}`, at >= 0 ? positionIn(front, at) : undefined);
  }
  const body = normalized.slice(close + FENCE.length + 2).replace(/^\n/, '').replace(/\n$/, '');
  return { ...(parsed.data as ItemFrontMatter), body };
}

/**
 * Characters the fast reader leaves to the YAML parser: controls (other than newline), byte
 * order marks and non-characters, and lone surrogates, which YAML refuses or escapes.
 */
const UNUSUAL_CHARACTERS = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\ufeff\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * How deeply the front matter may nest (docs/TRACKER.md "Field limits"): an item is at most
 * three levels deep, and the YAML parser recurses once per level, so a file nested thousands of
 * levels deep would overflow the stack instead of being reported as a corrupt item.
 */
export const MAX_FRONT_MATTER_NESTING = 256;

/**
 * The offset of the first line whose nesting (indentation, `- ` entries opened on the line, and
 * open flow brackets) passes {@link MAX_FRONT_MATTER_NESTING}, or -1. An over-estimate for
 * multi-line scalars, which is harmless: pm's own files never come near the limit.
 */
function tooDeepAt(front: string): number {
  let flow = 0;
  let offset = 0;
  for (const line of front.split('\n')) {
    const indent = line.length - line.trimStart().length;
    if (/^[A-Za-z][A-Za-z0-9]*:/.test(line)) flow = 0; // a top-level key: a stray bracket in an earlier scalar is forgotten
    const entries = /^(?:- +)*/.exec(line.slice(indent))![0].replace(/ /g, '').length;
    let deepest = flow;
    for (const char of line) {
      if (char === '[' || char === '{') deepest = Math.max(deepest, ++flow);
      else if ((char === ']' || char === '}') && flow > 0) flow--;
    }
    if (indent + entries + deepest > MAX_FRONT_MATTER_NESTING) return offset;
    offset += line.length + 1;
  }
  return -1;
}

/** The general YAML parser (core schema, unique keys, no aliases), never recursing past {@link MAX_FRONT_MATTER_NESTING}. */
function parseYaml(front: string, source: string): unknown {
  const deep = tooDeepAt(front);
  if (deep >= 0) throw corrupt(source, `YAML error: nested more than ${MAX_FRONT_MATTER_NESTING} levels deep`, positionIn(front, deep));
  try {
    const doc = parseDocument(front, { uniqueKeys: true, schema: 'core', prettyErrors: false });
    const error = doc.errors[0];
    if (error) throw corrupt(source, `YAML error: ${error.message}`, positionIn(front, error.pos[0]));
    return doc.toJS({ maxAliasCount: 0 });
  } catch (error) {
    if (error instanceof CorruptDataError) throw error;
    throw corrupt(source, `YAML error: ${(error as Error).message}`);
  }
}

/**
 * Where an offset of the front matter is in the file, 1-based (the front matter starts on the
 * file's second line, after the opening ---), so an editor can jump to it.
 */
function positionIn(front: string, offset: number): { line: number; column: number } {
  const before = front.slice(0, Math.max(0, Math.min(offset, front.length)));
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length + 1, column: before.length - lineStart + 1 };
}

/** A parse failure naming the file, and `file:line:column` when the position is known. */
function corrupt(source: string, detail: string, at?: { line: number; column: number }): CorruptDataError {
  const where = at ? `${source}:${at.line}:${at.column}` : source;
  return new CorruptDataError(`${where}: ${detail}`, { file: source, detail, ...(at ? { line: at.line, column: at.column } : {}) });
}

function deeplyFrozen(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return true;
  return Object.isFrozen(value) && Object.values(value).every(deeplyFrozen);
}

function sortedRecord(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.keys(record).sort().map((key) => [key, record[key]]));
}
