import type { MessageSink, OutboundMessage } from '../../ports/message-sink.js';
import type { McpHttpResponseForms } from '../../domain/mcp/http/accept.js';
import { formatMcpSseEvent } from '../../domain/mcp/http/outbound.js';
import { mcpHttpStatusForError } from '../../domain/mcp/http/http-status.js';
import type { McpEra } from '../../domain/mcp/protocol.js';
import { utf8Length } from '../../domain/util/utf8.js';
import type { McpHttpEventStream, McpHttpResponder } from './http-responder.js';

/** UTF-8 length of a short text: its length when ASCII (heads usually are), else encoded. */
function textByteLength(text: string): number {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return utf8Length(text);
  return text.length;
}

const BOTH: McpHttpResponseForms = Object.freeze({ json: true, sse: true });

/**
 * Where the dispatcher writes for one Streamable HTTP POST (2026-07-28
 * `basic/transports/streamable-http` "Sending Messages to the Server"; docs/HTTP.md
 * "Responses"). The messages arrive typed, so nothing is re-read: a lone result or error
 * becomes one `application/json` response (an error's status from {@link mcpHttpStatusForError}
 * for the request's era); request-scoped notifications before it switch the response to an SSE
 * stream, which the final message ends. JSON-only clients do not get the optional
 * notifications; SSE-only clients get every answer as a stream. A memoized result is written
 * from its cached bytes. Nothing is written after the final message.
 */
export class McpHttpResponseSink implements MessageSink {
  private stream: McpHttpEventStream | undefined;
  private done = false;
  private era: McpEra = 'modern';
  private forms: McpHttpResponseForms = BOTH;

  constructor(private readonly responder: McpHttpResponder) {}

  /** True once the final message (result or error) was written. */
  get answered(): boolean {
    return this.done;
  }

  /** The admitted request's era (error statuses) and the forms its client accepts. */
  admitted(era: McpEra, forms: McpHttpResponseForms): void {
    this.era = era;
    this.forms = forms;
  }

  send(message: OutboundMessage): void {
    if (this.done) return;
    if (message.kind === 'notification') {
      if (!this.forms.sse) return; // JSON-only client: request-scoped notifications are optional, dropped
      this.stream ??= this.responder.openEventStream();
      this.stream.write(formatMcpSseEvent(message.text));
      return;
    }
    this.done = true;
    if (!this.stream && !this.forms.json) this.stream = this.responder.openEventStream();
    if (this.stream) {
      this.stream.write(formatMcpSseEvent(message.text));
      this.stream.end();
      return;
    }
    if (message.kind === 'error') return this.responder.respond(mcpHttpStatusForError(message.code, this.era), message.text);
    const bytes = message.bytes;
    if (bytes === undefined) return this.responder.respond(200, message.text);
    this.responder.respondParts(200, [bytes.head, bytes.body, bytes.tail], textByteLength(bytes.head) + bytes.body.length + textByteLength(bytes.tail));
  }

  /** Releases an open stream of a request that ended without a final message (cancelled). */
  release(): void {
    if (!this.done) this.stream?.end();
  }
}
