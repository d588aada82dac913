/** One item in full (pm_get): the item view's page, and the detail page every other view drills into. */
import { h, srOnly, type Child } from './dom.js';
import { count, formatDate } from './format.js';
import { renderDependencies } from './dependency-list.js';
import { renderHistory } from './history-timeline.js';
import { renderMarkdown } from './markdown.js';
import { asGraphResult, asHistoryResult, asItemResult, resultValue, type Item, type ItemResult } from './pm-data.js';
import type { ViewContext } from './shell.js';
import { itemLink, priorityBadge, statusBadge, truncationNote } from './widgets.js';

/** Longest description drawn; the rest stays in the item file and the text version. */
export const MAX_BODY_CHARS = 20_000;
/** pm_get returns at most this many comments. */
const MAX_COMMENTS = 50;

function section(title: string, ...content: Child[]): HTMLElement {
  return h('section', { class: 'pm-section' }, h('h3', null, title), ...content);
}

function links(ctx: ViewContext, label: string, ids: readonly string[] | undefined): HTMLElement | false {
  if (!ids?.length) return false;
  return h('div', { class: 'pm-linkrow' }, h('span', { class: 'pm-muted' }, `${label}: `), ids.flatMap((id, i) => [i ? ', ' : '', itemLink(ctx, id, id, label)]));
}

/** Titles of items this page has looked up (a parent's title is not part of its child's pm_get result). */
const titles = new Map<string, string>();
const pending = new Set<string>();

/**
 * The parent as a link followed by its title, looked up once through pm_get when the view may
 * call it; the title is filled in where it stands, so the page is not redrawn and focus stays.
 */
function parentLink(ctx: ViewContext, id: string): HTMLElement {
  const known = titles.get(id);
  const title = h('span', { class: 'pm-link-title' }, known ? ` ${known}` : '');
  if (known === undefined && !pending.has(id) && ctx.canCall('pm_get')) {
    pending.add(id);
    ctx.call('pm_get', { id, comments: 0 }).then(
      (result) => {
        const found = asItemResult(resultValue(result.structuredContent));
        if (result.isError || !found) return;
        titles.set(id, found.item.title);
        for (const el of document.querySelectorAll<HTMLElement>(`[data-parent-title="${CSS.escape(id)}"]`)) el.textContent = ` ${found.item.title}`;
      },
      () => undefined,
    ).finally(() => pending.delete(id));
  }
  title.setAttribute('data-parent-title', id);
  return h('div', { class: 'pm-linkrow' }, h('span', { class: 'pm-muted' }, 'Parent: '), itemLink(ctx, id, id, 'Parent'), title);
}

function header(item: Item, claimExpired: boolean): HTMLElement {
  return h(
    'div',
    { class: 'pm-item-head' },
    h('h2', null, h('span', { class: 'pm-id' }, item.id), ' ', item.title),
    h(
      'div',
      { class: 'pm-badges' },
      statusBadge(item.status),
      h('span', { class: 'pm-badge' }, item.type),
      priorityBadge(item.priority),
      item.assignee && h('span', { class: 'pm-badge' }, `assignee ${item.assignee}`),
      item.claim && h('span', { class: 'pm-badge' }, claimExpired ? `claim by ${item.claim.holder} expired ${formatDate(item.claim.expiresAt)}` : `claimed by ${item.claim.holder} until ${formatDate(item.claim.expiresAt)}`),
      (item.tags ?? []).map((t) => h('span', { class: 'pm-badge' }, `#${t}`)),
    ),
  );
}

function description(item: Item): HTMLElement {
  const body = item.body ?? '';
  if (!body.trim()) return section('Description', h('p', { class: 'pm-muted' }, 'No description.'));
  const cut = body.length > MAX_BODY_CHARS;
  return section(
    'Description',
    renderMarkdown(cut ? body.slice(0, MAX_BODY_CHARS) : body),
    cut && truncationNote(MAX_BODY_CHARS, body.length, 'character', `The whole description is in the item file .agents/pm/items/${item.id}.md.`),
  );
}

