/**
 * The graph view's layout: a layered drawing of the hierarchy and dependency graph. Each
 * connected group of linked items is drawn as its own block: parent → child and blocker →
 * blocked links point downwards (longest-path layers, cycles broken at their back links), the
 * items of a layer are ordered by the positions of their neighbours to keep links short, and a
 * layer wider than the view wraps onto further rows. Blocks are packed side by side in rows, in
 * the order their first item came (pm_graph lists the most important first), so links stay
 * inside their block. Every item gets its own cell and blocks never overlap, so no two boxes —
 * and no two labels — can overlap, whatever the graph. Items without any link are gathered in a
 * last band. Pure: no DOM, so it is tested alone.
 */

export interface LayoutNode {
  readonly id: string;
}

export interface LayoutEdge {
  readonly from: string;
  readonly to: string;
  readonly kind: 'parent' | 'blocks' | 'related';
}

export interface LayoutBox {
  readonly id: string;
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
  /** The node's layer (0 at the top); unlinked nodes share the last one. */
  readonly layer: number;
}

export interface Layout {
  readonly boxes: readonly LayoutBox[];
  readonly width: number;
  readonly height: number;
  /** Where the band of unlinked items starts (its heading sits above it), if there is one. */
  readonly unlinkedTop: number | undefined;
}

export const NODE_HEIGHT = 56;
export const GAP_X = 12;
export const ROW_GAP = 14;
export const LAYER_GAP = 44;
export const BAND_HEADING = 28;
/** Space between two blocks on a shelf. */
export const BLOCK_GAP = 28;
/** Free space left and right of the drawing, where links to a later row of a layer run. */
export const GUTTER = 10;
const TARGET_WIDTH = 208;
const MAX_WIDTH = 300;
const SWEEPS = 4;

