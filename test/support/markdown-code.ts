/**
 * The parts of a Markdown file a reader takes literally: fenced code blocks (with their info
 * string), inline code spans, and link targets outside code. A small CommonMark subset, enough
 * for the skills' own files: fences of three or more backticks or tildes, spans on one line.
 */

export interface CodeBlock {
  /** The first word of the info string, lowercased ('' when none). */
  readonly lang: string;
  readonly text: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
}

export interface CodeSpan {
  readonly text: string;
  readonly line: number;
}

export interface LinkTarget {
  readonly target: string;
  readonly line: number;
}

export interface MarkdownCode {
  readonly blocks: readonly CodeBlock[];
  readonly spans: readonly CodeSpan[];
  readonly links: readonly LinkTarget[];
}

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^\s`]*)/;
const SPAN = /(`+)(?!`)([\s\S]*?[^`])\1(?!`)/g;
const LINK = /!?\[[^\]]*\]\(\s*<?([^\s)>]+)>?(?:\s+"[^"]*")?\s*\)/g;

/** Splits a Markdown text into its code blocks, inline code spans and link targets. */
export function markdownCode(text: string): MarkdownCode {
  const blocks: CodeBlock[] = [];
  const spans: CodeSpan[] = [];
  const links: LinkTarget[] = [];
  const lines = text.split(/\r?\n/);
  let open: { fence: string; lang: string; line: number; body: string[] } | undefined;
  lines.forEach((line, index) => {
    const fence = FENCE.exec(line);
    if (open) {
      if (fence && fence[1]![0] === open.fence[0] && fence[1]!.length >= open.fence.length && fence[2] === '') {
        blocks.push({ lang: open.lang, text: open.body.join('\n'), line: open.line });
        open = undefined;
      } else {
        open.body.push(line);
      }
      return;
    }
    if (fence) {
      open = { fence: fence[1]!, lang: fence[2]!.toLowerCase(), line: index + 1, body: [] };
      return;
    }
    for (const match of line.matchAll(SPAN)) spans.push({ text: match[2]!.replace(/^ (.*) $/, '$1'), line: index + 1 });
    for (const match of line.replace(SPAN, '').matchAll(LINK)) links.push({ target: match[1]!, line: index + 1 });
  });
  if (open) blocks.push({ lang: open.lang, text: open.body.join('\n'), line: open.line });
  return { blocks, spans, links };
}
