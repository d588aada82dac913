import type { ItemSummary } from '../tracker/index-entry.js';
import type { Item } from '../tracker/item.js';
import type { TrackerContext } from '../tracker/tracker.js';

/**
 * Short readable renderings of tracker data for the `content` text of tool results and for
 * prompts: the text is for a model or a person to read, the data itself is in
 * `structuredContent`. One line per item, no tables, no JSON.
 */

/** `pm-a1b2 [open P2 Task] Title (claimed by bob; blocked by pm-x)` */
export function summaryLine(s: Pick<ItemSummary, 'id' | 'title' | 'status' | 'priority' | 'type'> & Partial<Pick<ItemSummary, 'claimHolder' | 'claimExpired' | 'assignee' | 'blockedBy' | 'activeBlockers'>>): string {
  // Only the blockers still holding the item back (the tracker's one definition, blockers.ts).
  const blockers = s.activeBlockers ?? s.blockedBy;
  const marks = [
    s.claimHolder ? (s.claimExpired ? `claim by ${s.claimHolder} expired` : `claimed by ${s.claimHolder}`) : s.assignee ? `@${s.assignee}` : '',
    blockers?.length ? `blocked by ${blockers.join(', ')}` : '',
  ].filter(Boolean);
  return `${s.id} [${s.status} P${s.priority} ${s.type}] ${s.title}${marks.length ? ` (${marks.join('; ')})` : ''}`;
}

/** Summary lines, indented, or a placeholder. */
export function summaryLines(items: readonly Parameters<typeof summaryLine>[0][], none = '  (none)'): string[] {
  return items.length ? items.map((s) => `  ${summaryLine(s)}`) : [none];
}

/** `open 3, in_progress 1` from a count map. */
export function counts(map: Readonly<Record<string, number>>): string {
  const entries = Object.entries(map);
  return entries.length ? entries.map(([k, v]) => `${k} ${v}`).join(', ') : 'none';
}

/** The project snapshot (pm_context, the orientation prompt). */
export function renderContext(context: Omit<TrackerContext, 'root' | 'expiredClaims'> & { readonly expiredClaims?: TrackerContext['expiredClaims']; readonly claimsTotal?: number; readonly unreadableTotal?: number }): string {
  const moreClaims = context.claimsTotal !== undefined ? ` (${context.claimsTotal - context.claims.length} more: pm_list {"status":["in_progress"]})` : '';
  const moreUnreadable = context.unreadableTotal !== undefined ? ` and ${context.unreadableTotal - context.unreadable.length} more` : '';
  const lines = [
    `Project (id prefix ${context.idPrefix}): ${context.total} items — ${counts(context.byStatus)}.`,
    context.next ? `Next: ${summaryLine(context.next)}` : 'Next: nothing is ready.',
    `  why: ${context.nextRationale}`,
    `Active claims: ${context.claims.length ? context.claims.map((c) => `${c.id} by ${c.holder} until ${c.expiresAt}`).join('; ') : 'none'}${moreClaims}.`,
    ...(context.expiredClaims?.length ? [`Expired claims (offered by pm_next): ${context.expiredClaims.map((c) => `${c.id} by ${c.holder}, expired ${c.expiresAt}`).join('; ')}.`] : []),
    'Recently updated:',
    ...summaryLines(context.recent),
  ];
  if (context.unreadable.length) lines.push(`Unreadable item files: ${context.unreadable.map((u) => u.id).join(', ')}${moreUnreadable} (run pm_validate).`);
  return lines.join('\n');
}

/** A whole item: header, state, links, acceptance, description, latest comments. */
export function renderItem(item: Item, commentsShown: number, claimExpired = false): string {
  const lines = [
    `${item.id}: ${item.title}`,
    `${item.type}, ${item.status}, P${item.priority}, revision ${item.revision}, updated ${item.updated}`,
  ];
  if (item.tags.length) lines.push(`tags: ${item.tags.join(', ')}`);
  if (item.parent) lines.push(`parent: ${item.parent}`);
  if (item.claim) lines.push(claimExpired ? `claim by ${item.claim.holder} expired at ${item.claim.expiresAt} (pm_next offers it to others)` : `claimed by ${item.claim.holder} until ${item.claim.expiresAt}`);
  else if (item.assignee) lines.push(`assignee: ${item.assignee}`);
  if (item.blockedBy.length) lines.push(`blocked by: ${item.blockedBy.join(', ')}`);
  if (item.related.length) lines.push(`related: ${item.related.join(', ')}`);
  if (item.closure) lines.push(`${item.status} by ${item.closure.by} at ${item.closure.at}: ${item.closure.evidence}`);
  if (item.acceptance.length) lines.push('acceptance:', ...item.acceptance.map((c, i) => `  ${i + 1}. [${c.done ? 'x' : ' '}] ${c.text}`));
  if (item.files.length) lines.push(`files: ${item.files.join(', ')}`);
  if (item.tests.length) lines.push(`tests: ${item.tests.join(', ')}`);
  const custom = Object.entries(item.custom);
  if (custom.length) lines.push(`custom: ${custom.map(([k, v]) => `${k}=${String(v)}`).join(', ')}`);
  if (item.body) lines.push('', item.body);
  const comments = commentsShown > 0 ? item.comments.slice(-commentsShown) : [];
  if (comments.length) {
    const hidden = item.comments.length - comments.length;
    lines.push('', `comments${hidden ? ` (latest ${comments.length} of ${item.comments.length})` : ''}:`, ...comments.map((c) => `  ${c.at} ${c.author}: ${c.text}`));
  } else if (item.comments.length) {
    lines.push('', `${item.comments.length} comments not shown`);
  }
  return lines.join('\n');
}

/** `3 of 40 items; more with cursor …` */
export function pageFooter(shown: number, total: number, nextCursor: string | undefined, noun = 'items'): string {
  const count = shown < total ? `${shown} of ${total} ${noun}` : `${total} ${noun}`;
  return nextCursor ? `${count}; next page: cursor ${nextCursor}` : count;
}
