/**
 * A tiny DOM builder for the views. Tracker data is untrusted text (titles, bodies, comments),
 * so it only ever becomes text nodes and attribute values, never markup: nothing here parses
 * HTML.
 */

export type Child = Node | string | number | false | null | undefined | readonly Child[];
type Attrs = Record<string, string | number | boolean | undefined | ((event: Event) => void)>;

function append(parent: Node, child: Child): void {
  if (child === false || child === null || child === undefined) return;
  if (Array.isArray(child)) {
    for (const c of child as readonly Child[]) append(parent, c);
    return;
  }
  parent.appendChild(typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : (child as Node));
}

/** An element with attributes (`on…` functions become listeners; `false`/undefined are skipped) and children. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs | null = null, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') el.addEventListener(key.slice(2).toLowerCase(), value);
    else if (key === 'class') el.className = String(value);
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

/** An SVG element (edges of the graph view; decorative, so callers mark the root aria-hidden). */
export function svg(tag: string, attrs: Record<string, string | number> = {}): SVGElement {
  const el = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, String(value));
  return el;
}

/** Replaces every child of `el`. */
export function replaceChildren(el: Element, ...children: Child[]): void {
  el.textContent = '';
  append(el, children);
}

/** Text only screen readers hear (e.g. "done" beside a check mark). */
export function srOnly(text: string): HTMLSpanElement {
  return h('span', { class: 'pm-sr' }, text);
}
