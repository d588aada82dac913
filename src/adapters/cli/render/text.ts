/** Small text helpers shared by the human renderers. */

/** An ISO timestamp as `2026-03-01 10:00Z`: readable, still unambiguous. */
export function shortTime(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)}Z`;
}

/** Lays rows out in left-aligned columns (the last column is never padded). */
export function columns(rows: readonly (readonly string[])[], gap = '  '): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => { widths[i] = Math.max(widths[i] ?? 0, cell.length); });
  return rows.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join(gap).trimEnd());
}

/** Indents every line of a block. */
export function indent(text: string, by = '  '): string {
  return text.split('\n').map((line) => (line ? by + line : line)).join('\n');
}

/** Joins output lines into the text written to stdout (always one trailing newline). */
export function lines(...parts: (string | readonly string[] | false | undefined)[]): string {
  const flat = parts.flatMap((p) => (p === false || p === undefined ? [] : typeof p === 'string' ? [p] : p));
  return `${flat.join('\n')}\n`;
}

/** "1 item" / "3 items". */
export function plural(count: number, noun: string, pluralNoun = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : pluralNoun}`;
}
