/** What one item waits for, what waits for it, its parent, children and related items (a pm_graph of depth 1). */
import { h } from './dom.js';
import type { GraphNode, GraphResult } from './pm-data.js';
import type { ViewContext } from './shell.js';
import { budgetSentence, itemLink, statusBadge, truncationNote } from './widgets.js';

function group(ctx: ViewContext, title: string, ids: readonly string[], nodes: ReadonlyMap<string, GraphNode>): HTMLElement {
  return h(
    'section',
    { class: 'pm-section' },
    h('h3', null, `${title} (${ids.length})`),
    ids.length
      ? h('ul', { class: 'pm-rows' }, ids.map((id) => {
          const node = nodes.get(id);
          return h('li', null, itemLink(ctx, id, id, title), ' ', node?.missing ? h('span', { class: 'pm-badge' }, 'missing') : node?.status ? statusBadge(node.status) : '', ' ', node?.title ?? '');
        }))
      : h('p', { class: 'pm-muted' }, 'None.'),
  );
}

export function renderDependencies(graph: GraphResult, id: string, ctx: ViewContext): Node {
  const nodes = new Map(graph.nodes.map((n) => [n.id, n]));
  const edges = graph.edges;
  const waitsFor = edges.filter((e) => e.kind === 'blocks' && e.to === id).map((e) => e.from);
  const blocks = edges.filter((e) => e.kind === 'blocks' && e.from === id).map((e) => e.to);
  const parent = edges.filter((e) => e.kind === 'parent' && e.to === id).map((e) => e.from);
  const children = edges.filter((e) => e.kind === 'parent' && e.from === id).map((e) => e.to);
  const related = edges.filter((e) => e.kind === 'related' && (e.from === id || e.to === id)).map((e) => (e.from === id ? e.to : e.from));
  const unfinished = waitsFor.filter((b) => !['closed', 'canceled'].includes(nodes.get(b)?.status ?? '')).length;
  return h(
    'div',
    null,
    h('h2', null, `Dependencies of `, h('span', { class: 'pm-id' }, id)),
    h('p', null, waitsFor.length ? `${unfinished} of ${waitsFor.length} blockers unfinished.` : 'Nothing blocks it.'),
    graph.truncated &&
      truncationNote(graph.nodes.length, graph.total ?? (graph.omitted ? graph.nodes.length + graph.omitted.rows : undefined), 'linked item', graph.omitted?.reason === 'token_budget' ? `${budgetSentence(graph.omitted)} The item's own links are all on its detail page.` : 'pm_graph stopped at its maxNodes bound; ask for pm_graph with a larger maxNodes (up to 200).'),
    group(ctx, 'Waits for', waitsFor, nodes),
    group(ctx, 'Blocks', blocks, nodes),
    parent.length ? group(ctx, 'Parent', parent, nodes) : false,
    group(ctx, 'Children', children, nodes),
    group(ctx, 'Related', related, nodes),
  );
}
