import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets a pm process's heap grow past what its last full collection kept, in percent
 * (docs/TRACKER.md "Memory"). V8's own factor rises to 4x when collections are cheap: a server
 * writing an item of 5,000 comments 500 times a second (each write builds the item file's text,
 * hashes it and indexes it: ~1 MB of short-lived strings) kept ~30 MB live and let the heap
 * reach ~200 MB before collecting, and a one-shot `pm list` building the index of 100,000 items
 * let ~30 MB live grow to ~100 MB. At 1.5x both peak far lower, at the cost of more frequent
 * (incremental) full collections; figures in docs/BENCHMARKS.md.
 */
export const HEAP_GROWING_PERCENT = 50;

/**
 * A one-shot process keeps V8's young generation at its first size (growth factor 1): listing
 * 100,000 item files or building their index keeps enough of what it allocates that V8 would
 * grow each semi-space from 1 to 16 MB, ~30 MB of a process whose whole budget is 120 MB. The
 * servers keep the default (2): they trade that memory for fewer collections under load.
 */
export const ONE_SHOT_SEMI_SPACE_GROWTH = 1;

/**
 * The V8 flags pm sets for a process of this kind, leaving out any the user already chose: node
 * flags (`node --heap-growing-percent=0 bin/pm.cjs` restores V8's own growth; node refuses these
 * flags in NODE_OPTIONS, which is searched too).
 */
export function heapFlags(kind: 'one-shot' | 'server', execArgv: readonly string[], nodeOptions: string | undefined): string[] {
  const given = [...execArgv, nodeOptions ?? ''].join(' ').replaceAll('_', '-');
  const flags = [`--heap-growing-percent=${HEAP_GROWING_PERCENT}`];
  if (kind === 'one-shot') flags.push(`--semi-space-growth-factor=${ONE_SHOT_SEMI_SPACE_GROWTH}`);
  return flags.filter((flag) => !given.includes(flag.slice(0, flag.indexOf('='))));
}

/**
 * Bounds the heap of this process (pm: 'one-shot'; pm-mcp, pm-mcp-http: 'server'), at its start.
 * The bundled bins have bin/bundle-loader.cjs set the same flags before it compiles the bundle
 * (V8 rejects a code cache written under other flags than the compile's); setting them again
 * here changes nothing there, and bounds the unbundled starts and embedding hosts.
 */
export function boundHeap(kind: 'one-shot' | 'server'): void {
  for (const flag of heapFlags(kind, process.execArgv, process.env.NODE_OPTIONS)) setFlagsFromString(flag);
}
