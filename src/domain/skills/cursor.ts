import { PmMcpInvalidParamsError } from '../errors/mcp-errors.js';
import { decodeUtf8Exactly, encodeBase64 } from './byte-codec.js';

/**
 * Pagination cursors of the skills registry (2026-07-28 `server/utilities/pagination`;
 * SEP-2640 pages `skills/list` and `resources/directory/read` the same way). A cursor is
 * opaque base64url JSON naming the list it pages, the digest of the registry that issued it,
 * and the offset of the next entry. A cursor from another registry (the skills changed and
 * were reloaded) is refused as stale with -32602, never re-based onto the new listing, where
 * its offset could skip or repeat entries. Cursors are only issued when entries follow, so an
 * empty-string cursor is never valid.
 */

interface CursorBody {
  readonly v: 1;
  readonly l: string;
  readonly d: string;
  readonly o: number;
}

const MAX_CURSOR = 1024;

function invalid(cursor: string, message: string): PmMcpInvalidParamsError {
  return new PmMcpInvalidParamsError(message, { cursor });
}

/** The cursor for the entry at `offset` of list `list` in the registry with `digest`. */
export function encodePmSkillCursor(list: string, digest: string, offset: number): string {
  const body: CursorBody = { v: 1, l: list, d: digest, o: offset };
  return encodeBase64(new TextEncoder().encode(JSON.stringify(body))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function decode(cursor: string): Partial<CursorBody> | undefined {
  if (cursor.length === 0 || cursor.length > MAX_CURSOR || !/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  try {
    const padded = cursor.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (cursor.length % 4)) % 4);
    const binary = atob(padded);
    const text = decodeUtf8Exactly(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
    const body: unknown = text === undefined ? undefined : JSON.parse(text);
    return body && typeof body === 'object' ? (body as Partial<CursorBody>) : undefined;
  } catch {
    return undefined;
  }
}

/** The offset a cursor points at in list `list` of length `length`; -32602 when it is not a live cursor of this registry. */
export function decodePmSkillCursor(cursor: unknown, list: string, digest: string, length: number): number {
  if (typeof cursor !== 'string') throw new PmMcpInvalidParamsError('Invalid cursor: it must be a string', { cursor: cursor ?? null });
  const body = decode(cursor);
  if (!body || body.v !== 1 || typeof body.l !== 'string' || typeof body.d !== 'string' || typeof body.o !== 'number' || !Number.isSafeInteger(body.o)) {
    throw invalid(cursor, 'Invalid cursor: pass nextCursor from a previous page unchanged');
  }
  if (body.l !== list) throw invalid(cursor, 'Invalid cursor: it belongs to a different list');
  if (body.d !== digest) throw invalid(cursor, 'Stale cursor: the skills changed since it was issued; start again without a cursor');
  if (body.o < 1 || body.o >= length) throw invalid(cursor, 'Invalid cursor: it points outside this list');
  return body.o;
}
