import { utf8Length } from '../../util/utf8.js';
import type { McpPreSerializedSink } from '../dispatcher.js';
import type { PreSerializedJsonRpcResult } from '../json-rpc.js';
import type { McpEra } from '../protocol.js';
import type { JsonRpcId } from '../wire-types.js';
import type { McpHttpResponseForms } from './accept.js';
import type { McpHttpEventStream, McpHttpResponder } from './endpoint.js';
import { mcpHttpStatusForError } from './http-status.js';
import { classifyMcpOutbound, formatMcpSseEvent, mcpOutboundText } from './outbound.js';

/** UTF-8 length of a short text: its length when ASCII (ids usually are), else encoded. */
function textByteLength(text: string): number {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return utf8Length(text);
  return text.length;
}

/**
 * Where the dispatcher writes for one Streamable HTTP request (2026-07-28
 * `basic/transports/streamable-http` "Sending Messages to the Server"; spec-notes §6;
 * docs/HTTP.md "Responses"): a lone result or error becomes one `application/json` response
 * (status from {@link mcpHttpStatusForError}); request-scoped notifications before it switch the
 * response to an SSE stream, which the final message ends. JSON-only clients do not get the
 * optional notifications; SSE-only clients get every answer as a stream. Nothing is written
 * after the final message. One object per request (no closures).
 */
export class McpHttpResponseSink implements McpPreSerializedSink {
  private stream: McpHttpEventStream | undefined;
  private done = false;

  constructor(
    private readonly responder: McpHttpResponder,
    private readonly id: JsonRpcId,
    private readonly era: McpEra,
    private readonly forms: McpHttpResponseForms,
  ) {}

  /** True once the final message (result or error) was written. */
  get answered(): boolean {
    return this.done;
  }

  send(message: unknown): void {
    if (this.done) return;
    const kind = classifyMcpOutbound(message, this.id);
    const text = mcpOutboundText(message);
    if (kind.kind === 'notification') {
      if (!this.forms.sse) return; // JSON-only client: request-scoped notifications are optional, dropped
      this.stream ??= this.responder.openEventStream();
      this.stream.write(formatMcpSseEvent(text));
      return;
    }
    this.done = true;
    if (!this.stream && !this.forms.json) this.stream = this.responder.openEventStream();
    if (this.stream) {
      this.stream.write(formatMcpSseEvent(text));
      this.stream.end();
      return;
    }
    this.responder.respond(kind.kind === 'error' ? mcpHttpStatusForError(kind.code, this.era) : 200, text);
  }

  /**
   * A memoized result: written from its cached bytes when the response is a lone JSON result and
   * the responder writes parts; otherwise as text, like {@link send}.
   */
  sendPreSerialized(response: PreSerializedJsonRpcResult): void {
    const responder = this.responder;
    if (this.done || this.stream || !this.forms.json || responder.respondParts === undefined) return this.send(response.toString());
    this.done = true;
    const head = response.head;
    const bytes = response.result.bytes;
    const tail = response.tail;
    responder.respondParts(200, [head, bytes, tail], textByteLength(head) + bytes.length + textByteLength(tail));
  }

  /** Releases an open stream of a request that ended without a final message (cancelled). */
  release(): void {
    if (!this.done) this.stream?.end();
  }
}
