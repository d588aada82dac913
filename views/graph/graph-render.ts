/** The dependency and hierarchy graph (pm_graph): a layered drawing, node detail, and the same graph as a list. */
import { h, svg } from '../common/dom.js';
import { count, statusLabel } from '../common/format.js';
import { asGraphResult, type GraphEdge, type GraphNode, type GraphResult } from '../common/pm-data.js';
import type { ViewContext } from '../common/shell.js';
import { budgetSentence, itemLink, openItem, statusBadge, truncationNote } from '../common/widgets.js';
import { BAND_HEADING, GAP_X, layoutGraph } from './graph-layout.js';
import { groupsOf, routeEdge } from './graph-routes.js';

/** Most nodes drawn (pm_graph's own maxNodes bound); past it, the rest is counted. */
export const MAX_NODES = 200;
/**
 * Below this width a drawing cannot keep links apart (one card per row puts every link in the
 * same margin), so the view shows the items and their links as a list instead.
 */
export const NARROW_WIDTH = 480;

interface GraphState {
  selected: string | undefined;
}

const states = new WeakMap<GraphResult, GraphState>();
let rerender: (() => void) | undefined;
let lastWidth = 0;

// Lay out again when the view's width changes (the host resized it, or the device turned).
if (typeof window !== 'undefined') {
  window.addEventListener('resize', () => {
    const width = availableWidth();
    if (Math.abs(width - lastWidth) > 8) rerender?.();
  });
}

function narrow(): boolean {
  lastWidth = availableWidth();
  return lastWidth < NARROW_WIDTH;
}

function availableWidth(): number {
  const root = document.getElementById('pm-app');
  return Math.max(120, (root?.clientWidth ?? window.innerWidth) - 2);
}

const KIND_LABEL: Record<GraphEdge['kind'], string> = { parent: 'parent of', blocks: 'blocks', related: 'related to' };

function relations(id: string, edges: readonly GraphEdge[]) {
  return {
    waitsFor: edges.filter((e) => e.kind === 'blocks' && e.to === id).map((e) => e.from),
    blocks: edges.filter((e) => e.kind === 'blocks' && e.from === id).map((e) => e.to),
    parent: edges.filter((e) => e.kind === 'parent' && e.to === id).map((e) => e.from),
    children: edges.filter((e) => e.kind === 'parent' && e.from === id).map((e) => e.to),
    related: edges.filter((e) => e.kind === 'related' && (e.from === id || e.to === id)).map((e) => (e.from === id ? e.to : e.from)),
  };
}

/** What a node's visible id and title leave out, for screen readers (its accessible name ends with it). */
function nodeDetails(node: GraphNode, edges: readonly GraphEdge[]): string {
  const r = relations(node.id, edges);
  const parts = [node.missing ? 'missing item' : `${statusLabel(node.status ?? 'unknown')}, priority ${node.priority ?? '?'}`];
  if (r.waitsFor.length) parts.push(`waits for ${r.waitsFor.length}`);
  if (r.blocks.length) parts.push(`blocks ${r.blocks.length}`);
  if (r.children.length) parts.push(`${count(r.children.length, 'child', 'children')}`);
  return `. ${parts.join(', ')}.`;
}

function legend(): HTMLElement {
  // Each swatch stays with its words when the legend wraps on a narrow screen.
  const entry = (kind: GraphEdge['kind'], label: string) => h('span', { class: 'pm-legend-item' }, h('span', { class: `pm-swatch pm-swatch-${kind}`, 'aria-hidden': 'true' }), label);
  return h('p', { class: 'pm-legend' }, entry('parent', 'parent → child'), entry('blocks', 'blocker → blocked'), entry('related', 'related'));
}

