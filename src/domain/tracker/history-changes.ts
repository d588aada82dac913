import type { HistoryEntry } from './history.js';
import { applyPatch, type JsonPatchOp } from './json-patch.js';

/**
 * Old and new values of each recorded change (docs/CLI.md "pm history"). History lines hold
 * JSON patches of the new values only; the old ones come from replaying the lines in order from
 * an empty item. Values are shown, not stored: each is cut to a bound and says so, so a
 * 60,000-character body does not flood the terminal.
 */

/** One field's change on one history line; `before`/`after` absent when the field was absent. */
export interface FieldChange {
  readonly field: string;
  readonly before?: string;
  readonly after?: string;
  /** The values added, when the line appended to a list (a comment, a tag) rather than replacing it. */
  readonly added?: readonly string[];
}

/** How many characters of a value are shown before it is cut. */
export const CHANGE_VALUE_LIMIT = 80;

/** Fields every change touches: naming them says nothing. */
const BOOKKEEPING = new Set(['updated', 'revision']);

/**
 * Per entry (same order), the field changes with bounded old and new values. A line whose patch
 * does not apply to the replayed state (a hand-edited or merged history) is shown with its new
 * values only, and the replay goes on from what it says.
 */
export function describeChanges(entries: readonly HistoryEntry[], limit = CHANGE_VALUE_LIMIT): FieldChange[][] {
  let state: Record<string, unknown> = {};
  return entries.map((entry) => {
    if (entry.op === 'create') {
      state = safeApply({}, entry.patch) ?? {};
      return [];
    }
    const before = state;
    const after = safeApply(before, entry.patch);
    state = after ?? state;
    return fieldsOf(entry.patch).map((field) => change(field, before[field], after ? after[field] : valueIn(entry.patch, field), entry.patch, limit));
  });
}

function fieldsOf(patch: readonly JsonPatchOp[]): string[] {
  return [...new Set(patch.map((op) => decode(op.path.split('/')[1] ?? '')))].filter((key) => key && !BOOKKEEPING.has(key));
}

function change(field: string, before: unknown, after: unknown, patch: readonly JsonPatchOp[], limit: number): FieldChange {
  const appended = patch.filter((op) => op.op === 'add' && op.path === `/${encode(field)}/-`).map((op) => bounded(textOf((op as { value: unknown }).value), limit));
  if (appended.length && patch.every((op) => !op.path.startsWith(`/${encode(field)}`) || op.path.endsWith('/-'))) return { field, added: appended };
  return { field, ...(before !== undefined ? { before: bounded(before, limit) } : {}), ...(after !== undefined ? { after: bounded(after, limit) } : {}) };
}

/** A value as compact JSON, cut after `limit` characters with how much was left out. */
export function bounded(value: unknown, limit = CHANGE_VALUE_LIMIT): string {
  const text = JSON.stringify(value) ?? 'null';
  return text.length <= limit ? text : `${text.slice(0, limit)}… (${text.length - limit} more characters)`;
}

/** An appended comment or criterion is shown by its text, not its whole record. */
function textOf(value: unknown): unknown {
  return typeof value === 'object' && value !== null && typeof (value as { text?: unknown }).text === 'string' ? (value as { text: string }).text : value;
}

function safeApply(doc: Record<string, unknown>, patch: readonly JsonPatchOp[]): Record<string, unknown> | undefined {
  try {
    return applyPatch(doc, patch);
  } catch {
    return undefined;
  }
}

function valueIn(patch: readonly JsonPatchOp[], field: string): unknown {
  const op = patch.find((o) => o.path === `/${encode(field)}` && o.op !== 'remove');
  return op && 'value' in op ? op.value : undefined;
}

function encode(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

function decode(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}
