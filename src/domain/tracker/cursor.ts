import { ValidationError } from '../errors/index.js';

/**
 * Opaque pagination cursors: base64url JSON holding the position (the sort key and id of the
 * last returned row) and a fingerprint of the query, so a cursor reused with different filters
 * is refused instead of silently skipping rows.
 */
export interface CursorPosition {
  readonly key: readonly (string | number)[];
  readonly query: string;
}

export function encodeCursor(position: CursorPosition): string {
  return base64UrlEncode(JSON.stringify(position));
}

export function decodeCursor(cursor: string, query: string): CursorPosition {
  let position: CursorPosition;
  try {
    position = JSON.parse(base64UrlDecode(cursor)) as CursorPosition;
  } catch {
    throw new ValidationError('invalid cursor: pass the nextCursor value from a previous page unchanged', { field: 'cursor' });
  }
  if (!position || !Array.isArray(position.key) || typeof position.query !== 'string') {
    throw new ValidationError('invalid cursor: pass the nextCursor value from a previous page unchanged', { field: 'cursor' });
  }
  if (position.query !== query) {
    throw new ValidationError('cursor belongs to a different query (filters or sort changed); start again without a cursor', { field: 'cursor' });
  }
  return position;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

function base64UrlEncode(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const chars = i + 2 < bytes.length ? 4 : i + 1 < bytes.length ? 3 : 2;
    for (let c = 0; c < chars; c++) out += ALPHABET[(n >> (18 - 6 * c)) & 63];
  }
  return out;
}

function base64UrlDecode(text: string): string {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new Error('not base64url');
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i += 4) {
    const chunk = text.slice(i, i + 4);
    let n = 0;
    for (let c = 0; c < 4; c++) n = (n << 6) | (c < chunk.length ? ALPHABET.indexOf(chunk[c]!) : 0);
    bytes.push((n >> 16) & 255);
    if (chunk.length > 2) bytes.push((n >> 8) & 255);
    if (chunk.length > 3) bytes.push(n & 255);
  }
  return new TextDecoder('utf-8', { fatal: true }).decode(new Uint8Array(bytes));
}
