/** Small pieces the views share: status and priority badges, item cards and links, truncation notes. */
import { h } from './dom.js';
import { count, formatNumber, statusLabel } from './format.js';
import { asItemResult, type BudgetOmission, type Summary } from './pm-data.js';
import type { ViewContext } from './shell.js';
import { renderItemDetail } from './item-detail.js';

export function statusBadge(status: string): HTMLElement {
  return h('span', { class: 'pm-badge', 'data-status': status }, h('span', { class: 'pm-dot', 'aria-hidden': 'true' }), statusLabel(status));
}

export function priorityBadge(priority: number): HTMLElement {
  return h('span', { class: 'pm-badge', title: `priority ${priority} (0 is highest)` }, `P${priority}`);
}

/**
 * A note that says how much of a larger result is shown, and how to see more; `total`
 * undefined when the source only said that it stopped early.
 */
export function truncationNote(shown: number, total: number | undefined, noun: string, howToSeeMore: string): HTMLElement {
  const head = total === undefined ? `Showing the first ${count(shown, noun)}; there are more.` : `Showing ${formatNumber(shown)} of ${count(total, noun)}.`;
  return h('p', { class: 'pm-truncated', role: 'note' }, h('strong', null, head), ' ', howToSeeMore);
}

/**
 * The sentence saying that pm itself cut a result to its token budget (pm's bounded reads keep
 * every list-like result model-sized), or '' when it did not.
 */
export function budgetSentence(omitted: BudgetOmission | undefined): string {
  return omitted?.reason === 'token_budget' ? `pm fitted this result into its ${formatNumber(omitted.tokenBudget)}-token result budget.` : '';
}

/** Opens an item's detail page (pm_get) when the view may call it; `focus` names the control for Back. */
export function openItem(ctx: ViewContext, id: string, focus: string): void {
  ctx.drill({ title: id, tool: 'pm_get', args: { id }, parse: asItemResult, render: renderItemDetail, from: focus });
}

/** An item id as a control that opens it, or as plain text when the host lets the view call nothing. */
export function itemLink(ctx: ViewContext, id: string, label: string = id, scope = 'link'): HTMLElement {
  const focus = `${scope}:${id}`;
  if (!ctx.canCall('pm_get')) return h('span', { class: 'pm-id' }, label);
  return h('button', { type: 'button', class: 'pm-link', 'data-focus': focus, onclick: () => openItem(ctx, id, focus) }, label);
}

/** A summary as a card that opens the item. */
export function itemCard(ctx: ViewContext, item: Summary, scope: string): HTMLElement {
  const focus = `${scope}:${item.id}`;
  const holder = item.claimHolder ?? item.assignee;
  const blocked = item.blockedBy?.length ?? 0;
  const meta = [item.type, `P${item.priority}`, holder ? `@${holder}${item.claimExpired ? ' (claim expired)' : ''}` : '', blocked ? `waits for ${blocked}` : '', ...(item.tags ?? []).map((t) => `#${t}`)].filter(Boolean).join(' · ');
  const body = [h('span', { class: 'pm-id pm-muted' }, item.id), h('span', { class: 'pm-card-title' }, item.title), h('span', { class: 'pm-card-meta' }, meta)];
  if (!ctx.canCall('pm_get')) return h('div', { class: 'pm-card', 'data-status': item.status }, body);
  return h('button', { type: 'button', class: 'pm-card', 'data-status': item.status, 'data-focus': focus, onclick: () => openItem(ctx, item.id, focus) }, body);
}
