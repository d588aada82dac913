import type { Principal } from './authorizer.js';

/** Facts a transport knows about one inbound message (MCP headers, Origin, principal). */
export interface TransportFacts {
  readonly kind: 'stdio' | 'http' | 'memory';
  readonly headers?: Readonly<Record<string, string | undefined>>;
  /** The caller the transport authenticated (HTTP bearer token); absent on stdio. */
  readonly principal?: Principal;
}

/** Where a handler writes messages for the peer (results, notifications). */
export interface MessageSink {
  send(message: unknown): void;
}

/** Handles one inbound, already framed message. */
export type InboundHandler = (message: string, facts: TransportFacts, sink: MessageSink) => void;

/**
 * A message transport: frames bytes into messages and delivers them to one handler.
 * Implemented by the stdio adapter (newline-delimited JSON) and the HTTP adapter.
 */
export interface Transport {
  start(handler: InboundHandler): Promise<void>;
  close(): Promise<void>;
}
