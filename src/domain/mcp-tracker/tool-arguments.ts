import { z } from 'zod';

/**
 * Tolerant argument parsing for the tracker tools: an unknown key gets a warning naming the
 * nearest declared key. A call with an argument the tool does not declare still runs; the
 * unknown key is dropped and the result carries a warning such as
 * `unknown argument 'stauts' ignored; did you mean 'status'?`, so a model learns its mistake
 * instead of silently losing the value.
 */

/** Parsed arguments plus the warnings about keys the tool ignored. */
export interface McpToolCall<A> {
  readonly args: A;
  readonly warnings: readonly string[];
}

/** Most unknown-argument warnings one result carries (a flood is summarised). */
export const MAX_ARGUMENT_WARNINGS = 5;
const MAX_KEY_SHOWN = 64;

/** Lower-cases and drops `_`/`-`, so `expected_revision` and `expectedRevision` compare equal. */
function fold(key: string): string {
  return key.toLowerCase().replace(/[_-]/g, '');
}

/** Optimal-string-alignment distance (Levenshtein plus adjacent transpositions). */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The declared key closest to `key`, when it is close enough to be a plausible typo (at most
 * two edits, or a third of the key's length for long keys); ties go to the earlier declared key.
 */
export function nearestDeclaredKey(key: string, declared: readonly string[]): string | undefined {
  const folded = fold(key);
  if (folded.length > 4 * MAX_KEY_SHOWN) return undefined;
  let best: { key: string; distance: number } | undefined;
  for (const candidate of declared) {
    const distance = editDistance(folded, fold(candidate));
    if (!best || distance < best.distance) best = { key: candidate, distance };
  }
  if (!best) return undefined;
  return best.distance <= Math.max(2, Math.floor(folded.length / 3)) ? best.key : undefined;
}

function shown(key: string): string {
  return key.length > MAX_KEY_SHOWN ? `${key.slice(0, MAX_KEY_SHOWN)}…` : key;
}

/** The warning for one unknown argument key. */
export function unknownArgumentWarning(key: string, declared: readonly string[]): string {
  const near = nearestDeclaredKey(key, declared);
  if (near) return `unknown argument '${shown(key)}' ignored; did you mean '${near}'?`;
  return `unknown argument '${shown(key)}' ignored; declared arguments: ${declared.length ? declared.join(', ') : '(none)'}`;
}

/** Warnings for every unknown key, at most {@link MAX_ARGUMENT_WARNINGS} plus a summary line. */
export function unknownArgumentWarnings(keys: readonly string[], declared: readonly string[]): string[] {
  const out = keys.slice(0, MAX_ARGUMENT_WARNINGS).map((key) => unknownArgumentWarning(key, declared));
  if (keys.length > MAX_ARGUMENT_WARNINGS) out.push(`${keys.length - MAX_ARGUMENT_WARNINGS} more unknown arguments ignored`);
  return out;
}

/**
 * The zod parser of a tool's arguments: the declared `shape` is validated as usual; keys the
 * shape does not declare are dropped and reported as warnings instead of failing the call.
 */
export function mcpToolArguments<S extends z.ZodRawShape>(shape: S): z.ZodType<McpToolCall<z.output<z.ZodObject<S>>>> {
  const declared = Object.keys(shape);
  const known = new Set(declared);
  return z.looseObject(shape).transform((value) => {
    const args: Record<string, unknown> = {};
    const unknown: string[] = [];
    for (const key of Object.keys(value)) {
      if (known.has(key)) args[key] = (value as Record<string, unknown>)[key];
      else unknown.push(key);
    }
    return { args: args as z.output<z.ZodObject<S>>, warnings: unknownArgumentWarnings(unknown, declared) };
  }) as unknown as z.ZodType<McpToolCall<z.output<z.ZodObject<S>>>>;
}
