import type { Principal } from '../../../ports/authorizer.js';
import { PmMcpHeaderMismatchError } from '../../errors/mcp-errors.js';
import { mcpHttpRequestFacts } from '../auth/request-isolation.js';
import type { McpCancellable, PmMcpDispatcher } from '../dispatcher.js';
import { classifyJsonRpcMessage, parseMcpFrame, serializeInvalidRequest, serializeJsonRpcError, type JsonRpcNotification, type JsonRpcRequest } from '../json-rpc.js';
import { decideMcpEra } from '../request-context.js';
import type { PmMcpServerDescriptor } from '../server-descriptor.js';
import { negotiateMcpHttpResponse } from './accept.js';
import { mcpHttpRejection, type McpHttpRejection } from './http-status.js';
import { validateMcpHttpRequestHeaders, type McpHttpHeaderOptions, type McpHttpHeaders } from './request-headers.js';
import { McpHttpResponseSink } from './response-sink.js';

/**
 * The runtime-neutral Streamable HTTP endpoint (seed 004 "Transport behavior": pm-mcp-http binds
 * the same dispatcher to sessionless Streamable HTTP POST; 2026-07-28
 * `basic/transports/streamable-http`; spec-notes §0, §6, §7, §11, §16.1). A host framework
 * (express in pm-mcp-http) reads the request, enforces Origin/Host and the body bound, and hands
 * the body text here with a responder. For each POST:
 *
 * 1. The body must be one JSON-RPC message: not JSON → 400 -32700; not a request or
 *    notification (batch, `id: null`, …) → 400 -32600. A posted response is ignored (202).
 * 2. Authorization, when configured: every request and notification on its own, with the scopes
 *    its operation needs; the principal reaches the dispatch through the transport facts.
 * 3. A notification is accepted with 202 and an empty body (the core defines none that act
 *    over HTTP: cancellation is closing the stream).
 * 4. The era is decided from the body (and a legacy `MCP-Protocol-Version`) **before** any
 *    modern header rule: initialize-era traffic goes to the legacy adapter, sessionless (each
 *    POST is its own connection; no session id is issued), so 2025-era clients keep working.
 * 5. Modern requests: the MCP headers are checked against the body
 *    ({@link validateMcpHttpRequestHeaders}); a mismatch is 400 -32020 echoing the request id.
 * 6. Accept is negotiated (see accept.ts); then the request runs on a fresh dispatcher connection.
 *    A lone result is `application/json`; request-scoped notifications before the result (progress
 *    with a progressToken, logs with a logLevel) and `subscriptions/listen` switch the response
 *    to an SSE stream (response-sink.ts). Closing the response aborts the request (a listen's
 *    subscription is deleted).
 *
 * Per-POST cost is kept low (issue 4 "Performance (benchmark)"): the message is parsed and
 * classified once (the dispatcher is handed the classified request), the host may register
 * cancellation with `onCancel` instead of creating an AbortController, a tool's header options
 * are built once per tool, and memoized results (lists, discover) reach a host that implements
 * `respondParts` as their cached UTF-8 bytes.
 *
 * HTTP statuses of JSON-RPC errors: {@link mcpHttpStatusForError}.
 */

/** One POST as the endpoint sees it. */
export interface McpHttpExchange {
  /** Request headers (any name case). */
  readonly headers: McpHttpHeaders;
  /** The body as text (UTF-8 decoded by the host), undefined when there was none. */
  readonly body: string | undefined;
  /** Aborted when the client goes away (its response stream closed). A host may give `onCancel` instead. */
  readonly signal?: AbortSignal;
  /**
   * The cheaper form of `signal` (no AbortController per POST): receives the running request;
   * the host calls its `abort` when the client goes away before the response is complete.
   */
  onCancel?(request: McpCancellable): void;
}

/** An open SSE response. */
export interface McpHttpEventStream {
  /** Writes one already formatted chunk (events, comments). */
  write(chunk: string): void;
  /** Ends the response. */
  end(): void;
}

/** How the endpoint answers (implemented by the host framework). */
export interface McpHttpResponder {
  /** A complete response: `body` is JSON text (Content-Type application/json) or absent (empty body). */
  respond(status: number, body?: string, headers?: Readonly<Record<string, string>>): void;
  /** Starts a 200 `text/event-stream` response (headers: MCP_SSE_HEADERS). */
  openEventStream(): McpHttpEventStream;
  /**
   * Optional: a complete `application/json` response given in parts (text, or UTF-8 bytes
   * written as they are) with their total byte length. Memoized results (lists, discover) are
   * answered this way, so a host that implements it never builds nor encodes their text per request.
   */
  respondParts?(status: number, parts: readonly (string | Uint8Array)[], byteLength: number): void;
}

/** Authorization of one message: the principal, or a rejection (401/403 with a challenge). */
export type McpHttpAuthorize = (input: { readonly authorization: string | undefined; readonly message: JsonRpcRequest | JsonRpcNotification }) => Promise<{ readonly principal: Principal } | { readonly rejection: McpHttpRejection }>;

