/** Listed items as status columns (pm_list), with paging through the tool's cursors. */
import { h } from './dom.js';
import { count, formatNumber, statusLabel } from './format.js';
import { asListResult, resultValue, type ListResult, type Summary } from './pm-data.js';
import type { ViewContext } from './shell.js';
import { budgetSentence, itemCard, truncationNote } from './widgets.js';

/** Most cards a board draws, however many pages are loaded. */
export const MAX_CARDS = 300;
/** pm's workflow order of statuses; others follow in the order they appear. */
const STATUS_ORDER = ['draft', 'open', 'in_progress', 'blocked', 'review', 'closed', 'canceled'];

interface Loaded {
  items: Summary[];
  nextCursor: string | undefined;
  loading: boolean;
  error: string | undefined;
}

/** Pages loaded into a board, per result object (a new tool result starts over). */
const loaded = new WeakMap<ListResult, Loaded>();

function columns(items: readonly Summary[]): [string, Summary[]][] {
  const by = new Map<string, Summary[]>();
  for (const item of items) by.set(item.status, [...(by.get(item.status) ?? []), item]);
  const rank = (s: string) => {
    const i = STATUS_ORDER.indexOf(s);
    return i < 0 ? STATUS_ORDER.length : i;
  };
  return [...by.entries()].sort((a, b) => rank(a[0]) - rank(b[0]));
}

function filters(args: Readonly<Record<string, unknown>>): string {
  const parts: string[] = [];
  for (const key of ['status', 'type', 'tag', 'assignee', 'parent', 'text']) {
    const value = args[key];
    if (value === undefined || (Array.isArray(value) && !value.length)) continue;
    parts.push(`${key}: ${Array.isArray(value) ? value.join(', ') : String(value)}`);
  }
  if (args.all === true) parts.push('including closed and canceled');
  return parts.join(' · ');
}

async function loadMore(data: ListResult, state: Loaded, ctx: ViewContext): Promise<void> {
  if (!state.nextCursor || state.loading) return;
  state.loading = true;
  state.error = undefined;
  ctx.refresh('board:more');
  try {
    const result = await ctx.call('pm_list', { ...ctx.args, cursor: state.nextCursor });
    const page = asListResult(resultValue(result.structuredContent));
    if (result.isError || !page) throw new Error(result.content?.map((c) => c.text ?? '').join(' ') || 'pm_list returned no items');
    const first = page.items[0]?.id;
    state.items.push(...page.items);
    state.nextCursor = page.nextCursor;
    state.loading = false;
    ctx.refresh(first ? `board:${first}` : 'board:more');
    ctx.announce(`Loaded ${count(page.items.length, 'more item')}`);
  } catch (error) {
    state.loading = false;
    state.error = error instanceof Error ? error.message : String(error);
    ctx.refresh('board:more');
  }
}

export function renderBoard(data: ListResult, ctx: ViewContext): Node {
  let state = loaded.get(data);
  if (!state) loaded.set(data, (state = { items: [...data.items], nextCursor: data.nextCursor, loading: false, error: undefined }));
  const shown = state.items.slice(0, MAX_CARDS);
  const more = data.total > shown.length;
  const filter = filters(ctx.args);
  const cols = columns(shown);
  const canLoad = more && state.nextCursor !== undefined && shown.length < MAX_CARDS && ctx.canCall('pm_list');
  const current = state;
  const hint = shown.length >= MAX_CARDS
    ? `This board draws at most ${formatNumber(MAX_CARDS)} cards; narrow it with pm_list filters (status, type, tag, assignee, parent, text).`
    : canLoad
      ? 'Load the next page below, or narrow the list with pm_list filters.'
      : 'Ask for pm_list with the nextCursor of this result, or a larger limit (up to 100).';
  return h(
    'div',
    { class: 'pm-board-wrap' },
    h('h2', null, data.total ? count(data.total, 'item') : 'No items'),
    h('p', { class: 'pm-muted' }, [filter, hidesClosed(ctx.args) ? 'closed and canceled items hidden (all: true shows them)' : ''].filter(Boolean).join(' · ')),
    !data.total && h('p', null, args(ctx).all ? 'Nothing matches these filters.' : 'Nothing matches; closed and canceled items are hidden unless all is true.'),
    more && truncationNote(shown.length, data.total, 'item', [budgetSentence(data.omitted), hint].filter(Boolean).join(' ')),
    cols.length > 0 &&
      h(
        'div',
        { class: 'pm-board' },
        cols.map(([status, items]) =>
          h(
            'section',
            { class: 'pm-column', 'data-status': status, 'aria-labelledby': `col-${status}` },
            h('h3', { id: `col-${status}` }, h('span', { class: 'pm-dot', 'data-status': status, 'aria-hidden': 'true' }), ` ${statusLabel(status)} `, h('span', { class: 'pm-muted' }, `(${items.length})`)),
            h('ul', { class: 'pm-cards' }, items.map((item) => h('li', null, itemCard(ctx, item, 'board')))),
          ),
        ),
      ),
    canLoad &&
      h(
        'div',
        { class: 'pm-actions' },
        h('button', { type: 'button', class: 'pm-button', 'data-focus': 'board:more', 'aria-disabled': current.loading ? 'true' : undefined, onclick: () => void loadMore(data, current, ctx) }, current.loading ? 'Loading…' : `Load more (${formatNumber(data.total - shown.length)} left)`),
      ),
    current.error && h('p', { class: 'pm-notice pm-error', role: 'alert' }, `pm_list could not load more: ${current.error}`),
  );
}

function args(ctx: ViewContext): Readonly<Record<string, unknown>> {
  return ctx.args;
}

/** pm_list hides closed and canceled items unless all is true or a status filter names them. */
function hidesClosed(a: Readonly<Record<string, unknown>>): boolean {
  return a.all !== true && !(Array.isArray(a.status) && a.status.length > 0);
}
