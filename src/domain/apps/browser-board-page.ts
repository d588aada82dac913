/**
 * The live board in the browser (docs/APPS.md "The board in the browser"): the page pm-mcp-http
 * serves at `/`, which hosts the five MCP Apps views itself, outside any MCP host. The page is a
 * small shell (its built script and style, served from the same origin) that talks to the
 * server's own MCP endpoint; this module only renders the shell and its Content-Security-Policy,
 * so it stays free of I/O.
 */

/** Where the page and its two assets are served. */
export const PM_BROWSER_BOARD_PATHS = { page: '/', script: '/_pm/board.js', style: '/_pm/board.css' } as const;

/** The built asset name of the page's script and style (`dist/apps/browser-host.js|css`). */
export const PM_BROWSER_BOARD_ASSET = 'browser-host';

/** What the page's policy must also allow: the inline script and style of every view document. */
export interface PmBrowserBoardInlineHashes {
  /** `sha256-…` sources of the views' inline `<script>` texts. */
  readonly scripts: readonly string[];
  /** `sha256-…` sources of the views' inline `<style>` texts. */
  readonly styles: readonly string[];
}

/**
 * The page's Content-Security-Policy. A view runs in an `<iframe sandbox="allow-scripts" srcdoc>`,
 * and a srcdoc document inherits the policy of the page that embeds it (HTML "policy
 * containers"), so the page allows exactly the views' inline script and style by hash and
 * nothing else inline (style attributes aside); the views' own policy applies on top. Same origin only:
 * `connect-src 'self'` for the MCP endpoint, no framing of the page by anyone.
 */
export function pmBrowserBoardCsp(hashes: PmBrowserBoardInlineHashes): string {
  const quoted = (list: readonly string[]) => list.map((h) => ` '${h}'`).join('');
  return [
    "default-src 'none'",
    `script-src 'self'${quoted(hashes.scripts)}`,
    `style-src 'self'${quoted(hashes.styles)}`,
    // The views position bars, graph boxes and bands with style attributes (no script runs from one).
    "style-src-attr 'unsafe-inline'",
    'img-src data:',
    'font-src data:',
    "connect-src 'self'",
    "frame-src 'self'",
    "worker-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * The headers of the page and its assets: the policy, no sniffing, no referrer, never framed,
 * never cached (a new install serves new assets at the same paths).
 */
export function pmBrowserBoardHeaders(contentType: string, csp: string): Record<string, string> {
  return {
    'Content-Type': contentType,
    'Content-Security-Policy': csp,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Cache-Control': 'no-store',
  };
}

/**
 * The inline `<script>` and `<style>` texts of a rendered view document (renderPmMcpAppHtml
 * writes exactly one of each, and escapes any closing tag inside them), for hashing.
 */
export function pmMcpAppInlineSources(html: string): { readonly scripts: string[]; readonly styles: string[] } {
  const all = (pattern: RegExp) => [...html.matchAll(pattern)].map((m) => m[1] ?? '');
  return { scripts: all(/<script>([\s\S]*?)<\/script>/g), styles: all(/<style>([\s\S]*?)<\/style>/g) };
}

/** The page itself: a shell the script fills; it names the MCP endpoint it talks to. */
export function renderPmBrowserBoardHtml(options: { readonly mcpPath: string }): string {
  const path = options.mcpPath.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="color-scheme" content="light dark">',
    '<title>pm · live board</title>',
    `<link rel="stylesheet" href="${PM_BROWSER_BOARD_PATHS.style}">`,
    `<script src="${PM_BROWSER_BOARD_PATHS.script}" defer></script>`,
    '</head>',
    `<body data-mcp-path="${path}">`,
    '<a class="pm-skip" href="#pm-board-view">Skip to the view</a>',
    '<header class="pm-board-bar"><p class="pm-board-title">pm · live board</p><nav id="pm-board-nav" aria-label="Views"></nav><p id="pm-board-live" class="pm-board-live" role="status">Connecting…</p></header>',
    '<main id="pm-board-view" tabindex="-1"><noscript>The live board needs JavaScript.</noscript></main>',
    '</body>',
    '</html>',
  ].join('\n');
}
