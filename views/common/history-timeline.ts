/** An item's receipts as a timeline, newest first (pm_history). */
import { h } from './dom.js';
import { count, formatDate, formatNumber } from './format.js';
import { asHistoryResult, resultValue, type HistoryEntry, type HistoryResult } from './pm-data.js';
import type { ViewContext } from './shell.js';
import { budgetSentence, itemLink, truncationNote } from './widgets.js';

/** pm_history returns at most this many entries per call. */
const MAX_ENTRIES = 100;
/** Entries asked for per "load older" page. */
const PAGE = 50;
/** Most entries a timeline draws, however many pages are loaded. */
const MAX_DRAWN = 500;
/** Patch operations drawn per entry. */
const MAX_PATCH_OPS = 20;

function revision(entry: HistoryEntry): string {
  if (entry.revisionBefore === null) return `created at revision ${entry.revisionAfter ?? '?'}`;
  if (entry.revisionAfter === null) return `deleted at revision ${entry.revisionBefore}`;
  return `revision ${entry.revisionBefore} → ${entry.revisionAfter}`;
}

function patchValue(value: unknown): string {
  if (value === undefined) return '';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
}

function patch(entry: HistoryEntry): HTMLElement | false {
  const ops = entry.patch;
  if (!ops?.length) return false;
  const shown = ops.slice(0, MAX_PATCH_OPS);
  return h(
    'details',
    { class: 'pm-patch' },
    h('summary', null, `${count(ops.length, 'change')} as JSON Patch`),
    h('ul', null, shown.map((op) => h('li', null, h('code', null, `${op.op} ${op.path}`), op.value !== undefined ? [' → ', h('code', null, patchValue(op.value))] : ''))),
    ops.length > shown.length && truncationNote(shown.length, ops.length, 'operation', 'The text version lists every operation.'),
  );
}

/** Patch paths that every change touches, so they say nothing about what it did. */
const BOOKKEEPING = new Set(['updated', 'revision']);

/**
 * What one change did, field by field, from its JSON Patch (docs/TRACKER.md "History"): the
 * fields it set, with the value before when an older loaded line set it, and appended comments,
 * tags and the like counted. `before` holds each field's value after the previous lines and is
 * advanced past this one.
 */
export function changedFields(entry: HistoryEntry, before: Map<string, unknown>): string[] {
  const out: string[] = [];
  const added = new Map<string, number>();
  for (const op of entry.patch ?? []) {
    const [field = '', tail] = op.path.slice(1).split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
    if (BOOKKEEPING.has(field)) continue;
    if (tail === '-') {
      added.set(field, (added.get(field) ?? 0) + 1);
      before.set(field, [...((before.get(field) as unknown[] | undefined) ?? []), op.value]);
      continue;
    }
    if (op.op === 'remove') {
      out.push(`${field} cleared`);
      before.delete(field);
      continue;
    }
    const short = typeof op.value === 'string' && op.value.length > 40 || typeof op.value === 'object';
    const old = before.get(field);
    if (short) out.push(field);
    else if (old !== undefined && typeof old !== 'object') out.push(`${field}: ${patchValue(old)} → ${patchValue(op.value)}`);
    else out.push(`${field}: ${patchValue(op.value)}`);
    before.set(field, op.value);
  }
  for (const [field, n] of added) {
    const noun = field.endsWith('s') ? field.slice(0, -1) : field;
    out.push(n === 1 ? `${noun} added` : `${n} ${noun}s added`);
  }
  return out;
}

function changedLine(entry: HistoryEntry, changed: readonly string[] | undefined): HTMLElement | false {
  if (changed === undefined) return false;
  return h('p', { class: 'pm-changed' }, changed.length ? ['Changed: ', changed.join('; ')] : entry.op === 'create' ? 'Created' : 'No field changed');
}

function entryNode(entry: HistoryEntry, changed: readonly string[] | undefined): HTMLElement {
  return h(
    'li',
    { class: 'pm-entry', 'data-op': entry.op },
    h('span', { class: 'pm-entry-dot', 'aria-hidden': 'true' }),
    h('h3', null, `#${entry.seq} · ${entry.op}`),
    h(
      'p',
      { class: 'pm-muted pm-entry-meta' },
      h('time', { datetime: entry.at }, formatDate(entry.at)),
      ` · by ${entry.actor} · `,
      h('span', { class: 'pm-nowrap' }, revision(entry)),
      ' · ',
      h('span', { class: 'pm-receipt' }, 'receipt ', h('code', null, entry.receiptId)),
      entry.idempotencyKey ? [' · ', h('span', { class: 'pm-receipt pm-key' }, 'idempotency key ', h('code', null, entry.idempotencyKey))] : '',
    ),
    changedLine(entry, changed),
    patch(entry),
  );
}

