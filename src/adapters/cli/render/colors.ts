/**
 * Emphasis for a color terminal, added to the finished readable text: ids cyan, P0 bold red,
 * P1 yellow, statuses by meaning. Escape codes take no columns on a terminal, so the layout the
 * renderers computed on plain text stays aligned; `--json` and pipes never get them (the CLI
 * asks the terminal, and honours NO_COLOR, https://no-color.org).
 */
const RESET = '\u001b[0m';
const PRIORITY: Readonly<Record<string, string>> = { P0: '1;31', P1: '33' };
const STATUS: Readonly<Record<string, string>> = { open: '32', in_progress: '34', blocked: '31', draft: '2', closed: '2', canceled: '2' };

const ID = /\b[a-z][a-z0-9]{0,11}-[0-9a-z]{6,8}\b/g;
const PRIORITY_WORD = /(?<=^|\s)P[01](?=\s)/gm;
/** A status as a table cell or a labelled field: after two spaces or "status:", before two spaces or the line end. */
const STATUS_WORD = /(?<=  |status: +)(open|in_progress|blocked|draft|closed|canceled)(?=  |$)/gm;

export function colorize(text: string): string {
  return text
    .replace(ID, (id) => paint(id, '36'))
    .replace(PRIORITY_WORD, (p) => paint(p, PRIORITY[p]!))
    .replace(STATUS_WORD, (s) => paint(s, STATUS[s]!));
}

function paint(text: string, code: string): string {
  return `\u001b[${code}m${text}${RESET}`;
}
