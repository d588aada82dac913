/** The project dashboard (pm_context). */
import { h } from '../common/dom.js';
import { count, formatDate, formatNumber } from '../common/format.js';
import { renderBoard } from '../common/board-render.js';
import { asListResult, type ContextResult } from '../common/pm-data.js';
import type { ViewContext } from '../common/shell.js';
import { itemCard, itemLink, statusBadge, truncationNote } from '../common/widgets.js';

/** Rows drawn per list (claims, recent items, unreadable files). */
export const MAX_ROWS = 20;

function countsTable(caption: string, counts: Readonly<Record<string, number>>, total: number, label: (k: string) => Node | string): HTMLElement {
  const rows = Object.entries(counts).sort((a, b) => b[1] - a[1]);
  return h(
    'table',
    { class: 'pm-table pm-counts' },
    h('caption', null, caption),
    h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'Name'), h('th', { scope: 'col', class: 'pm-num' }, 'Items'), h('th', { scope: 'col' }, h('span', { class: 'pm-sr' }, 'Share')))),
    h(
      'tbody',
      null,
      rows.length ? rows.map(([key, n]) => h('tr', null, h('th', { scope: 'row' }, label(key)), h('td', { class: 'pm-num' }, formatNumber(n)), h('td', { class: 'pm-bar-cell' }, h('span', { class: 'pm-bar', style: `width:${total ? Math.max(2, Math.round((n / total) * 100)) : 0}%`, 'aria-hidden': 'true' }), h('span', { class: 'pm-sr' }, `${total ? Math.round((n / total) * 100) : 0}%`)))) : h('tr', null, h('td', { colspan: 3, class: 'pm-muted' }, 'None.')),
    ),
  );
}

function rowsNote(shown: number, total: number, noun: string, how: string): HTMLElement | false {
  return total > shown && truncationNote(shown, total, noun, how);
}

export function renderContext(data: ContextResult, ctx: ViewContext): Node {
  const claims = data.claims.slice(0, MAX_ROWS);
  const expired = (data.expiredClaims ?? []).slice(0, MAX_ROWS);
  const recent = data.recent.slice(0, MAX_ROWS);
  const unreadable = data.unreadable.slice(0, MAX_ROWS);
  const open = Object.entries(data.byStatus).filter(([s]) => s !== 'closed' && s !== 'canceled').reduce((n, [, c]) => n + c, 0);
  return h(
    'div',
    { class: 'pm-dashboard' },
    h('h2', null, `${count(data.total, 'item')} · ${formatNumber(open)} unfinished`),
    h('p', { class: 'pm-muted' }, 'Item ids start with ', h('code', null, `${data.idPrefix}-`)),
    unreadable.length > 0 &&
      h('section', { class: 'pm-notice pm-error', role: 'alert' }, h('h3', null, `${count(data.unreadableTotal ?? data.unreadable.length, 'file')} could not be read`), h('ul', null, unreadable.map((u) => h('li', null, h('code', null, u.id), `: ${u.message}`))), rowsNote(unreadable.length, data.unreadableTotal ?? data.unreadable.length, 'file', 'pm_validate lists them all.')),
    h(
      'section',
      { class: 'pm-section pm-next' },
      h('h3', null, 'Next up'),
      data.next ? [h('div', { class: 'pm-next-card' }, itemCard(ctx, data.next, 'next')), h('p', null, h('span', { class: 'pm-muted' }, 'Why: '), data.nextRationale)] : h('p', null, `Nothing is ready. ${data.nextRationale}`),
    ),
    h('div', { class: 'pm-grid' }, countsTable('By status', data.byStatus, data.total, (s) => h('span', { class: 'pm-status-name' }, statusBadge(s))), countsTable('By type', data.byType, data.total, (t) => t)),
    ctx.canCall('pm_list') && h('div', { class: 'pm-actions' }, h('button', { type: 'button', class: 'pm-button', 'data-focus': 'open-board', onclick: () => ctx.drill({ title: 'Board', tool: 'pm_list', args: { limit: 50 }, parse: asListResult, render: renderBoard, from: 'open-board' }) }, 'Open the board of unfinished items')),
    h(
      'section',
      { class: 'pm-section' },
      h('h3', null, `Active claims (${formatNumber(data.claimsTotal ?? data.claims.length)})`),
      claims.length
        ? h('table', { class: 'pm-table' }, h('caption', { class: 'pm-sr' }, 'Active claims'), h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'Item'), h('th', { scope: 'col' }, 'Holder'), h('th', { scope: 'col' }, 'Lease ends'))), h('tbody', null, claims.map((c) => h('tr', null, h('td', null, itemLink(ctx, c.id, c.id, 'claim'), ' ', c.title), h('td', null, c.holder), h('td', null, formatDate(c.expiresAt))))))
        : h('p', { class: 'pm-muted' }, 'Nobody holds a claim.'),
      rowsNote(claims.length, data.claimsTotal ?? data.claims.length, 'claim', 'pm_list with status: in_progress shows every claimed item.'),
    ),
    expired.length > 0 &&
      h(
        'section',
        { class: 'pm-section' },
        h('h3', null, `Expired claims (${formatNumber(expired.length)})`),
        h('p', { class: 'pm-muted' }, 'Their leases ran out: pm_next offers these items to others.'),
        h('table', { class: 'pm-table' }, h('caption', { class: 'pm-sr' }, 'Expired claims'), h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'Item'), h('th', { scope: 'col' }, 'Holder'), h('th', { scope: 'col' }, 'Expired'))), h('tbody', null, expired.map((c) => h('tr', null, h('td', null, itemLink(ctx, c.id, c.id, 'expired'), ' ', c.title), h('td', null, c.holder), h('td', null, formatDate(c.expiresAt)))))),
      ),
    h(
      'section',
      { class: 'pm-section' },
      h('h3', null, 'Recently updated'),
      recent.length ? h('ul', { class: 'pm-cards pm-recent' }, recent.map((item) => h('li', null, itemCard(ctx, item, 'recent'), h('span', { class: 'pm-muted pm-when' }, `updated ${formatDate(item.updated)}`)))) : h('p', { class: 'pm-muted' }, 'No items yet.'),
      rowsNote(recent.length, data.recent.length, 'item', 'pm_list with sort: updated lists them all.'),
    ),
  );
}

