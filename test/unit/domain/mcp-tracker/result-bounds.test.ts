/**
 * The token budget's fitting (docs/DISCOVERY.md "Bounded reads"): fitWithinBudget finds the same
 * rows as trying every count, and hands back the rendering it measured for them, so a page
 * within the budget is rendered once.
 */
import { fitWithinBudget, rowsWithinBudget, worstCaseResultTokens } from '../../../../src/domain/mcp-tracker/index.js';

/** A result of the first k rows, each `size` characters of text and data. */
function renderer(sizes: readonly number[]) {
  const calls: number[] = [];
  const build = (k: number) => {
    calls.push(k);
    const rows = sizes.slice(0, k).map((size, i) => `${i}:${'x'.repeat(size)}`);
    return { data: { rows }, text: rows.join('\n') };
  };
  return { build, calls };
}

/** The most leading rows that fit, found by trying every count. */
function plainRows(sizes: readonly number[], budget: number): number {
  const { build } = renderer(sizes);
  let best = 0;
  for (let k = 1; k <= sizes.length; k++) if (worstCaseResultTokens(build(k).data, build(k).text) <= budget) best = k;
  return best;
}

describe('fitWithinBudget', () => {
  it('renders a page within the budget once and returns that rendering', () => {
    const { build, calls } = renderer([10, 20, 30]);
    const fit = fitWithinBudget(3, build, 1000);
    expect(fit.rows).toBe(3);
    expect(calls).toEqual([3]);
    expect(fit.result).toEqual(build(3));
  });

  it('finds the rows trying every count finds, with the rendering of exactly those rows', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let round = 0; round < 40; round++) {
      const sizes = Array.from({ length: 1 + Math.floor(random() * 30) }, () => Math.floor(random() * 400));
      const budget = 20 + Math.floor(random() * 1500);
      const { build } = renderer(sizes);
      const fit = fitWithinBudget(sizes.length, build, budget);
      expect({ round, rows: fit.rows }).toEqual({ round, rows: plainRows(sizes, budget) });
      expect(rowsWithinBudget(sizes.length, build, budget)).toBe(fit.rows);
      if (fit.rows > 0) expect(fit.result).toEqual(build(fit.rows));
      else expect(fit.result).toBeUndefined();
    }
  });

  it('hands back the rendering of no rows for an empty page', () => {
    const { build } = renderer([]);
    expect(fitWithinBudget(0, build, 10)).toEqual({ rows: 0, result: build(0) });
  });
});
