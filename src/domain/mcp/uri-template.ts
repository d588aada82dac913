/**
 * Matching of concrete URIs against `ResourceTemplate.uriTemplate` (RFC 6570, the subset pm
 * uses: simple `{var}` expressions, which match one path segment, and reserved `{+var}`
 * expressions, which may span segments). 2026-07-28 `server/resources` "Resource Templates".
 */

/** A compiled template: match a URI to its variables (undefined when it does not match). */
export interface McpUriTemplateMatcher {
  readonly template: string;
  readonly variables: readonly string[];
  match(uri: string): Readonly<Record<string, string>> | undefined;
}

const EXPRESSION = /\{(\+?)([A-Za-z0-9_]+)\}/g;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Compiles `template`; throws on expressions outside the supported subset. */
export function compileMcpUriTemplate(template: string): McpUriTemplateMatcher {
  const variables: string[] = [];
  let pattern = '^';
  let last = 0;
  for (const match of template.matchAll(EXPRESSION)) {
    pattern += escapeRegExp(template.slice(last, match.index));
    variables.push(match[2]!);
    pattern += match[1] === '+' ? '(.+)' : '([^/?#]+)';
    last = match.index! + match[0].length;
  }
  const tail = template.slice(last);
  if (/[{}]/.test(tail) || /[{}]/.test(template.replace(EXPRESSION, ''))) {
    throw new RangeError(`unsupported URI template expression in ${template}`);
  }
  pattern += `${escapeRegExp(tail)}$`;
  const regex = new RegExp(pattern);
  return Object.freeze({
    template,
    variables: Object.freeze(variables),
    match(uri: string) {
      const m = regex.exec(uri);
      if (!m) return undefined;
      const out: Record<string, string> = {};
      try {
        variables.forEach((name, i) => {
          out[name] = decodeURIComponent(m[i + 1]!);
        });
      } catch {
        return undefined;
      }
      return Object.freeze(out);
    },
  });
}
