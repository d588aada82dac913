/** A JSON-RPC id as the wire carries it (MCP: a string or an integer, never null). */
export type MessageId = string | number;

/**
 * A memoized result kept as UTF-8 bytes between a short head and tail, so a byte-oriented
 * transport writes the cached bytes as they are instead of building and encoding the text.
 * `head + body + tail` is exactly the message's `text`.
 */
export interface OutboundBytes {
  readonly head: string;
  readonly body: Uint8Array;
  readonly tail: string;
}

/**
 * One message written for the peer, typed by the writer (the dispatcher), so a transport
 * never re-reads JSON text to learn what it is carrying. `text` is always one line of JSON.
 */
export type OutboundMessage =
  /** A notification (progress, log, a listen stream's change) sent while its request runs. */
  | { readonly kind: 'notification'; readonly text: string }
  /** The final result of request `id`; `bytes` is present when the result was memoized. */
  | { readonly kind: 'result'; readonly id: MessageId; readonly text: string; readonly bytes?: OutboundBytes }
  /** The final error of request `id` (undefined when the id could not be read), with its JSON-RPC code. */
  | { readonly kind: 'error'; readonly id: MessageId | undefined; readonly code: number; readonly text: string };

/**
 * Where the dispatcher writes the messages of one exchange: a stdio process's output, one HTTP
 * response (JSON or an SSE stream), an in-memory outbox. Implemented by every transport.
 */
export interface MessageSink {
  send(message: OutboundMessage): void;
}
