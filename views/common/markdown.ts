/**
 * Item bodies and comments as Markdown (docs/TRACKER.md calls them Markdown; docs/APPS.md
 * "Markdown"): parsed by markdown-it in its CommonMark mode with raw HTML off, then built into
 * DOM nodes from its token stream — never through innerHTML, so tracker text still only becomes
 * text nodes and allow-listed attributes (see dom.ts). Links keep only http, https and mailto
 * targets (no `javascript:`, `data:` or other schemes) and open outside the view; images are
 * shown as their alt text, since a view loads nothing from the network. Every view that shows a
 * body or a comment goes through {@link renderMarkdown}, so they all render it identically.
 */
import MarkdownIt from 'markdown-it';
import type Token from 'markdown-it/lib/token.mjs';
import { h } from './dom.js';

const parser = new MarkdownIt('commonmark', { html: false, linkify: false });

/** Elements a token may open; anything else is dropped (its text children are kept). */
const ALLOWED_TAGS = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'blockquote', 'em', 'strong', 'a', 'code', 'pre', 'hr', 'br', 's']);

/** Link targets kept as links: the web and mail; everything else is shown as plain text. */
export function safeHref(href: string): string | undefined {
  const trimmed = href.trim();
  try {
    const url = new URL(trimmed);
    return url.protocol === 'http:' || url.protocol === 'https:' || url.protocol === 'mailto:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** Headings inside a body sit below the view's own h3 sections: `#` and `##` become h4, `###` h5, deeper h6. */
function headingTag(tag: string): string {
  const level = Number(tag.slice(1));
  return `h${Math.min(6, Math.max(4, level + 2))}`;
}

function openElement(token: Token): HTMLElement | undefined {
  let tag = token.tag;
  if (/^h[1-6]$/.test(tag)) tag = headingTag(tag);
  if (!ALLOWED_TAGS.has(token.tag)) return undefined;
  if (tag === 'a') {
    const href = safeHref(token.attrGet('href') ?? '');
    return href ? h('a', { href, target: '_blank', rel: 'noopener noreferrer nofollow' }) : h('span', { class: 'pm-unsafe-link' });
  }
  if (tag === 'ol') {
    const start = Number(token.attrGet('start') ?? '1');
    return h('ol', Number.isInteger(start) && start !== 1 ? { start } : null);
  }
  return document.createElement(tag);
}

/** Appends the DOM of `tokens` (block or inline) to `root`. */
function build(tokens: readonly Token[], root: HTMLElement): void {
  const stack: HTMLElement[] = [root];
  const top = () => stack[stack.length - 1]!;
  for (const token of tokens) {
    if (token.nesting === 1) {
      const el = openElement(token) ?? h('span');
      // Tight lists hide their paragraphs: the text goes straight into the list item.
      if (token.hidden) {
        stack.push(top());
        continue;
      }
      top().appendChild(el);
      stack.push(el);
      continue;
    }
    if (token.nesting === -1) {
      if (stack.length > 1) stack.pop();
      continue;
    }
    switch (token.type) {
      case 'inline':
        build(token.children ?? [], top());
        break;
      case 'text':
        top().appendChild(document.createTextNode(token.content));
        break;
      case 'code_inline':
        top().appendChild(h('code', null, token.content));
        break;
      case 'code_block':
      case 'fence':
        top().appendChild(h('pre', { tabindex: 0 }, h('code', token.info ? { 'data-lang': token.info.trim().split(/\s+/)[0] } : null, token.content)));
        break;
      case 'softbreak':
        top().appendChild(document.createTextNode('\n'));
        break;
      case 'hardbreak':
        top().appendChild(h('br'));
        break;
      case 'hr':
        top().appendChild(h('hr'));
        break;
      case 'image':
        top().appendChild(h('span', { class: 'pm-image-alt' }, token.content ? `[image: ${token.content}]` : '[image]'));
        break;
      default:
        // html_block / html_inline cannot occur with html off; anything else shows as its text.
        if (token.content) top().appendChild(document.createTextNode(token.content));
    }
  }
}

/** A body or comment as Markdown, in a `.pm-md` container. */
export function renderMarkdown(text: string, className = 'pm-body'): HTMLElement {
  const root = h('div', { class: `${className} pm-md` });
  build(parser.parse(text, {}), root);
  return root;
}
