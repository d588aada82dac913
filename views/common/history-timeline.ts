/** An item's receipts as a timeline, newest first (pm_history). */
import { h } from './dom.js';
import { count, formatDate } from './format.js';
import { asHistoryResult, type HistoryEntry, type HistoryResult } from './pm-data.js';
import type { ViewContext } from './shell.js';
import { itemLink, truncationNote } from './widgets.js';

/** pm_history returns at most this many entries. */
const MAX_ENTRIES = 100;
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

function entryNode(entry: HistoryEntry): HTMLElement {
  return h(
    'li',
    { class: 'pm-entry', 'data-op': entry.op },
    h('span', { class: 'pm-entry-dot', 'aria-hidden': 'true' }),
    h('h3', null, `#${entry.seq} · ${entry.op}`),
    h('p', { class: 'pm-muted' }, h('time', { datetime: entry.at }, formatDate(entry.at)), ` · by ${entry.actor} · `, h('span', { class: 'pm-nowrap' }, revision(entry))),
    h('p', { class: 'pm-receipt' }, 'receipt ', h('code', null, entry.receiptId), entry.idempotencyKey ? [' · idempotency key ', h('code', null, entry.idempotencyKey)] : ''),
    patch(entry),
  );
}

export function renderHistory(data: HistoryResult, ctx: ViewContext): Node {
  const newestFirst = [...data.entries].sort((a, b) => b.seq - a.seq);
  const more = data.total > data.entries.length;
  const canLoad = more && data.entries.length < MAX_ENTRIES && ctx.canCall('pm_history');
  const withPatches = data.entries.some((e) => e.patch);
  const canPatch = !withPatches && data.entries.length > 0 && ctx.canCall('pm_history');
  return h(
    'div',
    { class: 'pm-history' },
    h('h2', null, 'History of ', itemLink(ctx, data.id, data.id, 'history')),
    h('p', { class: 'pm-muted' }, `${count(data.total, 'change')} in all, newest first.`),
    more && truncationNote(data.entries.length, data.total, 'change', data.entries.length < MAX_ENTRIES ? `Ask for pm_history with limit: ${MAX_ENTRIES} to see up to ${MAX_ENTRIES}.` : `pm_history returns the latest ${MAX_ENTRIES}; pm history ${data.id} in a terminal shows every change.`),
    (canLoad || canPatch) &&
      h(
        'div',
        { class: 'pm-actions' },
        canLoad && h('button', { type: 'button', class: 'pm-button', 'data-focus': `more:${data.id}`, onclick: () => ctx.drill({ title: `${data.id} latest ${MAX_ENTRIES}`, tool: 'pm_history', args: { id: data.id, limit: MAX_ENTRIES, patches: withPatches }, parse: asHistoryResult, render: renderHistory, from: `more:${data.id}` }) }, `Show the latest ${MAX_ENTRIES}`),
        canPatch && h('button', { type: 'button', class: 'pm-button', 'data-focus': `patches:${data.id}`, onclick: () => ctx.drill({ title: `${data.id} changes`, tool: 'pm_history', args: { id: data.id, limit: Math.min(MAX_ENTRIES, Math.max(data.entries.length, 20)), patches: true }, parse: asHistoryResult, render: renderHistory, from: `patches:${data.id}` }) }, 'Show what each change did'),
      ),
    newestFirst.length ? h('ol', { class: 'pm-timeline', reversed: true }, newestFirst.map(entryNode)) : h('p', { class: 'pm-muted' }, 'No changes recorded.'),
  );
}