function acceptance(item: Item): HTMLElement | false {
  const criteria = item.acceptance ?? [];
  if (!criteria.length) return false;
  const done = criteria.filter((c) => c.done).length;
  return section(
    'Acceptance criteria',
    h('p', { class: 'pm-muted' }, `${done} of ${count(criteria.length, 'criterion', 'criteria')} done`),
    h('ul', { class: 'pm-checks' }, criteria.map((c) => h('li', { 'data-done': c.done ? 'true' : 'false' }, h('span', { class: 'pm-check', 'aria-hidden': 'true' }, c.done ? '✓' : '○'), srOnly(c.done ? 'done: ' : 'not done: '), c.text))),
  );
}

function comments(data: ItemResult, ctx: ViewContext): HTMLElement {
  const list = data.item.comments ?? [];
  const more = data.commentsTotal > list.length;
  const focus = `comments:${data.item.id}`;
  return section(
    `Comments (${data.commentsTotal})`,
    more &&
      truncationNote(list.length, data.commentsTotal, 'comment', list.length < MAX_COMMENTS ? `These are the latest; ask for pm_get with comments: ${MAX_COMMENTS} to see up to ${MAX_COMMENTS}.` : `These are the latest ${MAX_COMMENTS}, all pm_get returns; pm history ${data.item.id} in a terminal shows every change.`),
    more &&
      list.length < MAX_COMMENTS &&
      ctx.canCall('pm_get') &&
      h('div', { class: 'pm-actions' }, h('button', { type: 'button', class: 'pm-button', 'data-focus': focus, onclick: () => ctx.drill({ title: `${data.item.id} comments`, tool: 'pm_get', args: { id: data.item.id, comments: MAX_COMMENTS }, parse: asItemResult, render: renderItemDetail, from: focus }) }, `Show up to ${MAX_COMMENTS} comments`)),
    list.length ? h('ol', { class: 'pm-comments' }, list.map((c) => h('li', null, h('p', { class: 'pm-muted' }, h('strong', null, c.author), ' · ', formatDate(c.at)), renderMarkdown(c.text)))) : h('p', { class: 'pm-muted' }, 'No comments.'),
  );
}

function facts(item: Item): HTMLElement {
  const rows: [string, Node | string][] = [];
  if (item.closure) rows.push(['Closed', `${formatDate(item.closure.at)} by ${item.closure.by}: ${item.closure.evidence}`]);
  if (item.files?.length) rows.push(['Files', h('ul', null, item.files.map((f) => h('li', null, h('code', null, f))))]);
  if (item.tests?.length) rows.push(['Tests', h('ul', null, item.tests.map((t) => h('li', null, h('code', null, t))))]);
  for (const [key, value] of Object.entries(item.custom ?? {})) rows.push([key, String(value)]);
  rows.push(['Created', formatDate(item.created)], ['Updated', formatDate(item.updated)], ['Revision', String(item.revision ?? '')]);
  return section('Details', h('dl', { class: 'pm-facts' }, rows.map(([k, v]) => [h('dt', null, k), h('dd', null, v)])));
}

/** The page of one pm_get result. */
export function renderItemDetail(data: ItemResult, ctx: ViewContext): Node {
  const item = data.item;
  const hasLinks = Boolean(item.parent || item.blockedBy?.length || item.related?.length);
  return h(
    'article',
    { class: 'pm-item', 'data-status': item.status },
    header(item, data.claimExpired === true),
    description(item),
    acceptance(item),
    section(
      'Links and dependencies',
      hasLinks ? [item.parent && parentLink(ctx, item.parent), links(ctx, 'Waits for', item.blockedBy), links(ctx, 'Related', item.related)] : h('p', { class: 'pm-muted' }, 'No parent, blockers or related items.'),
      h(
        'div',
        { class: 'pm-actions' },
        ctx.canCall('pm_graph') && h('button', { type: 'button', class: 'pm-button', 'data-focus': `deps:${item.id}`, onclick: () => ctx.drill({ title: `${item.id} dependencies`, tool: 'pm_graph', args: { id: item.id, depth: 1 }, parse: asGraphResult, render: (g, c) => renderDependencies(g, item.id, c), from: `deps:${item.id}` }) }, 'Show blockers, blocked items and children'),
        ctx.canCall('pm_history') && h('button', { type: 'button', class: 'pm-button', 'data-focus': `history:${item.id}`, onclick: () => ctx.drill({ title: `${item.id} history`, tool: 'pm_history', args: { id: item.id, patches: true }, parse: asHistoryResult, render: renderHistory, from: `history:${item.id}` }) }, 'Show history'),
      ),
    ),
    comments(data, ctx),
    facts(item),
  );
}
