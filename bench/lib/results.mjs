// Where a benchmark's full results go: bench/results/<name>-<date>.json (git-ignored).
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const RESULTS = join(dirname(fileURLToPath(import.meta.url)), '..', 'results');

/** Writes `result` (which carries its ISO `date`) and prints where, with the run's duration. */
export function saveBenchResult(name, result, startedAt) {
  mkdirSync(RESULTS, { recursive: true });
  const file = join(RESULTS, `${name}-${result.date.replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`\nresults: ${file} (${((performance.now() - startedAt) / 1000).toFixed(0)} s)`);
  return file;
}

/** The machine a result was measured on (`loadAverage` as the benchmark took it). */
export function machineInfo(loadAverage) {
  return { cpus: cpus().length, cpuModel: cpus()[0]?.model, totalMemMb: Math.round(totalmem() / 2 ** 20), node: process.version, platform: process.platform, loadAverage };
}