interface Loaded {
  /**
   * The loaded lines in the order pm recorded them (oldest first): each page is a run of
   * consecutive lines before the previous one, so a line is known by its position, never by
   * its seq — after a merge two lines of different branches share one.
   */
  entries: HistoryEntry[];
  nextCursor: string | undefined;
  loading: boolean;
  error: string | undefined;
}

/** Older pages loaded into a timeline, per result object (a new tool result starts over). */
const loaded = new WeakMap<HistoryResult, Loaded>();

async function loadOlder(data: HistoryResult, state: Loaded, ctx: ViewContext): Promise<void> {
  if (!state.nextCursor || state.loading) return;
  state.loading = true;
  state.error = undefined;
  ctx.refresh(`older:${data.id}`);
  try {
    const withPatches = data.entries.some((e) => e.patch);
    const result = await ctx.call('pm_history', { id: data.id, limit: PAGE, patches: withPatches, cursor: state.nextCursor });
    const page = asHistoryResult(resultValue(result.structuredContent));
    if (result.isError || !page) throw new Error(result.content?.map((c) => c.text ?? '').join(' ') || 'pm_history returned no entries');
    state.entries.unshift(...page.entries);
    state.nextCursor = page.nextCursor;
    state.loading = false;
    ctx.refresh(`older:${data.id}`);
    ctx.announce(`Loaded ${count(page.entries.length, 'older change')}`);
  } catch (error) {
    state.loading = false;
    state.error = error instanceof Error ? error.message : String(error);
    ctx.refresh(`older:${data.id}`);
  }
}

export function renderHistory(data: HistoryResult, ctx: ViewContext): Node {
  let state = loaded.get(data);
  if (!state) loaded.set(data, (state = { entries: [...data.entries], nextCursor: data.nextCursor, loading: false, error: undefined }));
  const current = state;
  const before = new Map<string, unknown>();
  const changes = state.entries.map((e) => (e.patch ? changedFields(e, before) : undefined));
  const recorded = state.entries.map((entry, i) => ({ entry, changed: changes[i] }));
  const newestFirst = recorded.reverse().slice(0, MAX_DRAWN);
  const more = data.total > newestFirst.length;
  const canLoad = more && state.nextCursor !== undefined && newestFirst.length < MAX_DRAWN && ctx.canCall('pm_history');
  const withPatches = data.entries.some((e) => e.patch);
  const canPatch = !withPatches && data.entries.length > 0 && ctx.canCall('pm_history');
  const how =
    newestFirst.length >= MAX_DRAWN
      ? `This timeline draws at most ${MAX_DRAWN} changes; pm history ${data.id} in a terminal shows every change.`
      : canLoad
        ? 'Load older changes below.'
        : state.nextCursor
          ? 'Ask for pm_history with this result’s nextCursor as cursor to see older changes.'
          : `Ask for pm_history with limit: ${MAX_ENTRIES} to see up to ${MAX_ENTRIES}.`;
  return h(
    'div',
    { class: 'pm-history' },
    h('h2', null, 'History of ', itemLink(ctx, data.id, data.id, 'history')),
    h('p', { class: 'pm-muted' }, `${count(data.total, 'change')} in all, newest first.`),
    more && truncationNote(newestFirst.length, data.total, 'change', [budgetSentence(data.omitted), how].filter(Boolean).join(' ')),
    canPatch &&
      h(
        'div',
        { class: 'pm-actions' },
        h('button', { type: 'button', class: 'pm-button', 'data-focus': `patches:${data.id}`, onclick: () => ctx.drill({ title: `${data.id} changes`, tool: 'pm_history', args: { id: data.id, limit: Math.min(MAX_ENTRIES, Math.max(data.entries.length, 20)), patches: true }, parse: asHistoryResult, render: renderHistory, from: `patches:${data.id}` }) }, 'Show what each change did'),
      ),
    newestFirst.length ? h('ol', { class: 'pm-timeline', reversed: true }, newestFirst.map((e) => entryNode(e.entry, e.changed))) : h('p', { class: 'pm-muted' }, 'No changes recorded.'),
    canLoad &&
      h(
        'div',
        { class: 'pm-actions' },
        h('button', { type: 'button', class: 'pm-button', 'data-focus': `older:${data.id}`, 'aria-disabled': current.loading ? 'true' : undefined, onclick: () => void loadOlder(data, current, ctx) }, current.loading ? 'Loading…' : `Load older changes (${formatNumber(data.total - newestFirst.length)} left)`),
      ),
    current.error && h('p', { class: 'pm-notice pm-error', role: 'alert' }, `pm_history could not load older changes: ${current.error}`),
  );
}
