// Small statistics and formatting helpers for the benchmark report.

/** The q-quantile (0..1) of a sample by nearest rank. */
export function quantile(samples, q) {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank];
}

/** Median, p99, mean and count of one operation's samples (milliseconds). */
export function summarize(samples) {
  return {
    n: samples.length,
    median: round(quantile(samples, 0.5)),
    p99: round(quantile(samples, 0.99)),
    mean: round(samples.reduce((a, b) => a + b, 0) / samples.length),
  };
}

export function round(value) {
  return Math.round(value * 1000) / 1000;
}

/** Formats rows (arrays of cells) as a fixed-width text table. */
export function table(header, rows) {
  const widths = header.map((h, i) => Math.max(String(h).length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

export function fmt(ms) {
  if (!Number.isFinite(ms)) return '-';
  return ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2);
}
