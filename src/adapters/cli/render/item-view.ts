import type { Item } from '../../../domain/tracker/item.js';
import type { LeaseState } from '../../../domain/tracker/readiness.js';
import type { MutationResult } from '../../../domain/tracker/receipt.js';
import { columns, indent, lines, oneLine, shortTime } from './text.js';

/**
 * The full, readable picture of one item (`pm get`). `parentTitle` is the parent's title when
 * the caller could read it (docs/CLI.md "pm get": the parent is shown with its title).
 */
export function renderItem(item: Item, lease?: LeaseState, parentTitle?: string): string {
  const facts: string[][] = [
    ['type', item.type], ['status', item.status], ['priority', `P${item.priority}`], ['revision', String(item.revision)],
  ];
  if (item.tags.length) facts.push(['tags', oneLine(item.tags.join(', '))]);
  if (item.parent) facts.push(['parent', parentTitle === undefined ? item.parent : `${item.parent}  ${oneLine(parentTitle)}`]);
  if (item.assignee) facts.push(['assignee', oneLine(item.assignee)]);
  if (item.claim) facts.push(['claim', lease?.state === 'expired' ? `${oneLine(item.claim.holder)}, expired ${shortTime(item.claim.expiresAt)} (pm next offers it to others)` : `${oneLine(item.claim.holder)} until ${shortTime(item.claim.expiresAt)}`]);
  if (item.blockedBy.length) facts.push(['blocked by', item.blockedBy.join(', ')]);
  if (item.related.length) facts.push(['related', item.related.join(', ')]);
  for (const [name, value] of Object.entries(item.custom)) facts.push([name, oneLine(String(value))]);
  facts.push(['created', shortTime(item.created)], ['updated', shortTime(item.updated)]);
  const closure = item.closure ? [``, `${item.status === 'canceled' ? 'Canceled' : 'Closed'} ${shortTime(item.closure.at)} by ${item.closure.by}:`, indent(item.closure.evidence)] : [];
  return lines(
    `${item.id}  ${oneLine(item.title)}`,
    columns(facts.map(([k, v]) => [`  ${k}:`, v!])),
    item.body.length > 0 && ['', indent(item.body)],
    item.acceptance.length > 0 && ['', 'Acceptance criteria:', ...item.acceptance.map((c, i) => `  ${i + 1}. [${c.done ? 'x' : ' '}] ${oneLine(c.text)}`)],
    item.files.length > 0 && ['', 'Files:', ...item.files.map((f) => `  ${oneLine(f)}`)],
    item.tests.length > 0 && ['', 'Tests:', ...item.tests.map((t) => `  ${oneLine(t)}`)],
    closure,
    item.comments.length > 0 && ['', `Comments (${item.comments.length}):`, ...item.comments.flatMap((c) => [`  ${c.author}, ${shortTime(c.at)}:`, indent(c.text, '    ')])],
  );
}

/**
 * One line saying what a mutation did, e.g. `Updated pm-a1b2c3 "Fix login" (revision 3)`,
 * with an honest note when nothing was written (a replayed idempotency key, or no change).
 */
export function renderMutation(verb: string, result: MutationResult<Item | null>, detail = ''): string {
  const { receipt, item } = result;
  const subject = item ? `${item.id} "${oneLine(item.title)}"` : receipt.itemId;
  const at = item ? ` (revision ${item.revision})` : '';
  if (result.replayed) {
    return lines(`${verb} ${subject}${at}: replayed; idempotency key '${receipt.idempotencyKey ?? ''}' matched receipt ${receipt.receiptId}, nothing written`);
  }
  if (!result.changed) return lines(`${subject} already in that state; nothing written${at}`);
  return lines(`${verb} ${subject}${detail}${at}`, `  receipt ${receipt.receiptId}`);
}
