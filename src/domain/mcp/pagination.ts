import { PmMcpInvalidParamsError } from '../errors/mcp-errors.js';

/**
 * Cursor pagination for MCP lists (2026-07-28 `server/utilities/pagination`). Cursors are
 * opaque, self-contained (no session: everything needed is inside), bound to the list and its
 * variant, and an invalid or foreign cursor is refused with -32602.
 */

/** One page of a list. */
export interface McpPage<T> {
  readonly items: readonly T[];
  readonly nextCursor: string | undefined;
  /** The offset this page starts at (a stable memo key for the page). */
  readonly offset: number;
}

interface CursorBody {
  readonly v: 1;
  readonly l: string;
  readonly o: number;
}

function encode(body: CursorBody): string {
  return btoa(JSON.stringify(body)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function decode(cursor: string): unknown {
  if (!/^[A-Za-z0-9_-]{1,512}$/.test(cursor)) return undefined;
  try {
    const padded = cursor.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (cursor.length % 4)) % 4);
    return JSON.parse(atob(padded));
  } catch {
    return undefined;
  }
}

/** Encodes the cursor for the page of list `listKey` starting at `offset`. */
export function encodeMcpCursor(listKey: string, offset: number): string {
  return encode({ v: 1, l: listKey, o: offset });
}

/**
 * Decodes a cursor for `listKey`; returns the offset it points at. `listKey` identifies the
 * list and the variant it was computed for (e.g. method plus negotiated decorations), so a
 * cursor from another list is refused rather than silently skipping entries.
 */
export function decodeMcpCursor(cursor: string, listKey: string, length: number): number {
  const body = decode(cursor) as Partial<CursorBody> | undefined;
  if (!body || body.v !== 1 || typeof body.o !== 'number' || !Number.isSafeInteger(body.o) || body.o < 0) {
    throw new PmMcpInvalidParamsError('Invalid cursor: pass nextCursor from a previous page unchanged', { cursor });
  }
  if (body.l !== listKey) throw new PmMcpInvalidParamsError('Invalid cursor: it belongs to a different list', { cursor });
  if (body.o > length) throw new PmMcpInvalidParamsError('Invalid cursor: the list has changed; start again without a cursor', { cursor });
  return body.o;
}

/** Slices one page of `items`; `nextCursor` is present only when more entries follow. */
export function paginateMcpList<T>(items: readonly T[], cursor: string | undefined, pageSize: number, listKey: string): McpPage<T> {
  if (cursor === undefined && items.length <= pageSize) return { items, nextCursor: undefined, offset: 0 };
  const offset = cursor === undefined ? 0 : decodeMcpCursor(cursor, listKey, items.length);
  const end = Math.min(items.length, offset + Math.max(1, pageSize));
  return {
    items: items.slice(offset, end),
    nextCursor: end < items.length ? encodeMcpCursor(listKey, end) : undefined,
    offset,
  };
}
