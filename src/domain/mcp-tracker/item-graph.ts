import { NotFoundError } from '../errors/index.js';
import { TERMINAL_STATUSES } from '../tracker/config.js';
import type { ItemSummary } from '../tracker/index-entry.js';
import type { Item } from '../tracker/item.js';
import type { Tracker } from '../tracker/tracker.js';

/**
 * The hierarchy and dependency graph behind `pm_graph` and `pm_deps show`, of one item or of
 * the whole project. Every traversal is bounded by depth and node count and reports when it
 * was cut. Reverse edges (children, items a blocker blocks) come from the tracker's index via
 * list filters, one index pass per expanded node.
 */

/** One item in a graph; `missing` marks a link to an item that no longer exists. */
export interface GraphNode {
  readonly id: string;
  readonly title: string;
  readonly type: string;
  readonly status: string;
  readonly priority: number;
  readonly missing?: true;
}

/** `parent`: from parent to child. `blocks`: from blocker to the item it blocks. `related`: from the item that lists the link. */
export interface GraphEdge {
  readonly from: string;
  readonly to: string;
  readonly kind: 'parent' | 'blocks' | 'related';
}

export interface ItemGraph {
  /** The item the graph is centred on; null for the project graph. */
  readonly focus: string | null;
  readonly nodes: GraphNode[];
  readonly edges: GraphEdge[];
  /** True when the node bound cut the graph short (depth is the caller's explicit bound). */
  readonly truncated: boolean;
}

interface Known {
  readonly node: GraphNode;
  readonly parent?: string;
  readonly blockedBy: readonly string[];
  readonly related: readonly string[];
}

type Direction = 'up' | 'down' | 'upstream' | 'downstream' | 'related';
const ALL_DIRECTIONS: readonly Direction[] = ['up', 'upstream', 'downstream', 'down', 'related'];

const nodeOf = (s: Pick<ItemSummary, 'id' | 'title' | 'type' | 'status' | 'priority'>): GraphNode => ({ id: s.id, title: s.title, type: s.type, status: s.status, priority: s.priority });
const knownFromItem = (item: Item): Known => ({ node: nodeOf(item), ...(item.parent ? { parent: item.parent } : {}), blockedBy: item.blockedBy, related: item.related });
const knownFromSummary = (s: ItemSummary): Known => ({ node: nodeOf(s), ...(s.parent ? { parent: s.parent } : {}), blockedBy: s.blockedBy, related: [] });

class GraphBuilder {
  readonly nodes = new Map<string, Known>();
  private readonly edges = new Map<string, GraphEdge>();
  truncated = false;

  constructor(
    private readonly tracker: Tracker,
    private readonly maxNodes: number,
  ) {}

  /** Adds a node; false when the node bound is reached (the graph is then truncated). */
  add(known: Known): boolean {
    if (this.nodes.has(known.node.id)) return true;
    if (this.nodes.size >= this.maxNodes) {
      this.truncated = true;
      return false;
    }
    this.nodes.set(known.node.id, known);
    return true;
  }

  link(from: string, to: string, kind: GraphEdge['kind']): void {
    if (this.nodes.has(from) && this.nodes.has(to)) this.edges.set(`${kind} ${from} ${to}`, { from, to, kind });
  }

  /** The item behind a link (a `missing` node when the link dangles). */
  async fetch(id: string): Promise<Known> {
    const hit = this.nodes.get(id);
    if (hit) return hit;
    try {
      return knownFromItem(await this.tracker.get(id));
    } catch (error) {
      if (error instanceof NotFoundError) return { node: { id, title: '', type: '', status: 'missing', priority: 4, missing: true }, blockedBy: [], related: [] };
      throw error;
    }
  }

  /** Items found by a list filter (children, items blocked by `id`), at most the room left plus one. */
  async listed(filter: { parent: string } | { blockedBy: string }): Promise<Known[]> {
    const room = Math.max(1, this.maxNodes - this.nodes.size + 1);
    const page = await this.tracker.list({ ...filter, all: true, sort: 'priority', limit: Math.min(room, 500) });
    if (page.total > page.items.length) this.truncated = true;
    return page.items.map(knownFromSummary);
  }

  graph(focus: string | null): ItemGraph {
    return { focus, nodes: [...this.nodes.values()].map((k) => k.node), edges: [...this.edges.values()], truncated: this.truncated };
  }
}

/**
 * The graph around one item: ancestors, descendants, transitive blockers and the items it
 * (transitively) blocks up to `depth` hops, plus its related items; nearest first (level by
 * level across all relations), at most `maxNodes` items.
 */
export async function buildItemGraph(tracker: Tracker, id: string, bounds: { depth: number; maxNodes: number }): Promise<ItemGraph> {
  const b = new GraphBuilder(tracker, bounds.maxNodes);
  const focus = knownFromItem(await tracker.get(id));
  b.add(focus);
  let frontier: { known: Known; dirs: readonly Direction[] }[] = [{ known: focus, dirs: ALL_DIRECTIONS }];
  for (let level = 0; level < bounds.depth && frontier.length; level++) {
    const next: typeof frontier = [];
    const reach = (known: Known, dir: Direction, from: string, to: string, kind: GraphEdge['kind']) => {
      const fresh = !b.nodes.has(known.node.id);
      if (!b.add(known)) return;
      b.link(from, to, kind);
      if (fresh && dir !== 'related') next.push({ known, dirs: [dir] });
    };
    for (const { known, dirs } of frontier) {
      const self = known.node.id;
      if (known.node.missing) continue;
      for (const dir of dirs) {
        if (dir === 'up' && known.parent) {
          const parent = await b.fetch(known.parent);
          reach(parent, dir, parent.node.id, self, 'parent');
        } else if (dir === 'upstream') {
          for (const blocker of known.blockedBy) {
            const other = await b.fetch(blocker);
            reach(other, dir, other.node.id, self, 'blocks');
          }
        } else if (dir === 'downstream') {
          for (const other of await b.listed({ blockedBy: self })) reach(other, dir, self, other.node.id, 'blocks');
        } else if (dir === 'down') {
          for (const child of await b.listed({ parent: self })) reach(child, dir, self, child.node.id, 'parent');
        } else if (dir === 'related' && level === 0) {
          for (const rel of known.related) {
            const other = await b.fetch(rel);
            reach(other, dir, self, other.node.id, 'related');
          }
        }
      }
    }
    frontier = next;
  }
  return b.graph(id);
}

/**
 * The project graph: the `maxNodes` highest-priority items (open ones unless `all`) with the
 * parent and blocker links among them. Related links are item-level detail (see buildItemGraph).
 */
export async function buildProjectGraph(tracker: Tracker, bounds: { maxNodes: number; all: boolean }): Promise<ItemGraph & { total: number }> {
  const b = new GraphBuilder(tracker, bounds.maxNodes);
  const page = await tracker.list({ all: bounds.all, sort: 'priority', limit: bounds.maxNodes });
  for (const s of page.items) b.add(knownFromSummary(s));
  for (const s of page.items) {
    if (s.parent) b.link(s.parent, s.id, 'parent');
    for (const blocker of s.blockedBy) b.link(blocker, s.id, 'blocks');
  }
  b.truncated = page.total > page.items.length;
  return { ...b.graph(null), total: page.total };
}

/** How many of an item's blockers are not finished. */
export function openBlockerCount(refs: readonly { status: string }[]): number {
  return refs.filter((r) => !TERMINAL_STATUSES.has(r.status)).length;
}
