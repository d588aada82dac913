/**
 * The path of an HTTP request target (RFC 9112 §3.2), as express's router sees it (its
 * `parseurl` pathname: no percent-decoding, no dot-segment removal): origin-form `/mcp?x` →
 * `/mcp`; absolute-form `http://host:8787/mcp?x` → `/mcp`; asterisk-form `*` → `*`. Used by the
 * pm-mcp-http app (docs/HTTP.md), which runs express with node's own request objects and so has
 * no `req.path`.
 */
export function requestTargetPath(url: string): string {
  let start = 0;
  if (url.charCodeAt(0) !== SLASH) {
    const scheme = url.indexOf('://');
    if (scheme === -1) return url;
    start = url.indexOf('/', scheme + 3);
    if (start === -1) return '/';
  }
  let end = url.length;
  for (let i = start; i < end; i++) {
    const code = url.charCodeAt(i);
    if (code === QUESTION_MARK || code === HASH) end = i;
  }
  return url.slice(start, end);
}

/** True when the request target addresses `path` exactly (fast: `/mcp` and `/mcp?…` need no parse). */
export function isRequestTargetPath(url: string, path: string): boolean {
  if (url.startsWith(path) && (url.length === path.length || url.charCodeAt(path.length) === QUESTION_MARK)) return true;
  return requestTargetPath(url) === path;
}

const SLASH = 47;
const QUESTION_MARK = 63;
const HASH = 35;
