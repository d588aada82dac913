import type { IncomingMessage } from 'node:http';
import type { Readable, Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

/**
 * Reads one POST body for pm-mcp-http into a single Buffer, bounded (docs/HTTP.md "What happens
 * to one POST" step 3; no body-parser on the MCP path, see docs/BENCHMARKS.md bench:http). The
 * behaviour is the one the express body parser had, without its per-request layers:
 *
 * - no body (neither `Content-Length` nor `Transfer-Encoding`) → `undefined`;
 * - `Content-Encoding` gzip, deflate or br is inflated, the bound applying to the inflated bytes;
 *   another encoding is refused with 415 before anything is read; a corrupt stream is 400;
 * - past the bound (declared `Content-Length` or bytes received) → 413, answered only once the
 *   rest of the body has been read and discarded, so the client can read the response;
 * - a received size different from `Content-Length` → 400;
 * - a client that goes away mid-body gets no answer (`done` is not called).
 *
 * One chunk (the usual case: the body arrives with the headers) is handed over as is, no copy.
 */

/** A refusal of the body: the HTTP status (400, 413, 415) and what to tell the client. */
export interface RequestBodyRefusal {
  readonly status: number;
  readonly message: string;
  /** True for 413 (the connection is closed after the answer). */
  readonly tooLarge: boolean;
}

/** Called once with the body (undefined when the request has none) or a refusal. */
export type RequestBodyCallback = (refusal: RequestBodyRefusal | undefined, body: Buffer | undefined) => void;

function tooLarge(limit: number): RequestBodyRefusal {
  return { status: 413, message: `Payload too large: the body exceeds ${limit} bytes`, tooLarge: true };
}

function badRequest(status: number, message: string): RequestBodyRefusal {
  return { status, message: `Bad request: ${message}`, tooLarge: false };
}

/** True when the request carries a body (type-is `hasBody`). */
function hasBody(req: IncomingMessage): boolean {
  return req.headers['transfer-encoding'] !== undefined || !Number.isNaN(Number(req.headers['content-length'] ?? NaN));
}

function decoderFor(encoding: string): Transform | undefined {
  switch (encoding) {
    case 'gzip':
      return createGunzip();
    case 'deflate':
      return createInflate();
    case 'br':
      return createBrotliDecompress();
    default:
      return undefined;
  }
}

/** Reads `req`'s body (at most `limit` bytes) and calls `done` once. */
export function readRequestBody(req: IncomingMessage, limit: number, done: RequestBodyCallback): void {
  if (!hasBody(req)) return done(undefined, undefined);
  const encoding = req.headers['content-encoding'];
  if (encoding === undefined || encoding === 'identity' || encoding.toLowerCase() === 'identity') {
    const declared = req.headers['content-length'];
    const length = declared === undefined ? undefined : Number.parseInt(declared, 10);
    if (length !== undefined && length > limit) return drainThen(req, () => done(tooLarge(limit), undefined));
    return collect(req, req, limit, length, done);
  }
  const decoder = decoderFor(encoding.toLowerCase());
  if (!decoder) return done(badRequest(415, `unsupported content encoding "${encoding.toLowerCase()}"`), undefined);
  req.pipe(decoder);
  collect(req, decoder, limit, undefined, (refusal, body) => {
    req.unpipe(decoder);
    decoder.on('error', () => undefined);
    decoder.destroy();
    if (refusal) drainThen(req, () => done(refusal, undefined));
    else done(undefined, body);
  });
}

/** Collects `stream` (req itself, or its decoder) into one Buffer. */
function collect(req: IncomingMessage, stream: Readable, limit: number, length: number | undefined, done: RequestBodyCallback): void {
  let first: Buffer | undefined;
  let chunks: Buffer[] | undefined;
  let received = 0;
  let over = false;
  let settled = false;
  const onData = (chunk: Buffer): void => {
    if (over) return;
    received += chunk.length;
    if (received > limit) {
      over = true;
      first = chunks = undefined;
      if (stream !== req) finish(tooLarge(limit), undefined);
      return; // identity: keep reading (and discarding) to the end, then answer 413
    }
    if (first === undefined) first = chunk;
    else (chunks ??= [first]).push(chunk);
  };
  const onEnd = (): void => {
    if (over) return finish(tooLarge(limit), undefined);
    if (length !== undefined && received !== length) return finish(badRequest(400, 'request size did not match content length'), undefined);
    finish(undefined, chunks ? Buffer.concat(chunks, received) : (first ?? Buffer.alloc(0)));
  };
  // A corrupt encoded stream (the decoder fails) is 400.
  const onDecodeError = (error: Error): void => finish(badRequest(400, error.message), undefined);
  // The client went away mid-body: nobody is left to answer.
  const onAbort = (): void => {
    if (settled) return;
    settled = true;
    cleanup();
  };
  const cleanup = (): void => {
    stream.off('data', onData);
    stream.off('end', onEnd);
    req.off('error', onAbort);
    if (stream !== req) stream.off('error', onDecodeError);
  };
  const finish: RequestBodyCallback = (refusal, body) => {
    if (settled) return;
    settled = true;
    cleanup();
    done(refusal, body);
  };
  stream.on('data', onData);
  stream.on('end', onEnd);
  req.on('error', onAbort);
  if (stream !== req) stream.on('error', onDecodeError);
}

/** Reads and discards the rest of the body, then calls `then` (not when the client went away). */
function drainThen(req: IncomingMessage, then: () => void): void {
  if (req.complete) return then();
  req.once('end', then);
  req.on('error', () => req.off('end', then));
  req.resume();
}
