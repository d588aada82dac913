import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AdmissionDecision, AdmissionRequest, Cancellable, InboundExchange, TransportFacts } from '../../ports/transport.js';
import { mcpHttpRequestFacts } from '../../domain/mcp/auth/request-isolation.js';
import { admitMcpHttpMessage, type McpHttpAuthorize } from '../../domain/mcp/http/admission.js';
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
    this.sink.admitted(request.era, outcome.forms);
    return outcome.principal ? { admitted: true, principal: outcome.principal } : { admitted: true };
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