/** Directed links that order layers (related links do not), without self-links or unknown ends. */
function directedEdges(ids: ReadonlySet<string>, edges: readonly LayoutEdge[]): [string, string][] {
  const seen = new Set<string>();
  const out: [string, string][] = [];
  for (const e of edges) {
    if (e.kind === 'related' || e.from === e.to || !ids.has(e.from) || !ids.has(e.to)) continue;
    const key = `${e.from}\u0000${e.to}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push([e.from, e.to]);
  }
  return out;
}

/** Drops the links that close a cycle (found by a depth-first walk in input order). */
function acyclic(order: readonly string[], edges: readonly [string, string][]): [string, string][] {
  const next = new Map<string, string[]>(order.map((id) => [id, []]));
  for (const [from, to] of edges) next.get(from)!.push(to);
  const state = new Map<string, 1 | 2>();
  const back = new Set<string>();
  for (const start of order) {
    if (state.has(start)) continue;
    const stack: [string, number][] = [[start, 0]];
    state.set(start, 1);
    while (stack.length) {
      const top = stack[stack.length - 1]!;
      const children = next.get(top[0])!;
      if (top[1] >= children.length) {
        state.set(top[0], 2);
        stack.pop();
        continue;
      }
      const child = children[top[1]++]!;
      const seen = state.get(child);
      if (seen === 1) back.add(`${top[0]}\u0000${child}`);
      else if (seen === undefined) {
        state.set(child, 1);
        stack.push([child, 0]);
      }
    }
  }
  return edges.filter(([from, to]) => !back.has(`${from}\u0000${to}`));
}

/** Longest-path layers of a DAG. */
function ranks(order: readonly string[], edges: readonly [string, string][]): Map<string, number> {
  const incoming = new Map<string, number>(order.map((id) => [id, 0]));
  const next = new Map<string, string[]>(order.map((id) => [id, []]));
  for (const [from, to] of edges) {
    next.get(from)!.push(to);
    incoming.set(to, incoming.get(to)! + 1);
  }
  const rank = new Map<string, number>(order.map((id) => [id, 0]));
  const queue = order.filter((id) => incoming.get(id) === 0);
  for (let i = 0; i < queue.length; i++) {
    const id = queue[i]!;
    for (const to of next.get(id)!) {
      rank.set(to, Math.max(rank.get(to)!, rank.get(id)! + 1));
      incoming.set(to, incoming.get(to)! - 1);
      if (incoming.get(to) === 0) queue.push(to);
    }
  }
  return rank;
}

/** Orders each layer by the mean position of its neighbours in the layer above (or below), a few sweeps each way. */
function orderLayers(layers: string[][], edges: readonly [string, string][]): void {
  const up = new Map<string, string[]>();
  const down = new Map<string, string[]>();
  for (const [from, to] of edges) {
    up.set(to, [...(up.get(to) ?? []), from]);
    down.set(from, [...(down.get(from) ?? []), to]);
  }
  const position = new Map<string, number>();
  const place = (layer: readonly string[]) => layer.forEach((id, i) => position.set(id, layer.length > 1 ? i / (layer.length - 1) : 0.5));
  layers.forEach(place);
  const sweep = (layer: string[], neighbours: Map<string, string[]>) => {
    const key = new Map<string, number>();
    layer.forEach((id) => {
      const near = (neighbours.get(id) ?? []).filter((n) => position.has(n));
      key.set(id, near.length ? near.reduce((s, n) => s + position.get(n)!, 0) / near.length : position.get(id)!);
    });
    const indexed = layer.map((id, i) => ({ id, i }));
    indexed.sort((a, b) => key.get(a.id)! - key.get(b.id)! || a.i - b.i);
    layer.splice(0, layer.length, ...indexed.map((x) => x.id));
    place(layer);
  };
  for (let s = 0; s < SWEEPS; s++) {
    for (let l = 1; l < layers.length; l++) sweep(layers[l]!, up);
    for (let l = layers.length - 2; l >= 0; l--) sweep(layers[l]!, down);
  }
}

/** The linked items in connected groups (links of every kind), each in input order, groups by their first item. */
function components(order: readonly string[], linked: ReadonlySet<string>, edges: readonly LayoutEdge[], ids: ReadonlySet<string>): string[][] {
  const parent = new Map<string, string>(order.map((id) => [id, id]));
  const find = (id: string): string => {
    let root = id;
    while (parent.get(root) !== root) root = parent.get(root)!;
    for (let at = id; at !== root; ) {
      const next = parent.get(at)!;
      parent.set(at, root);
      at = next;
    }
    return root;
  };
  for (const e of edges) if (e.from !== e.to && ids.has(e.from) && ids.has(e.to)) parent.set(find(e.from), find(e.to));
  const groups = new Map<string, string[]>();
  for (const id of order) {
    if (!linked.has(id)) continue;
    const root = find(id);
    const group = groups.get(root);
    if (group) group.push(id);
    else groups.set(root, [id]);
  }
  return [...groups.values()];
}

interface Block {
  readonly cells: { readonly id: string; readonly x: number; readonly y: number; readonly layer: number }[];
  readonly width: number;
  readonly height: number;
}

/** One group's layered drawing, its layers wrapped at `columns` items. */
function layBlock(group: readonly string[], directed: readonly [string, string][], rank: ReadonlyMap<string, number>, columns: number, nodeWidth: number): Block {
  const members = new Set(group);
  const inside = directed.filter(([from, to]) => members.has(from) && members.has(to));
  const layers: string[][] = [];
  for (const id of group) (layers[rank.get(id)!] ??= []).push(id);
  const dense = layers.filter((l) => l && l.length);
  orderLayers(dense, inside);
  const cols = Math.min(columns, Math.max(...dense.map((l) => l.length)));
  const width = cols * nodeWidth + (cols - 1) * GAP_X;
  const cells: Block['cells'][number][] = [];
  let y = 0;
  dense.forEach((layer, index) => {
    for (let start = 0; start < layer.length; start += cols) {
      const row = layer.slice(start, start + cols);
      const left = Math.floor((width - (row.length * nodeWidth + (row.length - 1) * GAP_X)) / 2);
      row.forEach((id, i) => cells.push({ id, x: left + i * (nodeWidth + GAP_X), y, layer: index }));
      y += NODE_HEIGHT + ROW_GAP;
    }
    y += LAYER_GAP - ROW_GAP;
  });
  return { cells, width, height: y - LAYER_GAP };
}

/** Lays out `nodes` (in their given order) and `edges` in `width` pixels. */
export function layoutGraph(nodes: readonly LayoutNode[], edges: readonly LayoutEdge[], width: number): Layout {
  const order = [...new Set(nodes.map((n) => n.id))];
  const ids = new Set(order);
  const directed = acyclic(order, directedEdges(ids, edges));
  const rank = ranks(order, directed);
  const linked = new Set<string>();
  for (const e of edges) {
    if (e.from === e.to || !ids.has(e.from) || !ids.has(e.to)) continue;
    linked.add(e.from);
    linked.add(e.to);
  }
  const usable = Math.max(120, Math.floor(width)) - 2 * GUTTER;
  const columns = Math.max(1, Math.floor((usable + GAP_X) / (TARGET_WIDTH + GAP_X)));
  const nodeWidth = Math.min(MAX_WIDTH, Math.floor((usable - (columns - 1) * GAP_X) / columns));
  const boxes: LayoutBox[] = [];

  // Blocks side by side on shelves, each shelf as tall as its tallest block and centred.
  let x = 0;
  let shelfTop = 0;
  let shelfHeight = 0;
  let shelfStart = 0;
  let depth = 0;
  const closeShelf = () => {
    const shift = Math.floor((usable - (x - BLOCK_GAP)) / 2);
    for (let i = shelfStart; i < boxes.length; i++) boxes[i] = { ...boxes[i]!, x: boxes[i]!.x + shift };
  };
  for (const group of components(order, linked, edges, ids)) {
    const block = layBlock(group, directed, rank, columns, nodeWidth);
    if (x > 0 && x + block.width > usable) {
      closeShelf();
      shelfTop += shelfHeight + LAYER_GAP;
      x = 0;
      shelfHeight = 0;
      shelfStart = boxes.length;
    }
    for (const cell of block.cells) boxes.push({ id: cell.id, x: x + cell.x, y: shelfTop + cell.y, w: nodeWidth, h: NODE_HEIGHT, layer: cell.layer });
    depth = Math.max(depth, ...block.cells.map((c) => c.layer + 1));
    x += block.width + BLOCK_GAP;
    shelfHeight = Math.max(shelfHeight, block.height);
  }
  if (boxes.length) closeShelf();
  let y = boxes.length ? shelfTop + shelfHeight + LAYER_GAP : 0;

  const unlinked = order.filter((id) => !linked.has(id));
  let unlinkedTop: number | undefined;
  if (unlinked.length) {
    unlinkedTop = y;
    y += BAND_HEADING;
    for (let start = 0; start < unlinked.length; start += columns) {
      const row = unlinked.slice(start, start + columns);
      row.forEach((id, i) => boxes.push({ id, x: i * (nodeWidth + GAP_X), y, w: nodeWidth, h: NODE_HEIGHT, layer: depth }));
      y += NODE_HEIGHT + ROW_GAP;
    }
    y += LAYER_GAP - ROW_GAP;
  }
  const placed = boxes.map((b) => ({ ...b, x: b.x + GUTTER }));
  return { boxes: placed, width: usable + 2 * GUTTER, height: boxes.length ? y - LAYER_GAP : 0, unlinkedTop };
}
