import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AdmissionDecision, AdmissionRequest, Cancellable, InboundExchange, LegacySessionState, TransportFacts } from '../../ports/transport.js';
import { mcpHttpRequestFacts } from '../../domain/mcp/auth/request-isolation.js';
import { admitMcpHttpMessage, type McpHttpAuthorize } from '../../domain/mcp/http/admission.js';
import { mcpHttpRejection } from '../../domain/mcp/http/index.js';
import { PmMcpLegacySessionError, type PmMcpLegacySessions } from '../../domain/mcp/http/legacy-session.js';
import { writeRejection, type McpHttpResponder } from './http-responder.js';
import { McpHttpResponseSink } from './mcp-http-response-sink.js';

const CANCEL_TARGET = Symbol('pm.mcp.cancel');

type CancellableResponse = ServerResponse & { [CANCEL_TARGET]?: Cancellable };

const clientClosed = (): Error => new Error('the client closed the response');

/** The one 'close' listener of every MCP POST response (shared: no closure per request). */
export function abortOnResponseClose(this: CancellableResponse): void {
  const target = this[CANCEL_TARGET];
  if (target !== undefined && !this.writableFinished) target.abort(clientClosed());
}

/**
 * One POST as the dispatcher sees it (seed 004 "Transport behavior": sessionless, every POST its
 * own connection): fresh frozen facts (credential headers removed), the response sink, the
 * admission of its message (authorization, header rules, Accept; a refusal is answered here),
 * and cancellation registered on the response rather than created (closing the response aborts
 * the request; a listen stream's subscription is deleted).
 */
export class NodeMcpHttpExchange implements InboundExchange {
  readonly facts: TransportFacts;
  readonly sink: McpHttpResponseSink;

  constructor(
    private readonly req: IncomingMessage,
    private readonly res: CancellableResponse,
    responder: McpHttpResponder,
    private readonly authorize: McpHttpAuthorize | undefined,
    private readonly sessions?: PmMcpLegacySessions,
  ) {
    this.facts = mcpHttpRequestFacts(req.headers);
    this.sink = new McpHttpResponseSink(responder);
  }

  async admit(request: AdmissionRequest): Promise<AdmissionDecision> {
    const outcome = await admitMcpHttpMessage(request, this.req.headers, this.authorize);
    if ('rejection' in outcome) {
      writeRejection(this.res, outcome.rejection);
      return { admitted: false };
    }
    const session = request.era === 'legacy' ? await this.legacySession() : undefined;
    if (session === null) return { admitted: false };
    this.sink.admitted(request.era, outcome.forms);
    return { admitted: true, ...(outcome.principal ? { principal: outcome.principal } : {}), ...(session ? { legacySession: session } : {}) };
  }

  /**
   * The identity a legacy request's `Mcp-Session-Id` carries (undefined without one); null when
   * pm did not issue it, after answering 404 (2025-11-25 `basic/transports` "Session
   * Management": the client then initializes again). Modern requests never read the header.
   */
  private async legacySession(): Promise<LegacySessionState | null | undefined> {
    const header = this.req.headers['mcp-session-id'];
    if (header === undefined || !this.sessions) return undefined;
    try {
      if (typeof header !== 'string') throw new PmMcpLegacySessionError('malformed');
      const state = await this.sessions.open(header);
      const extensions = state.clientCapabilities.extensions;
      return { revision: state.revision, clientInfo: state.clientInfo && { name: state.clientInfo.name, version: state.clientInfo.version }, ...(extensions ? { extensions } : {}) };
    } catch (error) {
      if (!(error instanceof PmMcpLegacySessionError)) throw error;
      writeRejection(this.res, mcpHttpRejection(404, `Session not found: this Mcp-Session-Id was not issued by this server or is no longer accepted (${error.problem}); send initialize again without it`));
      return null;
    }
  }

  /** After a legacy initialize: the sealed identity as `Mcp-Session-Id` on its answer. */
  async legacyInitialized(state: LegacySessionState): Promise<void> {
    if (!this.sessions || this.res.headersSent) return;
    const id = await this.sessions.issue(state);
    if (id === undefined) return;
    this.res.setHeader('Mcp-Session-Id', id);
    if (this.res.hasHeader('Access-Control-Allow-Origin')) this.res.setHeader('Access-Control-Expose-Headers', 'WWW-Authenticate, Mcp-Session-Id');
  }

  responseStatus(): number | undefined {
    return this.res.headersSent ? this.res.statusCode : undefined;
  }

  onCancel(target: Cancellable): void {
    const res = this.res;
    res[CANCEL_TARGET] = target;
    if (res.destroyed && !res.writableFinished) target.abort(clientClosed());
  }
}
