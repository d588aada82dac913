import { z } from 'zod';
import { NotFoundError, ValidationError } from '../errors/index.js';
import type { JsonObject } from '../mcp/wire-types.js';
import type { DependencyKind } from '../tracker/inputs.js';
import type { Tracker } from '../tracker/tracker.js';
import {
  enumSchema, GUARD_PROPERTIES, guardShape, idSchema, integerSchema, MUTATION_PROPERTIES, OUTPUT, outputObject, zId, zInt,
} from './json-schemas.js';
import { buildItemGraph, buildProjectGraph, openBlockerCount, type ItemGraph } from './item-graph.js';
import { summaryLine } from './render.js';
import { budgetLine, budgetOmission, OMITTED_SCHEMA, rowsWithinBudget, type PmMcpBudgetOmission } from './result-bounds.js';
import { defineTrackerTool, mutationData, mutationOptions, mutationText, type PmTrackerToolDeps, requestTracker } from './tool-kit.js';

/**
 * `pm_deps` (show, add, remove dependency links) and `pm_graph` (bounded hierarchy and
 * dependency graph of one item or of the project).
 */

const MAX_BLOCKS_SHOWN = 100;
const REF = outputObject({ id: OUTPUT.str, title: OUTPUT.str, status: OUTPUT.str });
const REFS = { type: 'array', items: REF };
const VIEW_SCHEMA = outputObject(
  { id: OUTPUT.str, title: OUTPUT.str, status: OUTPUT.str, blockedBy: REFS, blocks: REFS, blocksTotal: OUTPUT.int, related: REFS, openBlockers: OUTPUT.int },
);

interface Ref {
  readonly id: string;
  readonly title: string;
  /** 'missing' when the link dangles. */
  readonly status: string;
}

/** What one item waits for, what waits for it, what it relates to. */
export async function dependencyView(tracker: Tracker, id: string) {
  const item = await tracker.get(id);
  const ref = async (other: string): Promise<Ref> => {
    try {
      const found = await tracker.get(other);
      return { id: other, title: found.title, status: found.status };
    } catch (error) {
      if (error instanceof NotFoundError) return { id: other, title: '', status: 'missing' };
      throw error;
    }
  };
  const blockedBy = await Promise.all(item.blockedBy.map(ref));
  const related = await Promise.all(item.related.map(ref));
  const blocking = await tracker.list({ blockedBy: id, all: true, sort: 'priority', limit: MAX_BLOCKS_SHOWN });
  const blocks = blocking.items.map((s) => ({ id: s.id, title: s.title, status: s.status }));
  return { id: item.id, title: item.title, status: item.status, blockedBy, blocks, blocksTotal: blocking.total, related, openBlockers: openBlockerCount(blockedBy) };
}

function renderView(view: Awaited<ReturnType<typeof dependencyView>>): string {
  const refs = (list: readonly Ref[]) => (list.length ? list.map((r) => `${r.id} [${r.status}] ${r.title}`).join('; ') : 'none');
  return [
    `${view.id} "${view.title}" [${view.status}]`,
    `  blocked by: ${refs(view.blockedBy)}${view.blockedBy.length ? ` (${view.openBlockers} unfinished)` : ''}`,
    `  blocks: ${refs(view.blocks)}${view.blocksTotal > view.blocks.length ? ` (+${view.blocksTotal - view.blocks.length} more)` : ''}`,
    `  related: ${refs(view.related)}`,
  ].join('\n');
}

const KINDS: readonly DependencyKind[] = ['blockedBy', 'blocks', 'related'];

export function pmDepsTool(deps: PmTrackerToolDeps) {
  return defineTrackerTool({
    name: 'pm_deps',
    title: 'Dependencies',
    description: 'Shows, adds or removes dependency links of an item. show (default): blockers, items it blocks, related items. add/remove need kind and target: "blockedBy" (id waits for target), "blocks" (target waits for id; stored on target), "related". A link that closes a cycle is refused.',
    properties: {
      action: enumSchema(['show', 'add', 'remove'], 'Default show.'),
      id: idSchema(),
      kind: enumSchema(KINDS),
      target: idSchema(),
      ...GUARD_PROPERTIES,
    },
    required: ['id'],
    shape: { action: z.enum(['show', 'add', 'remove']).optional(), id: zId(), kind: z.enum(['blockedBy', 'blocks', 'related']).optional(), target: zId().optional(), ...guardShape() },
    output: {
      properties: { action: OUTPUT.str, view: VIEW_SCHEMA, ...MUTATION_PROPERTIES },
      required: ['action', 'view'],
    },
    effect: 'write',
    idempotent: true,
    async run({ action = 'show', id, kind, target, ...guards }, ctx) {
      if (action === 'show') {
        const view = await dependencyView(requestTracker(deps, ctx), id);
        return { data: { action, view }, text: renderView(view) };
      }
      if (!kind || !target) throw new ValidationError(`pm_deps ${action} needs kind (${KINDS.join(', ')}) and target`, { field: kind ? 'target' : 'kind' });
      const link = { kind, target };
      const options = mutationOptions(deps, ctx, guards);
      const result = action === 'add' ? await requestTracker(deps, ctx).addDependency(id, link, options) : await requestTracker(deps, ctx).removeDependency(id, link, options);
      const view = await dependencyView(requestTracker(deps, ctx), id);
      const what = kind === 'blockedBy' ? `${id} blocked by ${target}` : kind === 'blocks' ? `${id} blocks ${target}` : `${id} related to ${target}`;
      return {
        data: { action, view, ...mutationData(result) },
        text: `${mutationText(`${action === 'add' ? 'Linked' : 'Unlinked'} ${what}`, result)}\n${renderView(view)}`,
      };
    },
  });
}

