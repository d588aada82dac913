import { parseDocument, stringify } from 'yaml';
import { CorruptDataError } from '../errors/index.js';
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
 */
export function serializeItem(item: Item): string {
  const front: Record<string, unknown> = {};
  for (const key of ITEM_KEY_ORDER) {
    const value = item[key];
    if (value === undefined) continue;
    if (Array.isArray(value) && value.length === 0) continue;
    if (key === 'custom' && Object.keys(value as object).length === 0) continue;
    const nested = NESTED_KEY_ORDER[key];
    front[key] = key === 'custom' ? sortedRecord(value as Record<string, unknown>) : nested ? inKeyOrder(value, nested) : value;
  }
  const yaml = stringify(front, { lineWidth: 0, indent: 2, aliasDuplicateObjects: false });
  const body = item.body.trim();
  return `${FENCE}\n${yaml}${FENCE}\n${body ? `\n${body}\n` : ''}`;
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
    throw corrupt(source, `${issue.path.join('.') || 'front matter'}: ${issue.message}`);
  }
  const body = normalized.slice(close + FENCE.length + 2).replace(/^\n/, '').replace(/\n$/, '');
  return { ...(parsed.data as ItemFrontMatter), body };
}

/**
 * Characters the fast reader leaves to the YAML parser: controls (other than newline), byte
 * order marks and non-characters, and lone surrogates, which YAML refuses or escapes.
 */
const UNUSUAL_CHARACTERS = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\ufeff\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The general YAML parser (core schema, unique keys, no aliases). */
function parseYaml(front: string, source: string): unknown {
  const doc = parseDocument(front, { uniqueKeys: true, schema: 'core', prettyErrors: false });
  if (doc.errors.length > 0) throw corrupt(source, `YAML error: ${doc.errors[0]!.message}`);
  try {
    return doc.toJS({ maxAliasCount: 0 });
  } catch (error) {
    throw corrupt(source, `YAML error: ${(error as Error).message}`);
  }
}

function corrupt(source: string, detail: string): CorruptDataError {
  return new CorruptDataError(`${source}: ${detail}`, { file: source, detail });
}

function sortedRecord(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.keys(record).sort().map((key) => [key, record[key]]));
}
