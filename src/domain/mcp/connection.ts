import type { MessageSink } from '../../ports/message-sink.js';
import type { DispatchOutcome, InboundExchange, LegacySessionState, TransportConnection } from '../../ports/transport.js';
import type { PmMcpDispatcher } from './dispatcher.js';
import { toMcpJsonRpcError } from './error-mapper.js';
import { McpInFlightRequest } from './in-flight.js';
import { classifyJsonRpcMessage, isJsonRpcId, outboundInvalidRequest, outboundJsonRpcError, parseMcpFrame, type JsonRpcNotification, type JsonRpcRequest } from './json-rpc.js';
import { legacyDisabledError, legacyLogLevelAfter, legacyStateAfter, PM_MCP_LEGACY_LOGGER } from './legacy-adapter.js';
import { isMcpToolErrorBody, type McpObservedOutcome, type McpRequestObservation } from './request-observer.js';
import { createMcpRequestNotifier, SILENT_MCP_NOTIFIER, type McpRequestNotifierHandle } from './notifier.js';
import { decideMcpEra, resolveMcpRequestContext, type McpLegacyConnectionState } from './request-context.js';
import { isPmMcpLegacyProtocolVersion, MCP_PROTOCOL_VERSION_HEADER, type McpEra, type McpLogLevel } from './protocol.js';
import { frozenJsonCopy } from './request-meta.js';
import type { JsonRpcId, McpClientCapabilities } from './wire-types.js';

/** What an observed request's run reports back to its observation. */
interface McpRunReport {
  readonly observation: McpRequestObservation;
  outcome: McpObservedOutcome;
  toolError?: boolean;
}

/** The exchange's sink, noting how the request ended in `report` (its final result or error). */
function reportingSink(sink: MessageSink, report: McpRunReport): MessageSink {
  return {
    send(message) {
      if (message.kind === 'result') report.outcome = { kind: 'result', toolError: report.toolError === true };
      else if (message.kind === 'error') report.outcome = { kind: 'error', code: message.code };
      sink.send(message);
    },
  };
}

/**
 * The connection state a transport handed back (its revision checked again: it came over the
 * wire); the extensions the session negotiated become its declared capabilities again.
 */
function legacyStateFrom(session: LegacySessionState): McpLegacyConnectionState | undefined {
  if (!isPmMcpLegacyProtocolVersion(session.revision)) return undefined;
  const extensions = session.extensions && Object.keys(session.extensions).length ? frozenJsonCopy({ extensions: session.extensions }) : Object.freeze({});
  return Object.freeze({ revision: session.revision, clientCapabilities: extensions as McpClientCapabilities, clientInfo: session.clientInfo && Object.freeze({ ...session.clientInfo }) });
}

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
 * read only by legacy requests (seed 004 "Legacy boundary": no effect on modern requests); a
 * transport without connections may hand it back through admission (pm-mcp-http's sealed
 * `Mcp-Session-Id`, docs/HTTP.md).
 */
