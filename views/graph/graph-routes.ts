/**
 * Links of the graph drawing routed at right angles through the free space between cards, so a
 * link never runs through a card it does not join (docs/APPS.md "Graph"): out of the bottom of
 * its source into the gap below the source's row, along that gap to a free vertical corridor
 * (a gap between two cards, or the margin beside the group), along the corridor to the gap
 * above the target's row, and into the top of the target. Within a group of linked items every
 * row spans the group, so the gaps between rows are free across it; a corridor is only taken
 * when no card stands in it over the whole run, and the margin just left of the group always
 * qualifies. Pure: no DOM, so it is tested alone.
 */
import type { LayoutBox } from './graph-layout.js';

/** How far into a gap a link runs (the smallest gap between rows is 14 px). */
const LANE = 7;

interface Segment {
  readonly x1: number;
  readonly y1: number;
  readonly x2: number;
  readonly y2: number;
}

/** True when the vertical line at `x` from `y1` to `y2` runs through no card. */
function freeVertical(x: number, y1: number, y2: number, boxes: readonly LayoutBox[]): boolean {
  const top = Math.min(y1, y2);
  const bottom = Math.max(y1, y2);
  return boxes.every((b) => x <= b.x || x >= b.x + b.w || bottom <= b.y || top >= b.y + b.h);
}

/** The x of each corridor a link may run down: the gaps beside every card of its group. */
function corridors(group: readonly LayoutBox[], gap: number): number[] {
  const xs = new Set<number>();
  for (const b of group) {
    xs.add(b.x - gap / 2);
    xs.add(b.x + b.w + gap / 2);
  }
  return [...xs];
}

/** The boxes of the group `box` belongs to: those reachable through `links`. */
export function groupsOf(boxes: readonly LayoutBox[], links: readonly { readonly from: string; readonly to: string }[]): Map<string, LayoutBox[]> {
  const root = new Map(boxes.map((b) => [b.id, b.id]));
  const find = (id: string): string => {
    while (root.get(id) !== id) id = root.get(id)!;
    return id;
  };
  for (const l of links) if (root.has(l.from) && root.has(l.to)) root.set(find(l.from), find(l.to));
  const groups = new Map<string, LayoutBox[]>();
  for (const b of boxes) {
    const r = find(b.id);
    groups.set(r, [...(groups.get(r) ?? []), b]);
  }
  const out = new Map<string, LayoutBox[]>();
  for (const group of groups.values()) for (const b of group) out.set(b.id, group);
  return out;
}

/**
 * The route of one link as an SVG path of straight segments. `lane` (0, 1, 2 …) shifts the
 * corridor a little so links sharing one stay apart.
 */
export function routeEdge(from: LayoutBox, to: LayoutBox, group: readonly LayoutBox[], all: readonly LayoutBox[], gap: number, lane = 0): string {
  const sx = from.x + from.w / 2;
  const tx = to.x + to.w / 2;
  const sy = from.y + from.h;
  const ty = to.y;
  const exitY = sy + LANE;
  const entryY = ty - LANE;
  // The next row straight down, and the target right below: one bend in the gap between them.
  if (to.y >= sy && to.y - sy <= 60) return path([{ x1: sx, y1: sy, x2: sx, y2: exitY }, { x1: sx, y1: exitY, x2: tx, y2: exitY }, { x1: tx, y1: exitY, x2: tx, y2: ty }]);
  const minX = Math.min(...group.map((b) => b.x));
  const offset = ((lane % 3) - 1) * 2;
  const candidates = corridors(group, gap)
    .map((x) => x + offset)
    .filter((x) => freeVertical(x, exitY, entryY, all))
    .sort((a, b) => Math.abs(a - sx) + Math.abs(a - tx) - (Math.abs(b - sx) + Math.abs(b - tx)));
  const cx = candidates[0] ?? minX - gap / 2;
  return path([
    { x1: sx, y1: sy, x2: sx, y2: exitY },
    { x1: sx, y1: exitY, x2: cx, y2: exitY },
    { x1: cx, y1: exitY, x2: cx, y2: entryY },
    { x1: cx, y1: entryY, x2: tx, y2: entryY },
    { x1: tx, y1: entryY, x2: tx, y2: ty },
  ]);
}

function path(segments: readonly Segment[]): string {
  const first = segments[0]!;
  return `M${first.x1},${first.y1} ${segments.map((s) => `L${s.x2},${s.y2}`).join(' ')}`;
}
