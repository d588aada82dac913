/**
 * How one POST's typed messages become an HTTP response: a lone result or error is one JSON
 * response (an error's status by its code and the request's era), notifications switch to an
 * SSE stream the final message ends, JSON-only clients lose only the optional notifications,
 * SSE-only clients get everything as events, memoized results go out from their cached bytes.
 */
import type { McpHttpEventStream, McpHttpResponder } from '../../../../src/adapters/http/http-responder.js';
import { McpHttpResponseSink } from '../../../../src/adapters/http/mcp-http-response-sink.js';
import { outboundJsonRpcError, outboundJsonRpcNotification, outboundJsonRpcResult, PreSerializedJson, PreSerializedJsonRpcResult } from '../../../../src/domain/mcp/json-rpc.js';

interface Reply {
  status?: number;
  body?: string;
  via?: 'respond' | 'parts' | 'stream';
  chunks: string[];
  ended: boolean;
}

function responder(): { responder: McpHttpResponder; reply: Reply } {
  const reply: Reply = { chunks: [], ended: false };
  const stream: McpHttpEventStream = { write: (chunk) => void reply.chunks.push(chunk), end: () => void (reply.ended = true) };
  return {
    reply,
    responder: {
      respond: (status, body) => void Object.assign(reply, { status, body, via: 'respond' }),
      respondParts: (status, parts, byteLength) => {
        const bytes = Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));
        expect(bytes.length).toBe(byteLength);
        Object.assign(reply, { status, via: 'parts', body: bytes.toString('utf8') });
      },
      openEventStream: () => {
        Object.assign(reply, { status: 200, via: 'stream' });
        return stream;
      },
    },
  };
}

const BOTH = { json: true, sse: true };
const result = outboundJsonRpcResult(1, { resultType: 'complete' });
const progress = outboundJsonRpcNotification('notifications/progress', { progressToken: 1, progress: 1 });

describe('McpHttpResponseSink', () => {
  test('a lone result is one JSON response; nothing is written after the final message', () => {
    const { responder: r, reply } = responder();
    const sink = new McpHttpResponseSink(r);
    sink.admitted('modern', BOTH);
    sink.send(result);
    sink.send(progress);
    expect(reply).toMatchObject({ status: 200, via: 'respond', body: result.text });
    expect(sink.answered).toBe(true);
  });

  test('error statuses follow the code and the era', () => {
    for (const [era, code, status] of [['modern', -32602, 400], ['modern', -32601, 404], ['modern', -32603, 200], ['legacy', -32602, 200], ['legacy', -32600, 400]] as const) {
      const { responder: r, reply } = responder();
      const sink = new McpHttpResponseSink(r);
      sink.admitted(era, BOTH);
      sink.send(outboundJsonRpcError(1, { code, message: 'x' }));
      expect({ era, code, status: reply.status }).toEqual({ era, code, status });
    }
    const { responder: r, reply } = responder(); // before admission (a parse error): 400
    new McpHttpResponseSink(r).send(outboundJsonRpcError(undefined, { code: -32700, message: 'x' }));
    expect(reply.status).toBe(400);
  });

  test('notifications before the result switch to an SSE stream the result ends; JSON-only clients drop them', () => {
    const sse = responder();
    const sink = new McpHttpResponseSink(sse.responder);
    sink.admitted('modern', BOTH);
    sink.send(progress);
    sink.send(result);
    expect(sse.reply).toMatchObject({ via: 'stream', chunks: [`data: ${progress.text}\n\n`, `data: ${result.text}\n\n`], ended: true });
    const json = responder();
    const jsonOnly = new McpHttpResponseSink(json.responder);
    jsonOnly.admitted('modern', { json: true, sse: false });
    jsonOnly.send(progress);
    jsonOnly.send(result);
    expect(json.reply).toMatchObject({ via: 'respond', body: result.text });
  });

  test('SSE-only clients get even a lone result as one event', () => {
    const { responder: r, reply } = responder();
    const sink = new McpHttpResponseSink(r);
    sink.admitted('modern', { json: false, sse: true });
    sink.send(result);
    expect(reply).toMatchObject({ via: 'stream', chunks: [`data: ${result.text}\n\n`], ended: true });
  });

  test('a memoized result goes out in parts, byte for byte its text', () => {
    const { responder: r, reply } = responder();
    const sink = new McpHttpResponseSink(r);
    const memoized = new PreSerializedJsonRpcResult('ïd', new PreSerializedJson('{"tools":[{"name":"é"}],"resultType":"complete"}'));
    sink.send(memoized);
    expect(reply).toMatchObject({ via: 'parts', status: 200, body: memoized.text });
  });

  test('release ends a stream that never got its final message (cancelled), and only then', () => {
    const { responder: r, reply } = responder();
    const sink = new McpHttpResponseSink(r);
    sink.send(progress);
    sink.release();
    expect(reply.ended).toBe(true);
  });
});
