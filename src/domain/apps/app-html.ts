import type { AppViewAsset } from '../../ports/app-view-assets.js';
import { PM_MCP_APP_MAX_HTML_BYTES, type PmMcpAppContract } from './app-contracts.js';

/**
 * The self-contained HTML5 document of one view (seed 000 "MCP Apps": every view is
 * self-contained and requests no network; MCP Apps 2026-01-26 §UI Resource Format, §Host
 * Behavior). The view's built script and style are inlined; the document's own
 * Content-Security-Policy allows inline script and style and `data:` images and fonts only, so
 * even a host that applied no CSP of its own would see no request leave the view.
 */

/** The built assets of one view (bundled, minified at build time). */
export type PmMcpAppViewAsset = AppViewAsset;

/** The policy every view document carries in a `<meta http-equiv>`. */
export const PM_MCP_APP_DOCUMENT_CSP = [
  "default-src 'none'",
  "script-src 'unsafe-inline'",
  "style-src 'unsafe-inline'",
  'img-src data:',
  'font-src data:',
  "connect-src 'none'",
  "media-src 'none'",
  "frame-src 'none'",
  "worker-src 'none'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * Makes `code` safe inside a raw-text element: a `</script`, `</style` or `<!--` would end or
 * change the element's parsing, so its `<` becomes `\x3C`, which means the same character inside
 * the string, template, regular-expression and comment contexts where minified code can hold it
 * (and in CSS, an escaped `<` in a string or comment).
 */
function rawText(code: string, css: boolean): string {
  return code.replace(/<(?=\/(?:script|style)|!--)/gi, css ? '\\3C ' : '\\x3C');
}

/** Thrown when a rendered view would exceed {@link PM_MCP_APP_MAX_HTML_BYTES}. */
export class PmMcpAppTooLargeError extends RangeError {
  constructor(
    readonly view: string,
    readonly bytes: number,
  ) {
    super(`the ${view} view would be ${bytes} bytes, above the ${PM_MCP_APP_MAX_HTML_BYTES}-byte bound of a pm view`);
  }
}

/** UTF-8 length of a string, without a TextEncoder copy of a 400 KB document. */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * The view's document: its title, the CSP, the inlined style and script, and a visible
 * placeholder the script replaces once the host delivers the tool's input and result. Throws
 * {@link PmMcpAppTooLargeError} past the size bound.
 */
export function renderPmMcpAppHtml(contract: Pick<PmMcpAppContract, 'view' | 'tool' | 'title'>, asset: PmMcpAppViewAsset): string {
  const html = [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<meta http-equiv="Content-Security-Policy" content="${PM_MCP_APP_DOCUMENT_CSP}">`,
    '<meta name="color-scheme" content="light dark">',
    `<title>pm · ${escapeText(contract.title)}</title>`,
    `<style>${rawText(asset.style, true)}</style>`,
    '</head>',
    `<body data-pm-view="${escapeText(contract.view)}">`,
    `<main id="pm-app"><p class="pm-status" role="status">Waiting for ${escapeText(contract.tool)}…</p></main>`,
    `<script>${rawText(asset.script, false)}</script>`,
    '</body>',
    '</html>',
  ].join('\n');
  const bytes = utf8Length(html);
  if (bytes > PM_MCP_APP_MAX_HTML_BYTES) throw new PmMcpAppTooLargeError(contract.view, bytes);
  return html;
}
