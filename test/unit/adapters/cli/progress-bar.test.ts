import { progressBar } from '../../../../src/adapters/cli/progress-bar.js';

describe('progressBar', () => {
  it('redraws in place at most once per percent and clears its line when done', () => {
    const out: string[] = [];
    const report = progressBar({ write: (text: string) => out.push(text) }, 'indexing');
    for (let done = 0; done <= 1000; done += 5) report(done, 1000);
    const draws = out.filter((line) => line.startsWith('\rindexing'));
    expect(draws).toHaveLength(101);
    expect(draws[50]).toBe(`\rindexing [${'#'.repeat(15)}${'.'.repeat(15)}] 500/1000 (50%)`);
    expect(out[out.length - 1]).toBe('\r\u001b[K');
    expect(out[out.length - 2]).toBe(`\rindexing [${'#'.repeat(30)}] 1000/1000 (100%)`);
  });
});