export class PmMcpConnection implements TransportConnection {
  private legacy: McpLegacyConnectionState | undefined;
  private legacyLogLevel: McpLogLevel | undefined;
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
      const era = decideMcpEra(notification, exchange.facts, this.isModernOnly, this.legacy !== undefined);
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
    const key = idKey(request.id);
    if (this.inFlight.has(key)) {
      exchange.sink.send(outboundInvalidRequest(request.id, 'this id belongs to a request still in flight'));
      return 'answered';
    }
    const era = decideMcpEra(request, exchange.facts, this.isModernOnly, this.legacy !== undefined);
    const observation = this.dispatcher.observe(request, era, exchange.facts);
    if (!observation) return this.run(request, exchange, era, key, undefined);
    const report: McpRunReport = { observation, outcome: { kind: 'cancelled' } };
    try {
      return await observation.run(() => this.run(request, exchange, era, key, report));
    } finally {
      observation.end(report.outcome, exchange.responseStatus?.());
    }
  }

  private async run(request: JsonRpcRequest, exchange: InboundExchange, era: McpEra, key: string, report: McpRunReport | undefined): Promise<DispatchOutcome> {
    const { facts } = exchange;
    const sink = report ? reportingSink(exchange.sink, report) : exchange.sink;
    const dispatcher = this.dispatcher;
    const definition = dispatcher.methods.get(request.method);
    let principal = facts.principal;
    if (exchange.admit) {
      const decision = await exchange.admit(dispatcher.methods.admission(request, era));
      if (!decision.admitted) {
        if (report) report.outcome = { kind: 'refused' };
        return 'refused';
      }
      principal = decision.principal ?? principal;
      // A transport without connections (HTTP) hands back what an earlier initialize declared.
      if (era === 'legacy' && decision.legacySession && !this.legacy) this.legacy = legacyStateFrom(decision.legacySession);
    }
    if (era === 'legacy' && !dispatcher.legacy.enabled) {
      sink.send(outboundJsonRpcError(request.id, toMcpJsonRpcError(legacyDisabledError(request, facts.headers?.[MCP_PROTOCOL_VERSION_HEADER], dispatcher.legacy), era)));
      return 'answered';
    }
    const entry = new McpInFlightRequest();
    exchange.onCancel?.(entry);
    this.inFlight.set(key, entry);
    let notifier: McpRequestNotifierHandle | undefined;
    const server = dispatcher.server;
    // Modern: the server's `logging` and the request's own logLevel; legacy: the initialize-era `logging` and setLevel.
    const logsFor = (fieldsEra: McpEra) => Boolean(fieldsEra === 'modern' ? server.features.logging : server.legacyCapabilities.logging);
    try {
      const ctx = resolveMcpRequestContext(request, facts, {
        era,
        legacy: this.legacy,
        ...(this.legacyLogLevel ? { legacyLogLevel: this.legacyLogLevel } : {}),
        serverExtensions: server.extensions,
        legacySessionExtensions: server.legacySessionExtensions,
        ...(principal ? { principal } : {}),
        signal: entry.signal,
        // The request's own channel (listen streams): silent once cancelled or finished.
        channel: () => ({ send: (message) => { if (!entry.aborted && this.inFlight.get(key) === entry) sink.send(message); } }),
        notify: (fields) => {
          const logging = logsFor(fields.era);
          if (fields.progressToken === undefined && !(fields.logLevel && logging)) return SILENT_MCP_NOTIFIER;
          const guarded: MessageSink = { send: (message) => { if (!entry.aborted) sink.send(message); } };
          notifier = createMcpRequestNotifier(guarded, { progressToken: fields.progressToken, logLevel: fields.logLevel, loggingAdvertised: logging });
          return notifier.notifier;
        },
      });
      report?.observation.resolved?.(ctx);
      try {
        const response = await dispatcher.respond(ctx, request, definition, report && ((body) => void (report.toolError = isMcpToolErrorBody(request.method, body))));
        if (entry.aborted) return 'cancelled';
        if (era === 'legacy') notifier?.notifier.log('debug', { method: request.method, revision: ctx.revision, outcome: 'result' }, PM_MCP_LEGACY_LOGGER);
        notifier?.close();
        const legacy = legacyStateAfter(ctx);
        if (legacy) {
          this.legacy = legacy;
          await exchange.legacyInitialized?.({
            revision: legacy.revision,
            clientInfo: legacy.clientInfo && { name: legacy.clientInfo.name, version: legacy.clientInfo.version },
            ...(Object.keys(ctx.extensions).length ? { extensions: ctx.extensions } : {}),
          });
        }
        this.legacyLogLevel = legacyLogLevelAfter(ctx) ?? this.legacyLogLevel;
        sink.send(response);
        return 'answered';
      } catch (error) {
        if (era === 'legacy' && !entry.aborted) notifier?.notifier.log('error', { method: request.method, revision: ctx.revision, outcome: 'error', code: toMcpJsonRpcError(error, era).code }, PM_MCP_LEGACY_LOGGER);
        throw error;
      }
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
