import type { ItemSummary } from '../../../domain/tracker/index-entry.js';
import type { ListResult } from '../../../domain/tracker/list-query.js';
import type { NextResult } from '../../../domain/tracker/next-query.js';
import type { SearchResult } from '../../../domain/tracker/search-query.js';
import { columns, indent, lines, oneLine, plural, shortTime } from './text.js';
import type { ClaimNextResult } from '../../../domain/tracker/claim-next.js';

/** Item summaries as an aligned table: id, priority, status, type, title and markers. */
export function summaryTable(items: readonly ItemSummary[], header = true): string[] {
  const rows = items.map((s) => [s.id, `P${s.priority}`, s.status, s.type, `${oneLine(s.title)}${markers(s)}`]);
  return columns(header ? [['ID', 'PRI', 'STATUS', 'TYPE', 'TITLE'], ...rows] : rows);
}

function markers(s: ItemSummary): string {
  const parts = [
    s.tags.length ? `[${oneLine(s.tags.join(', '))}]` : '',
    s.claimHolder ? (s.claimExpired ? `(claim by ${oneLine(s.claimHolder)} expired)` : `(claimed by ${oneLine(s.claimHolder)})`) : s.assignee ? `@${oneLine(s.assignee)}` : '',
    activeBlockers(s).length ? `(blocked by ${activeBlockers(s).join(', ')})` : '',
    s.parent ? `(in ${s.parent}${s.parentTitle !== undefined ? ` "${oneLine(s.parentTitle)}"` : ''})` : '',
  ].filter(Boolean);
  return parts.length ? `  ${parts.join(' ')}` : '';
}

/** The blockers still holding an item back (the tracker fills them in; all of them otherwise). */
function activeBlockers(s: ItemSummary): readonly string[] {
  return s.activeBlockers ?? s.blockedBy;
}

/**
 * The stderr line of a query that left out item files it could not parse (undefined when none
 * was): stdout stays the data, and a missing item is never silent.
 */
export function unreadableNote(unreadable: readonly { id: string }[] | undefined): string | undefined {
  if (!unreadable?.length) return undefined;
  const ids = unreadable.slice(0, 5).map((u) => u.id).join(', ') + (unreadable.length > 5 ? `, and ${unreadable.length - 5} more` : '');
  return `pm: ${plural(unreadable.length, 'item')} could not be read and ${unreadable.length === 1 ? 'is' : 'are'} left out: ${ids}; run 'pm validate' for the details\n`;
}

/** `pm list`: the table plus how to get the next page. */
export function renderList(result: ListResult): string {
  if (result.items.length === 0) return lines(result.total === 0 ? 'No items match. (Closed and canceled items are hidden; add --all to see them.)' : 'No more items.');
  const shown = result.items.length < result.total ? `${result.items.length} of ${result.total} items` : plural(result.total, 'item');
  return lines(
    summaryTable(result.items),
    '',
    // The short form: continue after the last row shown (--json keeps the exact cursor).
    result.nextCursor ? `${shown}; next page: --after ${result.items[result.items.length - 1]!.id}` : shown,
  );
}

/** `pm next`: the pick, why, and the runners-up. */
export function renderNext(result: NextResult): string {
  if (!result.item) return lines('Nothing is ready to start.', indent(result.rationale));
  return lines(
    `Next: ${result.item.id}  P${result.item.priority}  ${oneLine(result.item.title)}`,
    indent(`why: ${result.rationale}`),
    result.alternatives.length > 0 && ['', 'Also ready:', ...summaryTable(result.alternatives, false).map((l) => `  ${l}`)],
    '',
    `Take it with: pm next --claim (or pm claim ${result.item.id})`,
  );
}

/** `pm next --claim`: the item claimed, its lease and why, or nothing ready with the reason. */
export function renderClaimNext(result: ClaimNextResult): string {
  const { item, receipt } = result;
  if (!item?.claim) return lines('Nothing is ready to claim.', indent(result.rationale));
  const takeover = receipt?.takeover ? ` (took over from ${receipt.takeover.from}, whose lease expired ${shortTime(receipt.takeover.expiredAt)})` : '';
  return lines(
    `${result.replayed ? 'Replayed: you hold' : 'Claimed'} ${item.id}  P${item.priority}  ${oneLine(item.title)}`,
    indent(`for ${oneLine(item.claim.holder)} until ${shortTime(item.claim.expiresAt)}${takeover}`),
    indent(`why: ${result.rationale}`),
    receipt && indent(`receipt ${receipt.receiptId}`),
    '',
    `Renew the lease with: pm claim ${item.id} --renew; when done: pm close ${item.id} --evidence "..."`,
  );
}

/** `pm search`: ranked hits with where they matched and a snippet. */
export function renderSearch(result: SearchResult): string {
  if (result.results.length === 0) return lines('No matches.');
  const head = result.mode === 'any' ? 'No item contains every word; showing partial matches.' : undefined;
  const hits = result.results.flatMap((hit) => [
    `${hit.id}  P${hit.priority}  ${hit.status.padEnd(11)}  ${oneLine(hit.title)}  (score ${hit.score}; in ${hit.matchedIn.join(', ')})`,
    ...(hit.snippet ? [indent(hit.snippet, '    ')] : []),
  ]);
  return lines(head, hits, '', `${result.results.length} of ${plural(result.total, 'match', 'matches')}`);
}
