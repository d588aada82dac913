import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets a long-lived server's heap grow past what its last full collection kept, in
 * percent. V8's own factor rises to 4x when collections are cheap: a server writing an item of
 * 5,000 comments 500 times a second (each write builds the item file's text, hashes it and
 * indexes it: ~1 MB of short-lived strings) kept ~30 MB live and let the heap reach ~200 MB
 * before collecting. At 1.5x the same load peaks ~100 MB lower at the same write rate
 * (docs/TRACKER.md "Memory of the long-lived servers"; figures in docs/BENCHMARKS.md).
 */
export const SERVER_HEAP_GROWING_PERCENT = 50;

/** The V8 flag a long-lived server sets, or undefined when the user already chose one (node flags or NODE_OPTIONS). */
export function serverHeapFlag(execArgv: readonly string[], nodeOptions: string | undefined): string | undefined {
  const chosen = [...execArgv, nodeOptions ?? ''].some((arg) => arg.includes('heap-growing-percent') || arg.includes('heap_growing_percent'));
  return chosen ? undefined : `--heap-growing-percent=${SERVER_HEAP_GROWING_PERCENT}`;
}

/** Bounds the heap's growth for this process (pm-mcp, pm-mcp-http); one-shot CLI processes keep V8's default. */
export function boundServerHeapGrowth(): void {
  const flag = serverHeapFlag(process.execArgv, process.env.NODE_OPTIONS);
  if (flag) setFlagsFromString(flag);
}