function drawing(nodes: readonly GraphNode[], edges: readonly GraphEdge[], focus: string | null, state: GraphState, ctx: ViewContext): HTMLElement {
  const width = availableWidth();
  lastWidth = width;
  const layout = layoutGraph(nodes, edges, width);
  const byId = new Map(layout.boxes.map((b) => [b.id, b]));
  const lines = svg('svg', { class: 'pm-edges', width: layout.width, height: layout.height, viewBox: `0 0 ${layout.width} ${layout.height}`, 'aria-hidden': 'true', focusable: 'false' });
  const defs = svg('defs');
  for (const kind of ['parent', 'blocks'] as const) {
    const marker = svg('marker', { id: `pm-arrow-${kind}`, viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' });
    marker.appendChild(svg('path', { d: 'M0,0 L10,5 L0,10 z', class: `pm-arrow-${kind}` }));
    defs.appendChild(marker);
  }
  lines.appendChild(defs);
  const groups = groupsOf(layout.boxes, edges);
  edges.forEach((e, lane) => {
    const from = byId.get(e.from);
    const to = byId.get(e.to);
    if (!from || !to || from === to) return;
    const d = routeEdge(from, to, groups.get(from.id) ?? [from, to], layout.boxes, GAP_X, lane);
    lines.appendChild(svg('path', { d, class: `pm-edge pm-edge-${e.kind}`, 'data-from': e.from, 'data-to': e.to, ...(e.kind !== 'related' ? { 'marker-end': `url(#pm-arrow-${e.kind})` } : {}) }));
  });
  const nodeById = new Map(nodes.map((n) => [n.id, n]));
  return h(
    'div',
    { class: 'pm-graph', role: 'group', 'aria-label': `Graph drawing: ${count(nodes.length, 'item')}, ${count(edges.length, 'link')}. Select an item to open it or expand the graph around it.`, style: `height:${layout.height}px;width:${layout.width}px` },
    lines,
    layout.unlinkedTop !== undefined && h('p', { class: 'pm-band', style: `top:${layout.unlinkedTop}px;height:${BAND_HEADING}px` }, 'Not linked'),
    layout.boxes.map((box) => {
      const node = nodeById.get(box.id)!;
      return h(
        'button',
        {
          type: 'button',
          class: 'pm-node',
          'data-status': node.missing ? 'missing' : node.status,
          'data-focus': `node:${node.id}`,
          'data-focus-node': node.id === focus ? 'true' : undefined,
          'aria-pressed': state.selected === node.id ? 'true' : 'false',
          title: node.title ?? node.id,
          style: `left:${box.x}px;top:${box.y}px;width:${box.w}px;height:${box.h}px`,
          onclick: () => {
            state.selected = state.selected === node.id ? undefined : node.id;
            ctx.refresh(state.selected ? 'selected' : `node:${node.id}`);
            ctx.announce(state.selected ? `Selected ${node.id}` : 'Selection cleared');
          },
        },
        h('span', { class: 'pm-node-id' }, h('span', { class: 'pm-dot', 'data-status': node.status ?? '', 'aria-hidden': 'true' }), node.id),
        ' ',
        h('span', { class: 'pm-node-title' }, node.missing ? 'missing' : (node.title ?? '')),
        h('span', { class: 'pm-sr' }, nodeDetails(node, edges)),
      );
    }),
  );
}

function selection(id: string, nodes: readonly GraphNode[], edges: readonly GraphEdge[], state: GraphState, ctx: ViewContext): HTMLElement {
  const node = nodes.find((n) => n.id === id)!;
  const r = relations(id, edges);
  const list = (label: string, ids: readonly string[]) => ids.length > 0 && h('p', null, h('span', { class: 'pm-muted' }, `${label}: `), ids.join(', '));
  return h(
    'section',
    { class: 'pm-selection', 'aria-labelledby': 'pm-selected' },
    h('h3', { id: 'pm-selected', tabindex: '-1', 'data-focus': 'selected' }, 'Selected: ', h('span', { class: 'pm-id' }, id), ' ', node.title ?? ''),
    h('div', { class: 'pm-badges' }, node.missing ? h('span', { class: 'pm-badge' }, 'missing') : [statusBadge(node.status ?? 'unknown'), node.type && h('span', { class: 'pm-badge' }, node.type), node.priority !== undefined && h('span', { class: 'pm-badge' }, `P${node.priority}`)]),
    list('Waits for', r.waitsFor),
    list('Blocks', r.blocks),
    list('Parent', r.parent),
    list('Children', r.children),
    list('Related', r.related),
    h(
      'div',
      { class: 'pm-actions' },
      !node.missing && ctx.canCall('pm_get') && h('button', { type: 'button', class: 'pm-button', 'data-focus': `open:${id}`, onclick: () => openItem(ctx, id, `open:${id}`) }, 'Open item'),
      !node.missing && ctx.canCall('pm_graph') && h('button', { type: 'button', class: 'pm-button', 'data-focus': `expand:${id}`, onclick: () => ctx.drill({ title: `Graph of ${id}`, tool: 'pm_graph', args: { id, depth: 2 }, parse: asGraphResult, render: renderGraph, from: `expand:${id}` }) }, 'Expand the graph around it'),
      h('button', { type: 'button', class: 'pm-button', onclick: () => { state.selected = undefined; ctx.refresh(`node:${id}`); } }, 'Clear selection'),
    ),
  );
}

function asList(nodes: readonly GraphNode[], edges: readonly GraphEdge[], ctx: ViewContext, open = false): HTMLElement {
  const rows = h('ul', { class: 'pm-rows' }, nodes.map((n) => {
      const out = edges.filter((e) => e.from === n.id);
      return h('li', null, itemLink(ctx, n.id, n.id, 'list'), ' ', n.missing ? h('span', { class: 'pm-badge' }, 'missing') : statusBadge(n.status ?? 'unknown'), ' ', n.title ?? '', out.length > 0 && h('span', { class: 'pm-muted pm-out' }, ` — ${out.map((e) => `${KIND_LABEL[e.kind]} ${e.to}`).join('; ')}`));
    }));
  if (open) return h('section', { class: 'pm-graph-list', 'aria-label': 'Items and links' }, rows);
  return h('details', { class: 'pm-graph-list' }, h('summary', null, `Items and links as a list (${nodes.length})`), rows);
}

export function renderGraph(data: GraphResult, ctx: ViewContext): Node {
  let state = states.get(data);
  if (!state) states.set(data, (state = { selected: undefined }));
  rerender = () => ctx.refresh();
  const nodes = data.nodes.slice(0, MAX_NODES);
  const shown = new Set(nodes.map((n) => n.id));
  const edges = data.edges.filter((e) => shown.has(e.from) && shown.has(e.to));
  const title = data.focus ? ['Graph of ', h('span', { class: 'pm-id' }, data.focus)] : 'Project graph';
  const cutByTool = data.truncated;
  const cutHere = data.nodes.length > nodes.length;
  const budget = data.omitted?.reason === 'token_budget' ? data.omitted : undefined;
  // pm's project total; for an item graph cut by the budget, what pm drew plus what it left out.
  const total = cutHere ? Math.max(data.nodes.length, data.total ?? 0) : (data.total ?? (budget ? data.nodes.length + budget.rows : undefined));
  const how = cutHere
    ? `This view draws at most ${MAX_NODES} items; ask pm_graph for one item's neighbourhood (id and depth) to see the rest.`
    : budget
      ? `${budgetSentence(budget)} Ask pm_graph for one item's neighbourhood (id and a small depth), or for fewer items (maxNodes).`
      : `pm_graph stopped at its maxNodes bound; ask for pm_graph with a larger maxNodes (up to ${MAX_NODES}), or with an id and depth to focus on one item.`;
  return h(
    'div',
    { class: 'pm-graph-wrap' },
    h('h2', null, title, ` · ${count(nodes.length, 'item')}, ${count(edges.length, 'link')}`),
    (cutByTool || cutHere) &&
      truncationNote(nodes.length, total !== undefined && total > nodes.length ? total : undefined, 'item', how),
    nodes.length === 0
      ? h('p', { class: 'pm-muted' }, 'No items to draw.')
      : narrow()
        ? asList(nodes, edges, ctx, true)
        : [legend(), state.selected && shown.has(state.selected) && selection(state.selected, nodes, edges, state, ctx), h('div', { class: 'pm-graph-scroll' }, drawing(nodes, edges, data.focus, state, ctx)), asList(nodes, edges, ctx)],
  );
}