/** Options of {@link PmMcpHttpEndpoint}. */
export interface PmMcpHttpEndpointOptions {
  readonly server: PmMcpServerDescriptor;
  readonly dispatcher: PmMcpDispatcher;
  /** Bearer-token authorization; absent = no authorization (no principal in the facts). */
  readonly authorize?: McpHttpAuthorize;
}

function headerText(headers: McpHttpHeaders, name: string): string | undefined {
  const raw = headers[name];
  return Array.isArray(raw) ? raw.join(', ') : (raw as string | undefined);
}

/** The endpoint over one dispatcher. Tracks in-flight POSTs for graceful shutdown. */
export class PmMcpHttpEndpoint {
  private active = 0;
  private closing = false;
  private readonly idleWaiters: (() => void)[] = [];
  private readonly toolHeaderOptions = new WeakMap<object, McpHttpHeaderOptions>();

  constructor(private readonly options: PmMcpHttpEndpointOptions) {}

  /** POSTs still being answered (listen streams included). */
  get inFlight(): number {
    return this.active;
  }

  /** Stops taking new POSTs (they get 503); in-flight ones finish. */
  close(): void {
    this.closing = true;
  }

  /** Resolves once no POST is in flight. */
  idle(): Promise<void> {
    if (this.active === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Answers one POST. Never throws for protocol problems: every rejection carries a JSON-RPC error body. */
  async handle(exchange: McpHttpExchange, responder: McpHttpResponder): Promise<void> {
    if (this.closing) {
      const rejection = mcpHttpRejection(503, 'Service unavailable: the server is shutting down', { headers: { Connection: 'close' } });
      responder.respond(rejection.status, rejection.body, rejection.headers);
      return;
    }
    this.active++;
    try {
      await this.handleMessage(exchange, responder);
    } finally {
      if (--this.active === 0) for (const wake of this.idleWaiters.splice(0)) wake();
    }
  }

  private async handleMessage(exchange: McpHttpExchange, responder: McpHttpResponder): Promise<void> {
    const parsed = parseMcpFrame(exchange.body ?? '');
    if (!parsed.ok) return responder.respond(400, parsed.response);
    const classified = classifyJsonRpcMessage(parsed.value);
    if (classified.kind === 'invalid') return responder.respond(400, serializeInvalidRequest(classified.id, classified.detail));
    if (classified.kind === 'response') return responder.respond(202);
    const message = classified.message;
    let principal: Principal | undefined;
    if (this.options.authorize) {
      const outcome = await this.options.authorize({ authorization: headerText(exchange.headers, 'authorization'), message });
      if ('rejection' in outcome) return reject(responder, outcome.rejection);
      principal = outcome.principal;
    }
    if (classified.kind === 'notification') return responder.respond(202);
    await this.handleRequest(classified.message, exchange, responder, principal);
  }

  private async handleRequest(request: JsonRpcRequest, exchange: McpHttpExchange, responder: McpHttpResponder, principal: Principal | undefined): Promise<void> {
    const headers = exchange.headers;
    // Fresh frozen facts per POST: credential headers removed, this request's principal only.
    const facts = mcpHttpRequestFacts(headers, principal);
    const era = decideMcpEra(request, facts);
    if (era === 'modern') {
      try {
        validateMcpHttpRequestHeaders(headers, request, this.headerOptions(request));
      } catch (error) {
        if (!(error instanceof PmMcpHeaderMismatchError)) throw error;
        return responder.respond(400, serializeJsonRpcError(request.id, error.toJsonRpcError()));
      }
    }
    const forms = negotiateMcpHttpResponse(headerText(headers, 'accept'));
    if (!forms.json && !forms.sse) {
      return reject(responder, mcpHttpRejection(406, 'Not acceptable: Accept must allow application/json or text/event-stream', { id: request.id }));
    }
    if (era === 'modern' && request.method === 'subscriptions/listen' && !forms.sse) {
      return reject(responder, mcpHttpRejection(406, 'Not acceptable: subscriptions/listen answers with an SSE stream; Accept must allow text/event-stream', { id: request.id }));
    }
    const sink = new McpHttpResponseSink(responder, request.id, era, forms);
    // The exchange is the dispatch options: its `signal` or `onCancel` carries the cancellation.
    await this.options.dispatcher.connect().handleRequest(request, facts, sink, exchange);
    // Cancelled (the client closed the response): nothing more is written; release the stream.
    sink.release();
  }

  /** The header options of a tools/call (the tool's advertised inputSchema), built once per tool. */
  private headerOptions(request: JsonRpcRequest): McpHttpHeaderOptions {
    if (request.method !== 'tools/call') return NO_HEADER_OPTIONS;
    const name = request.params?.name;
    const tool = typeof name === 'string' ? this.options.server.tools?.get(name) : undefined;
    if (!tool) return NO_HEADER_OPTIONS;
    let options = this.toolHeaderOptions.get(tool);
    if (options === undefined) {
      options = Object.freeze({ toolInputSchema: tool.inputSchema });
      this.toolHeaderOptions.set(tool, options);
    }
    return options;
  }
}

const NO_HEADER_OPTIONS: McpHttpHeaderOptions = Object.freeze({});

function reject(responder: McpHttpResponder, rejection: McpHttpRejection): void {
  responder.respond(rejection.status, rejection.body, rejection.headers);
}
