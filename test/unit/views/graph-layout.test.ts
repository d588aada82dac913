/**
 * The graph view's layout (views/graph/graph-layout.ts), alone: every item placed once, inside
 * the width, no two boxes overlapping for graphs up to 200 items at any width from a phone to a
 * wide screen, links pointing downwards inside their block, unlinked items last, and the same
 * drawing for the same graph.
 */
import { GAP_X, layoutGraph, NODE_HEIGHT, type LayoutBox, type LayoutEdge } from '../../../views/graph/graph-layout.js';

/** A small deterministic PRNG (mulberry32), so every run lays out the same graphs. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A tracker-like graph: a hierarchy, chains of blockers, some related links, some unlinked items. */
function graph(size: number, seed: number): { nodes: { id: string }[]; edges: LayoutEdge[] } {
  const next = random(seed);
  const nodes = Array.from({ length: size }, (_, i) => ({ id: `pm-${i.toString(36).padStart(4, '0')}` }));
  const edges: LayoutEdge[] = [];
  for (let i = 1; i < size; i++) {
    const roll = next();
    const other = nodes[Math.floor(next() * i)]!.id;
    if (roll < 0.35) edges.push({ from: other, to: nodes[i]!.id, kind: 'parent' });
    else if (roll < 0.65) edges.push({ from: other, to: nodes[i]!.id, kind: 'blocks' });
    else if (roll < 0.75) edges.push({ from: nodes[i]!.id, to: other, kind: 'related' });
  }
  return { nodes, edges };
}

const overlap = (a: LayoutBox, b: LayoutBox) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

describe('layoutGraph', () => {
  test.each([
    [200, 375],
    [200, 1280],
    [200, 296],
    [200, 1920],
    [120, 640],
    [30, 375],
    [1, 1280],
  ])('%i items at %i px: each placed once, inside the width, none overlapping', (size, width) => {
    for (const seed of [1, 2, 3]) {
      const { nodes, edges } = graph(size, seed);
      const layout = layoutGraph(nodes, edges, width);
      expect(layout.boxes.map((b) => b.id).sort()).toEqual(nodes.map((n) => n.id).sort());
      for (const box of layout.boxes) {
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.w).toBeLessThanOrEqual(layout.width);
        expect(box.y + box.h).toBeLessThanOrEqual(layout.height);
        expect(box.h).toBe(NODE_HEIGHT);
      }
      const boxes = layout.boxes;
      let overlaps = 0;
      for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) if (overlap(boxes[i]!, boxes[j]!)) overlaps++;
      expect(overlaps).toBe(0);
      // Neighbours keep at least the grid gap between them.
      const sameRow = boxes.filter((b) => b.y === boxes[0]!.y).sort((a, b) => a.x - b.x);
      for (let i = 1; i < sameRow.length; i++) expect(sameRow[i]!.x - (sameRow[i - 1]!.x + sameRow[i - 1]!.w)).toBeGreaterThanOrEqual(GAP_X);
    }
  });

  test('parents sit above their children and blockers above what they block', () => {
    const { nodes, edges } = graph(200, 7);
    const layout = layoutGraph(nodes, edges, 1280);
    const at = new Map(layout.boxes.map((b) => [b.id, b]));
    for (const e of edges.filter((x) => x.kind !== 'related')) expect({ e, above: at.get(e.from)!.y < at.get(e.to)!.y }).toEqual({ e, above: true });
  });

  test('unlinked items come last, under a band of their own', () => {
    const nodes = ['a', 'b', 'c', 'd', 'e'].map((id) => ({ id }));
    const layout = layoutGraph(nodes, [{ from: 'a', to: 'b', kind: 'parent' }, { from: 'c', to: 'a', kind: 'related' }], 1280);
    const at = new Map(layout.boxes.map((b) => [b.id, b]));
    expect(layout.unlinkedTop).toBeDefined();
    for (const id of ['d', 'e']) expect(at.get(id)!.y).toBeGreaterThan(layout.unlinkedTop!);
    for (const id of ['a', 'b', 'c']) expect(at.get(id)!.y + NODE_HEIGHT).toBeLessThanOrEqual(layout.unlinkedTop!);
    expect(layoutGraph(nodes.slice(0, 2), [{ from: 'a', to: 'b', kind: 'blocks' }], 1280).unlinkedTop).toBeUndefined();
  });

  test('separate groups are drawn as separate blocks side by side', () => {
    const nodes = ['a', 'a1', 'a2', 'b', 'b1', 'b2'].map((id) => ({ id }));
    const edges: LayoutEdge[] = [
      { from: 'a', to: 'a1', kind: 'blocks' },
      { from: 'a1', to: 'a2', kind: 'blocks' },
      { from: 'b', to: 'b1', kind: 'blocks' },
      { from: 'b1', to: 'b2', kind: 'blocks' },
    ];
    const at = new Map(layoutGraph(nodes, edges, 1280).boxes.map((b) => [b.id, b]));
    expect(new Set(['a', 'a1', 'a2'].map((id) => at.get(id)!.x)).size).toBe(1);
    expect(at.get('b')!.y).toBe(at.get('a')!.y);
    expect(at.get('b')!.x).toBeGreaterThan(at.get('a')!.x);
  });

  test('a cycle, self-links, duplicates and links to unknown items are drawn without trouble', () => {
    const nodes = ['a', 'b', 'c', 'a'].map((id) => ({ id }));
    const edges: LayoutEdge[] = [
      { from: 'a', to: 'b', kind: 'blocks' },
      { from: 'b', to: 'c', kind: 'blocks' },
      { from: 'c', to: 'a', kind: 'parent' },
      { from: 'a', to: 'a', kind: 'blocks' },
      { from: 'a', to: 'b', kind: 'blocks' },
      { from: 'a', to: 'zz', kind: 'parent' },
    ];
    const layout = layoutGraph(nodes, edges, 375);
    expect(layout.boxes.map((b) => b.id).sort()).toEqual(['a', 'b', 'c']);
    const at = new Map(layout.boxes.map((b) => [b.id, b]));
    expect(at.get('a')!.y).toBeLessThan(at.get('b')!.y);
    expect(at.get('b')!.y).toBeLessThan(at.get('c')!.y);
  });

  test('the same graph always gets the same drawing; nothing to draw is an empty layout', () => {
    const { nodes, edges } = graph(150, 11);
    expect(layoutGraph(nodes, edges, 900)).toEqual(layoutGraph(nodes, edges, 900));
    expect(layoutGraph([], [], 900)).toEqual({ boxes: [], width: 900, height: 0, unlinkedTop: undefined });
  });
});
