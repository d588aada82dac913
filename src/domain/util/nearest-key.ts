/**
 * The nearest of a set of declared names to a misspelled one, for "did you mean ...?" in the
 * refusals of unknown tool arguments, tool names and profile entries (docs/MCP.md "Strict
 * arguments"), and of the CLI's unknown commands, options and values (docs/CLI.md "How it
 * behaves"): the one distance pm uses everywhere.
 */

/** Lower-cases and drops `_`/`-`, so `expected_revision` and `expectedRevision` compare equal. */
function fold(key: string): string {
  return key.toLowerCase().replace(/[_-]/g, '');
}

/** Keys longer than this many characters are not compared (the distance is quadratic). */
const MAX_COMPARED_KEY = 256;

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
  if (folded.length > MAX_COMPARED_KEY) return undefined;
  let best: { key: string; distance: number } | undefined;
  for (const candidate of declared) {
    const distance = editDistance(folded, fold(candidate));
    if (!best || distance < best.distance) best = { key: candidate, distance };
  }
  if (!best) return undefined;
  return best.distance <= Math.max(2, Math.floor(folded.length / 3)) ? best.key : undefined;
}

/**
 * The refusal of a value outside a closed set (a type, a status, a sort): names the nearest
 * allowed value when there is a plausible one (case-insensitive, so `task` gets "did you mean
 * Task?"), then every allowed value.
 */
export function unknownValueMessage(what: string, value: string, allowed: readonly string[]): string {
  const near = nearestDeclaredKey(value, allowed);
  return `unknown ${what} '${value}'; ${near ? `did you mean ${near}? ` : ''}expected one of: ${allowed.join(', ')}`;
}
