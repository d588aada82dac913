/** The outcome of a three-way merge of lines. */
export interface LineMergeResult {
  readonly lines: string[];
  /** How many regions both sides changed differently (each written between conflict markers). */
  readonly conflicts: number;
}

/** Labels and marker width of conflict regions (git's defaults: width 7). */
export interface ConflictStyle {
  readonly ours: string;
  readonly theirs: string;
  readonly markerSize?: number;
}

/**
 * A three-way merge of line lists (diff3): regions where only one side differs from the base
 * take that side, regions both sides changed alike take it once, and regions both changed
 * differently are written between standard conflict markers (`<<<<<<<`, `=======`, `>>>>>>>`)
 * for a person to decide. Lines both sides kept unchanged anchor the regions.
 */
export function mergeLines(base: readonly string[], ours: readonly string[], theirs: readonly string[], style: ConflictStyle): LineMergeResult {
  const toOurs = matchLines(base, ours);
  const toTheirs = matchLines(base, theirs);
  const out: string[] = [];
  let conflicts = 0;
  let i = 0;
  let o = 0;
  let t = 0;
  const size = style.markerSize ?? 7;
  const emit = (baseEnd: number, oursEnd: number, theirsEnd: number) => {
    const b = base.slice(i, baseEnd);
    const x = ours.slice(o, oursEnd);
    const y = theirs.slice(t, theirsEnd);
    if (same(x, b)) out.push(...y);
    else if (same(y, b) || same(x, y)) out.push(...x);
    else {
      conflicts++;
      out.push(`${'<'.repeat(size)} ${style.ours}`, ...x, '='.repeat(size), ...y, `${'>'.repeat(size)} ${style.theirs}`);
    }
  };
  for (let k = 0; k < base.length; k++) {
    const mo = toOurs[k]!;
    const mt = toTheirs[k]!;
    if (mo < 0 || mt < 0) continue;
    emit(k, mo, mt);
    out.push(base[k]!);
    i = k + 1;
    o = mo + 1;
    t = mt + 1;
  }
  emit(base.length, ours.length, theirs.length);
  return { lines: out, conflicts };
}

/** For each line of `a`, the index of the line of `b` a longest common subsequence pairs it with, or -1. */
function matchLines(a: readonly string[], b: readonly string[]): number[] {
  const match = new Array<number>(a.length).fill(-1);
  // Equal leading and trailing lines pair up directly; the LCS table covers only the middle.
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) match[start] = start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) match[--endA] = --endB;
  const n = endA - start;
  const m = endB - start;
  if (n === 0 || m === 0) return match;
  const width = m + 1;
  const table = new Uint32Array((n + 1) * width);
  for (let x = n - 1; x >= 0; x--) {
    for (let y = m - 1; y >= 0; y--) {
      table[x * width + y] = a[start + x] === b[start + y] ? table[(x + 1) * width + y + 1]! + 1 : Math.max(table[(x + 1) * width + y]!, table[x * width + y + 1]!);
    }
  }
  let x = 0;
  let y = 0;
  while (x < n && y < m) {
    if (a[start + x] === b[start + y]) {
      match[start + x] = start + y;
      x++;
      y++;
    } else if (table[(x + 1) * width + y]! >= table[x * width + y + 1]!) x++;
    else y++;
  }
  return match;
}

function same(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((line, index) => line === b[index]);
}
