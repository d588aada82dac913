import type { MessageSink } from '../../ports/message-sink.js';
import type { DispatchOutcome, InboundExchange, TransportConnection } from '../../ports/transport.js';
import type { PmMcpDispatcher } from './dispatcher.js';
import { toMcpJsonRpcError } from './error-mapper.js';
import { McpInFlightRequest } from './in-flight.js';
import { classifyJsonRpcMessage, isJsonRpcId, outboundInvalidRequest, outboundJsonRpcError, parseMcpFrame, type JsonRpcNotification, type JsonRpcRequest } from './json-rpc.js';
import { legacyStateAfter } from './legacy-adapter.js';
import { createMcpRequestNotifier, SILENT_MCP_NOTIFIER, type McpRequestNotifierHandle } from './notifier.js';
import { decideMcpEra, resolveMcpRequestContext, type McpLegacyConnectionState } from './request-context.js';
import type { JsonRpcId } from './wire-types.js';

function idKey(id: JsonRpcId): string {
  return typeof id === 'number' ? `n:${id}` : `s:${id}`;
}

/**
 * One client connection of the dispatcher: a stdio process, or one HTTP POST. Its
 * {@link dispatch} is the one entry point for a framed message on every transport: parse
 * (-32700), classify (-32600; posted responses are accepted and ignored), decide the era once,
 * let the transport admit the message (HTTP: authorization, header rules, Accept), resolve the
 * request's immutable context, run it, and write its typed answer to the exchange's sink.
 * Requests run concurrently; a `notifications/cancelled` aborts the matching in-flight request,
 * after which nothing more is written for it. The legacy initialize state lives here and is
 * read only by legacy requests (seed 004 "Legacy boundary": no session id, no effect on modern
 * requests).
 */
export class PmMcpConnection implements TransportConnection {
  private legacy: McpLegacyConnectionState | undefined;
  private readonly inFlight = new Map<string, McpInFlightRequest>();
  private readonly isModernOnly: (method: string) => boolean;

  constructor(private readonly dispatcher: PmMcpDispatcher) {
    const methods = dispatcher.methods;
    this.isModernOnly = (method) => methods.isModernOnly(method);
  }

  /** Number of requests still running. */
  get inFlightCount(): number {
    return this.inFlight.size;
  }

  /** Handles one framed message; resolves once everything for it has been written. */
  async dispatch(frame: string, exchange: InboundExchange): Promise<DispatchOutcome> {
    const parsed = parseMcpFrame(frame);
    if (!parsed.ok) {
      exchange.sink.send(parsed.response);
      return 'answered';
    }
    const classified = classifyJsonRpcMessage(parsed.value);
    switch (classified.kind) {
      case 'invalid':
        exchange.sink.send(outboundInvalidRequest(classified.id, classified.detail));
        return 'answered';
      case 'response':
        return 'accepted'; // pm sends no requests, so responses from the client are ignored
      case 'notification':
        return this.notification(classified.message, exchange);
      case 'request':
        return this.request(classified.message, exchange);
    }
  }

  /** Aborts every in-flight request (shutdown); nothing more is written for them. */
  cancelAll(reason = 'connection closed'): void {
    for (const entry of this.inFlight.values()) entry.abort(reason);
  }

  private async notification(notification: JsonRpcNotification, exchange: InboundExchange): Promise<DispatchOutcome> {
    if (exchange.admit) {
      const era = decideMcpEra(notification, exchange.facts, this.isModernOnly);
      const decision = await exchange.admit(this.dispatcher.methods.admission(notification, era));
      if (!decision.admitted) return 'refused';
    }
    if (notification.method !== 'notifications/cancelled') return 'accepted'; // initialized and unknown notifications: no response
    const requestId = notification.params?.requestId;
    if (!isJsonRpcId(requestId)) return 'accepted'; // malformed cancels are ignored
    const reason = notification.params?.reason;
    this.inFlight.get(idKey(requestId))?.abort(typeof reason === 'string' ? reason : 'cancelled by client');
    return 'accepted';
  }

  private async request(request: JsonRpcRequest, exchange: InboundExchange): Promise<DispatchOutcome> {
    const { facts, sink } = exchange;
    const key = idKey(request.id);
    if (this.inFlight.has(key)) {
      sink.send(outboundInvalidRequest(request.id, 'this id belongs to a request still in flight'));
      return 'answered';
    }
    const dispatcher = this.dispatcher;
    const definition = dispatcher.methods.get(request.method);
    const era = decideMcpEra(request, facts, this.isModernOnly);
    let principal = facts.principal;
    if (exchange.admit) {
      const decision = await exchange.admit(dispatcher.methods.admission(request, era));
      if (!decision.admitted) return 'refused';
      principal = decision.principal ?? principal;
    }
    const entry = new McpInFlightRequest();
    exchange.onCancel?.(entry);
    this.inFlight.set(key, entry);
    let notifier: McpRequestNotifierHandle | undefined;
    const loggingAdvertised = Boolean(dispatcher.server.features.logging);
    try {
      const ctx = resolveMcpRequestContext(request, facts, {
        era,
        legacy: this.legacy,
        serverExtensions: dispatcher.server.extensions,
        ...(principal ? { principal } : {}),
        signal: entry.signal,
        // The request's own channel (listen streams): silent once cancelled or finished.
        channel: () => ({ send: (message) => { if (!entry.aborted && this.inFlight.get(key) === entry) sink.send(message); } }),
        notify: (fields) => {
          if (fields.progressToken === undefined && !(fields.logLevel && loggingAdvertised && fields.era === 'modern')) return SILENT_MCP_NOTIFIER;
          const guarded: MessageSink = { send: (message) => { if (!entry.aborted) sink.send(message); } };
          notifier = createMcpRequestNotifier(guarded, { progressToken: fields.progressToken, logLevel: fields.logLevel, loggingAdvertised: loggingAdvertised && fields.era === 'modern' });
          return notifier.notifier;
        },
      });
      const response = await dispatcher.respond(ctx, request, definition);
      notifier?.close();
      if (entry.aborted) return 'cancelled';
      const legacy = legacyStateAfter(ctx);
      if (legacy) this.legacy = legacy;
      sink.send(response);
      return 'answered';
    } catch (error) {
      notifier?.close();
      if (entry.aborted) return 'cancelled';
      dispatcher.reportInternal(error, request.method, request.id);
      sink.send(outboundJsonRpcError(request.id, toMcpJsonRpcError(error, era)));
      return 'answered';
    } finally {
      this.inFlight.delete(key);
    }
  }
}
