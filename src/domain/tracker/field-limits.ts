import { ValidationError } from '../errors/index.js';
import type { Item } from './item.js';

/**
 * The one definition of what text pm writes into an item (docs/TRACKER.md "Field limits"):
 * every entry point (CLI, SDK, MCP) reaches the item through the mutation engine, which checks
 * each field a mutation sets against these rules before anything is written, so nothing pm
 * writes fails its own read. Reading is lenient: a file that breaks a limit (a hand-edited
 * 600-character title) still reads, lists and can be repaired through pm; `pm validate` names
 * it with {@link itemLimitProblems}.
 */

/** Longest title, in UTF-16 code units (what `pm list` can show on a line). */
export const MAX_TITLE_LENGTH = 500;

/**
 * Refused in every text pm stores: C0 controls other than tab, line feed and carriage return,
 * DEL, C1 controls (ESC among them: a title or body must not drive the terminal that shows it),
 * and lone UTF-16 surrogates (not representable in the UTF-8 file).
 */
const CONTROL_IN_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** Refused in one-line fields (titles, tags, names, paths, criteria): the above plus tab, line feed and carriage return. */
const CONTROL_IN_LINE = /[\u0000-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** One field that breaks a limit: where, and what is wrong. */
export interface FieldLimitProblem {
  readonly field: string;
  readonly message: string;
}

/** How a control character is named in a message: `U+001B`. */
function codePointName(char: string): string {
  return `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** The problem of one text value, or undefined when it may be written. */
export function textProblem(field: string, value: string, kind: 'line' | 'text', maxLength?: number): FieldLimitProblem | undefined {
  // The item file's schema requires every text but the body and custom strings to be non-empty.
  if (value.length === 0 && field !== 'body' && !field.startsWith('custom.')) return { field, message: `${field} must not be empty` };
  if (maxLength !== undefined && value.length > maxLength) return { field, message: `${field} is ${value.length} characters long; at most ${maxLength} are allowed` };
  const bad = (kind === 'line' ? CONTROL_IN_LINE : CONTROL_IN_TEXT).exec(value);
  if (bad) {
    const allowed = kind === 'line' ? 'a one-line field takes no control characters (newline, tab, ESC, other C0/C1 controls)' : 'text takes newline and tab but no other control characters (ESC, other C0/C1 controls)';
    return { field, message: `${field} holds the control character ${codePointName(bad[0])} at position ${bad.index + 1}; ${allowed}` };
  }
  return undefined;
}

type Check = (field: string, value: string, kind: 'line' | 'text', maxLength?: number) => void;

/** Runs `check` over the text of `item` that `previous` does not already hold (every text when there is no previous). */
function visitNewText(item: Item, previous: Item | undefined, check: Check): void {
  const changed = (a: unknown, b: unknown) => previous === undefined || a !== b;
  if (changed(item.title, previous?.title)) check('title', item.title, 'line', MAX_TITLE_LENGTH);
  if (changed(item.body, previous?.body)) check('body', item.body, 'text');
  if (item.assignee !== undefined && changed(item.assignee, previous?.assignee)) check('assignee', item.assignee, 'line');
  if (item.claim && changed(item.claim.holder, previous?.claim?.holder)) check('claim.holder', item.claim.holder, 'line');
  if (item.closure && changed(item.closure.evidence, previous?.closure?.evidence)) check('evidence', item.closure.evidence, 'text');
  if (item.closure && changed(item.closure.by, previous?.closure?.by)) check('closure.by', item.closure.by, 'line');
  for (const list of ['tags', 'files', 'tests'] as const) {
    const before = new Set(previous?.[list] ?? []);
    for (const value of item[list]) if (!before.has(value)) check(list, value, 'line');
  }
  const criteria = new Set(previous?.acceptance.map((c) => c.text) ?? []);
  for (const criterion of item.acceptance) if (!criteria.has(criterion.text)) check('acceptance', criterion.text, 'line');
  for (const [name, value] of Object.entries(item.custom)) {
    if (typeof value === 'string' && changed(value, previous?.custom[name])) check(`custom.${name}`, value, 'line');
  }
  // Comments are appended: an entry still at its place (the same object) is not new, one past the
  // previous end is; the earlier ids are gathered only for an entry that is neither.
  let earlier: Set<string> | undefined;
  item.comments.forEach((comment, index) => {
    if (previous?.comments[index] === comment) return;
    if (previous && index < previous.comments.length) {
      earlier ??= new Set(previous.comments.map((c) => c.id));
      if (earlier.has(comment.id)) return;
    }
    check('comment', comment.text, 'text');
    check('comment.author', comment.author, 'line');
  });
}

/**
 * Strict write: refuses (ValidationError, CLI exit 2) the first text `next` sets that breaks a
 * limit. Only what the mutation sets is checked — text `previous` already holds is left alone —
 * so an item read leniently can still be repaired by changing just the offending field.
 */
export function assertWritableText(next: Item, previous: Item | undefined): void {
  visitNewText(next, previous, (field, value, kind, maxLength) => {
    const problem = textProblem(field, value, kind, maxLength);
    if (problem) throw new ValidationError(problem.message, { field: problem.field });
  });
}

/** Every limit an item (as read from its file) breaks: what `pm validate` reports. */
export function itemLimitProblems(item: Item): FieldLimitProblem[] {
  const problems: FieldLimitProblem[] = [];
  visitNewText(item, undefined, (field, value, kind, maxLength) => {
    const problem = textProblem(field, value, kind, maxLength);
    if (problem) problems.push(problem);
  });
  return problems;
}
