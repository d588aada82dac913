import type { Principal } from './authorizer.js';
import type { MessageId, MessageSink } from './message-sink.js';

/** Facts a transport knows about one inbound message (MCP headers, Origin, principal). */
export interface TransportFacts {
  readonly kind: 'stdio' | 'http' | 'memory';
  readonly headers?: Readonly<Record<string, string | undefined>>;
  /** The caller the transport authenticated (HTTP bearer token); absent on stdio. */
  readonly principal?: Principal;
}

/** The scope an operation needs: reading, or changing state. */
export type OperationScope = 'read' | 'write';

/**
 * What the peer has resolved about one inbound request or notification before it runs, from
 * the method's own declaration: the facts a transport needs to admit it (HTTP: the scopes to
 * authorize, the header that mirrors a body field, whether the answer is a stream).
 */
export interface AdmissionRequest {
  readonly kind: 'request' | 'notification';
  readonly id: MessageId | undefined;
  readonly method: string;
  readonly params: Readonly<Record<string, unknown>> | undefined;
  /** `modern` (per-request metadata) or `legacy` (initialize-era). */
  readonly era: 'modern' | 'legacy';
  /** The scope the operation needs (unknown methods: read). */
  readonly scope: OperationScope;
  /** The params field the request's name header mirrors (tools/call `name`, resources/read `uri`, …). */
  readonly nameSource: string | undefined;
  /** The tool's input schema of a tools/call (its `x-mcp-header` annotations), when the tool exists. */
  readonly headerSchema: object | undefined;
  /** True when the method answers with a stream of messages (subscriptions/listen). */
  readonly streams: boolean;
}

/** A transport's decision: run it (with the principal it authenticated), or it has answered itself. */
export type AdmissionDecision = { readonly admitted: true; readonly principal?: Principal; readonly legacySession?: LegacySessionState } | { readonly admitted: false };

/**
 * What a legacy client's `initialize` declared, as a transport carries it between requests
 * that share no connection (HTTP: a sealed `Mcp-Session-Id`): the revision, the client's
 * identity, and the extensions the session negotiated with the client's declarations of them
 * (e.g. MCP Apps; absent: none).
 */
export interface LegacySessionState {
  readonly revision: string;
  readonly clientInfo: { readonly name: string; readonly version: string } | undefined;
  readonly extensions?: Readonly<Record<string, unknown>>;
}

/** How one frame ended: answered; accepted without an answer (a notification or a posted response); refused by admission; cancelled. */
export type DispatchOutcome = 'answered' | 'accepted' | 'refused' | 'cancelled';

/** One in-flight request a transport can cancel (its client went away). */
export interface Cancellable {
  /** Aborts the request (idempotent); nothing more is written for it. */
  abort(reason: unknown): void;
}

/** One inbound frame's surroundings: its facts, where its answer goes, and the transport's hooks. */
export interface InboundExchange {
  readonly facts: TransportFacts;
  readonly sink: MessageSink;
  /** Decides whether a message may run, before it does (absent: always). */
  admit?(request: AdmissionRequest): Promise<AdmissionDecision> | AdmissionDecision;
  /** Receives the running request once, so the transport can abort it when its client goes away. */
  onCancel?(request: Cancellable): void;
  /**
   * Told, before the answer is written, what a successful legacy `initialize` declared, so a
   * transport without connections can hand it back on later requests (HTTP: `Mcp-Session-Id`).
   */
  legacyInitialized?(state: LegacySessionState): Promise<void> | void;
  /** The status the transport answered with so far (HTTP), for request observers; undefined before any. */
  responseStatus?(): number | undefined;
}

/** A connection of the peer: one stdio process, or one HTTP exchange. */
export interface TransportConnection {
  /** Handles one framed message; resolves once everything for it has been written. */
  dispatch(frame: string, exchange: InboundExchange): Promise<DispatchOutcome>;
  /** Aborts every in-flight request; nothing more is written for them. */
  cancelAll(reason?: string): void;
}

/** What a transport drives: the MCP dispatcher. */
export interface TransportPeer {
  connect(): TransportConnection;
  /** No more input is coming: long-lived answers (listen streams) end gracefully. */
  drain(): void;
}

/**
 * A message transport: frames bytes into messages and hands each to a connection of its peer
 * (stdio: newline-delimited JSON over one connection; Streamable HTTP: one POST body per
 * connection). `close` stops taking input, lets the peer drain, and waits for in-flight
 * exchanges to finish.
 */
export interface Transport {
  start(peer: TransportPeer): Promise<void>;
  close(): Promise<void>;
}
