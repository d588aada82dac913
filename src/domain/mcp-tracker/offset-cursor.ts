import { ValidationError } from '../errors/tracker-errors.js';
import { canonicalJson } from '../util/canonical-json.js';

/**
 * Opaque cursors for the tools that page by position (pm_search, pm_history, pm_validate):
 * base64url JSON naming the tool, a fingerprint of the arguments that decide the rows (not the
 * limit, so a page size may change between pages) and the position to continue from. A cursor
 * of another tool or other arguments is refused, as the tracker's own list cursors are.
 */

interface Body {
  readonly v: 1;
  readonly t: string;
  readonly f: string;
  readonly o: number;
}

/** FNV-1a over the canonical JSON of `query`: a short fingerprint, enough to tell queries apart. */
export function queryFingerprint(query: unknown): string {
  let hash = 0x811c9dc5;
  const text = canonicalJson(query);
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(36);
}

/** The cursor continuing `tool`'s query at `position`. */
export function encodeOffsetCursor(tool: string, query: unknown, position: number): string {
  const body: Body = { v: 1, t: tool, f: queryFingerprint(query), o: position };
  return btoa(JSON.stringify(body)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The position a cursor continues at; a ValidationError (a tool error the model reads) when it is not a cursor of this query. */
export function decodeOffsetCursor(tool: string, query: unknown, cursor: string): number {
  let body: Partial<Body> | undefined;
  try {
    body = /^[A-Za-z0-9_-]+$/.test(cursor) ? (JSON.parse(atob(cursor.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (cursor.length % 4)) % 4))) as Partial<Body>) : undefined;
  } catch {
    body = undefined;
  }
  if (!body || body.v !== 1 || body.t !== tool || typeof body.f !== 'string' || typeof body.o !== 'number' || !Number.isSafeInteger(body.o) || body.o < 0) {
    throw new ValidationError('invalid cursor: pass the nextCursor value from a previous page unchanged', { field: 'cursor' });
  }
  if (body.f !== queryFingerprint(query)) throw new ValidationError('cursor belongs to a different query (arguments changed); start again without a cursor', { field: 'cursor' });
  return body.o;
}
