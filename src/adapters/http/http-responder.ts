import type { ServerResponse } from 'node:http';
import { MCP_SSE_HEADERS, MCP_SSE_KEEP_ALIVE, type McpHttpRejection } from '../../domain/mcp/http/index.js';

/**
 * How pm-mcp-http writes responses on node:http (docs/HTTP.md "Responses"). A single JSON
 * response is one `writeHead` with a flat header list (no per-response header object merged
 * from spreads) and one `end` with the whole body, so node sends head and body together; SSE
 * streams are written event by event with keep-alive comments.
 */

/** An open SSE response. */
export interface McpHttpEventStream {
  /** Writes one already formatted chunk (events, comments). */
  write(chunk: string): void;
  /** Ends the response. */
  end(): void;
}

/** How one exchange answers. */
export interface McpHttpResponder {
  /** A complete response: `body` is JSON text (Content-Type application/json) or absent (empty body). */
  respond(status: number, body?: string, headers?: Readonly<Record<string, string>>): void;
  /** A complete `application/json` response given in parts (text, or UTF-8 bytes written as they are). */
  respondParts(status: number, parts: readonly (string | Uint8Array)[], byteLength: number): void;
  /** Starts a 200 `text/event-stream` response (headers: MCP_SSE_HEADERS). */
  openEventStream(): McpHttpEventStream;
}

const JSON_TYPE = 'application/json';

/** Writes a complete JSON response (or an empty one): status, extra headers, Content-Length. */
export function writeJsonResponse(res: ServerResponse, status: number, body: string | undefined, headers?: Readonly<Record<string, string>>): void {
  if (res.headersSent || res.destroyed) return;
  if (headers === undefined) {
    if (body === undefined) res.writeHead(status, ['Content-Length', '0']);
    else res.writeHead(status, ['Content-Type', JSON_TYPE, 'Content-Length', String(Buffer.byteLength(body))]);
  } else {
    const list: string[] = [];
    for (const name in headers) list.push(name, headers[name]!);
    if (body !== undefined) list.push('Content-Type', JSON_TYPE);
    list.push('Content-Length', body === undefined ? '0' : String(Buffer.byteLength(body)));
    res.writeHead(status, list);
  }
  res.end(body);
}

/** Writes a rejection (its status, headers and JSON-RPC error body). */
export function writeRejection(res: ServerResponse, rejection: McpHttpRejection): void {
  writeJsonResponse(res, rejection.status, rejection.body, rejection.headers);
}

/**
 * The endpoint's responder over one node response. One object per request: `respond` is the
 * hot path; `openEventStream` switches the response to SSE (keep-alive every `keepAliveMs`).
 */
export class NodeMcpHttpResponder implements McpHttpResponder {
  constructor(
    private readonly res: ServerResponse,
    private readonly keepAliveMs: number,
  ) {}

  respond(status: number, body?: string, headers?: Readonly<Record<string, string>>): void {
    writeJsonResponse(this.res, status, body, headers);
  }

  respondParts(status: number, parts: readonly (string | Uint8Array)[], byteLength: number): void {
    const res = this.res;
    if (res.headersSent || res.destroyed) return;
    res.writeHead(status, ['Content-Type', JSON_TYPE, 'Content-Length', String(byteLength)]);
    // Node corks the socket for the writes of this tick and `end` flushes them together: one
    // vectored write, the byte parts referenced rather than copied.
    const last = parts.length - 1;
    for (let i = 0; i < last; i++) res.write(parts[i]);
    res.end(parts[last]);
  }

  openEventStream(): McpHttpEventStream {
    const res = this.res;
    res.writeHead(200, MCP_SSE_HEADERS);
    res.flushHeaders();
    const timer = setInterval(() => res.write(MCP_SSE_KEEP_ALIVE), this.keepAliveMs);
    timer.unref();
    res.once('close', () => clearInterval(timer));
    return {
      write: (chunk) => {
        if (!res.writableEnded) res.write(chunk);
      },
      end: () => {
        clearInterval(timer);
        if (!res.writableEnded) res.end();
      },
    };
  }
}
