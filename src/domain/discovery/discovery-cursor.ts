import { PmMcpInvalidParamsError } from '../errors/mcp-errors.js';
import { PM_DISCOVER_TOOL_NAME } from './discovery-capability.js';

/**
 * pm_discover's cursors (seed 004 "Decision": the SDK owns cursor binding; 2026-07-28
 * `server/utilities/pagination`: cursors are opaque and a bad one is -32602). A cursor names
 * the query it continues (a hash of the normalized need, names and schema choice), the profile
 * and the catalogue it was issued under, and the position of the next tool. One from another
 * query, another profile or an older catalogue is refused, never re-based: its position would
 * point into a different ranking and silently skip or repeat tools.
 */

interface CursorBody {
  readonly v: 1;
  /** The query hash. */
  readonly q: string;
  /** The profile. */
  readonly p: string;
  /** The catalogue id. */
  readonly c: string;
  /** The position of the next tool in the ranking. */
  readonly o: number;
}

/** What a cursor must match to be honoured. */
export interface PmDiscoveryCursorBinding {
  readonly query: string;
  readonly profile: string;
  readonly catalog: string;
}

const MAX_CURSOR = 512;

function toBase64Url(text: string): string {
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function decode(cursor: string): Partial<CursorBody> | undefined {
  if (cursor.length === 0 || cursor.length > MAX_CURSOR || !/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  try {
    const body: unknown = JSON.parse(atob(cursor.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (cursor.length % 4)) % 4)));
    return body && typeof body === 'object' && !Array.isArray(body) ? (body as Partial<CursorBody>) : undefined;
  } catch {
    return undefined;
  }
}

/** The cursor continuing `binding` at ranking position `offset`. Profile names are ASCII (tool-selection names). */
export function encodePmDiscoveryCursor(binding: PmDiscoveryCursorBinding, offset: number): string {
  const body: CursorBody = { v: 1, q: binding.query, p: binding.profile, c: binding.catalog, o: offset };
  return toBase64Url(JSON.stringify(body));
}

function refuse(cursor: string, problem: string, message: string): PmMcpInvalidParamsError {
  return new PmMcpInvalidParamsError(`${PM_DISCOVER_TOOL_NAME}: ${message}`, { cursor, problem });
}

/**
 * The ranking position a cursor continues at, after checking it against `binding` and a
 * ranking of `length` tools. Throws -32602 with `data.problem`: `malformed`, `foreign_profile`,
 * `stale_catalog`, `other_query` or `out_of_range`.
 */
export function decodePmDiscoveryCursor(cursor: string, binding: PmDiscoveryCursorBinding, length: number): number {
  const body = decode(cursor);
  if (!body || body.v !== 1 || typeof body.q !== 'string' || typeof body.p !== 'string' || typeof body.c !== 'string' || typeof body.o !== 'number' || !Number.isSafeInteger(body.o)) {
    throw refuse(cursor, 'malformed', 'invalid cursor: pass nextCursor from a previous pm_discover result unchanged');
  }
  if (body.p !== binding.profile) throw refuse(cursor, 'foreign_profile', `foreign cursor: it was issued under profile ${body.p}, this server serves profile ${binding.profile}; start again without a cursor`);
  if (body.c !== binding.catalog) throw refuse(cursor, 'stale_catalog', `stale cursor: the tool catalogue changed since it was issued (catalogue ${body.c}, now ${binding.catalog}); start again without a cursor`);
  if (body.q !== binding.query) throw refuse(cursor, 'other_query', 'cursor of another query: send the same need, names and outputSchema as the call that returned it, or start again without a cursor');
  if (body.o < 1 || body.o >= length) throw refuse(cursor, 'out_of_range', 'invalid cursor: it points outside this ranking');
  return body.o;
}
