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

/** Control characters a terminal would act on: C0 but line feed and tab, DEL, C1 (ESC and CSI among them). */
const TERMINAL_CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
/** The same plus line feed and tab, for text shown on one line (a title in a list row). */
const LINE_CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;

function visible(char: string): string {
  return `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`;
}

/**
 * Readable text as the terminal may receive it (docs/CLI.md "How it behaves"): every control
 * character a terminal would act on is shown as a visible escape (`\x1b`, `\x07`, `\x0d`), so
 * item text read from a file — which pm's own writes keep free of them, but a hand edit need
 * not — can never move the cursor, recolor or retitle the terminal. Line feeds and tabs stay:
 * they are the layout. Applied to the finished text before pm adds its own colors.
 */
export function neutralizeControls(text: string): string {
  return text.replace(TERMINAL_CONTROLS, visible);
}

/** One-line text (a title, a tag) with line feeds and tabs shown as escapes too, so it cannot split a row. */
export function oneLine(text: string): string {
  return text.replace(LINE_CONTROLS, visible);
}