const NODE = outputObject(
  { id: OUTPUT.str, title: OUTPUT.str, type: OUTPUT.str, status: OUTPUT.str, priority: OUTPUT.int, missing: OUTPUT.bool },
);
const EDGE = outputObject({ from: OUTPUT.str, to: OUTPUT.str, kind: enumSchema(['parent', 'blocks', 'related']) });

function renderGraph(graph: ItemGraph, head: string): string {
  const edge = (e: ItemGraph['edges'][number]) => (e.kind === 'parent' ? `${e.from} parent of ${e.to}` : e.kind === 'blocks' ? `${e.from} blocks ${e.to}` : `${e.from} related to ${e.to}`);
  return [
    `${head}: ${graph.nodes.length} items, ${graph.edges.length} links${graph.truncated ? ' (cut at the maxNodes bound)' : ''}`,
    ...graph.nodes.map((n) => `  ${n.missing ? `${n.id} [missing]` : summaryLine(n)}`),
    ...(graph.edges.length ? ['links:', ...graph.edges.map((e) => `  ${edge(e)}`)] : []),
  ].join('\n');
}

/**
 * The graph, or its first nodes (the focus and what is nearest to it come first) with the links
 * among them when the whole graph would exceed the result token budget. A graph is not paged:
 * the cut is marked truncated and `omitted` says how to ask for a smaller one.
 */
function withinBudget<G extends ItemGraph>(graph: G, head: string, recovery: string): { data: JsonObject; text: string } {
  const view = (n: number, omitted?: PmMcpBudgetOmission) => {
    const nodes = graph.nodes.slice(0, n);
    const kept = new Set(nodes.map((node) => node.id));
    const cut = n < graph.nodes.length ? { ...graph, nodes, edges: graph.edges.filter((e) => kept.has(e.from) && kept.has(e.to)), truncated: true } : graph;
    const text = renderGraph(cut, head);
    return { data: { ...(cut as unknown as JsonObject), ...(omitted ? { omitted } : {}) }, text: omitted ? `${text}\n${budgetLine(omitted)}` : text };
  };
  const fit = rowsWithinBudget(graph.nodes.length, (n) => view(n, n < graph.nodes.length ? budgetOmission(graph.nodes.length - n, recovery) : undefined));
  return fit >= graph.nodes.length ? view(fit) : view(Math.max(1, fit), budgetOmission(graph.nodes.length - Math.max(1, fit), recovery));
}

export function pmGraphTool(deps: PmTrackerToolDeps) {
  return defineTrackerTool({
    name: 'pm_graph',
    title: 'Item graph',
    description: 'Hierarchy and dependency graph. With id: its ancestors, descendants, transitive blockers and blocked items up to depth hops, and related items. Without id: the highest-priority items of the project with parent and blocker links. Bounded by maxNodes.',
    properties: {
      id: idSchema(),
      depth: integerSchema(1, 5, 'Hops from id (default 2).'),
      maxNodes: integerSchema(1, 200, 'Default 50.'),
      all: { type: 'boolean', description: 'Project graph: include closed and canceled items.' },
    },
    shape: { id: zId().optional(), depth: zInt(1, 5).optional(), maxNodes: zInt(1, 200).optional(), all: z.boolean().optional() },
    output: {
      properties: { focus: OUTPUT.nullable(OUTPUT.str), nodes: { type: 'array', items: NODE }, edges: { type: 'array', items: EDGE }, truncated: OUTPUT.bool, total: OUTPUT.int, omitted: OMITTED_SCHEMA },
      required: ['focus', 'nodes', 'edges', 'truncated'],
    },
    effect: 'read',
    idempotent: true,
    async run(args, ctx) {
      const maxNodes = args.maxNodes ?? 50;
      if (args.id) {
        const depth = args.depth ?? 2;
        const graph = await buildItemGraph(requestTracker(deps, ctx), args.id, { depth, maxNodes });
        return withinBudget(graph, `Graph of ${args.id} (depth ${depth})`, 'lower depth or maxNodes');
      }
      const graph = await buildProjectGraph(requestTracker(deps, ctx), { maxNodes, all: args.all ?? false });
      return withinBudget(graph, `Project graph (${graph.total} ${args.all ? '' : 'unfinished '}items in all)`, 'lower maxNodes, or graph one item by id');
    },
  });
}
