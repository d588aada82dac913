/**
 * The Streamable HTTP hot path (issue 4 "Performance (benchmark)"; docs/BENCHMARKS.md bench:http):
 * memoized results leave the dispatcher pre-serialized and reach byte hosts as parts (the cached
 * UTF-8 bytes of the result, never rebuilt per request), cancellation is registered without an
 * AbortController (`onCancel`), and Accept outcomes are memoized. Every shortcut must produce
 * exactly what the plain path produces.
 */
import {
  negotiateMcpHttpResponse,
  PmMcpHttpEndpoint,
  PreSerializedJson,
  PreSerializedJsonRpcResult,
  serializeJsonRpcResult,
  type McpCancellable,
  type McpHttpResponder,
  type McpPreSerializedSink,
} from '../../../../src/domain/mcp/index.js';
import { McpHarness } from '../../../support/mcp-fake-server.js';
import { modernRequest } from '../../../support/mcp-http.js';

interface Reply {
  status?: number;
  body?: string;
  via?: 'respond' | 'parts' | 'stream';
  chunks: string[];
}

/** A responder; with `parts`, it also implements respondParts (as the node host does). */
function responder(parts: boolean): { responder: McpHttpResponder; reply: Reply } {
  const reply: Reply = { chunks: [] };
  const base: McpHttpResponder = {
    respond: (status, body) => Object.assign(reply, { status, body, via: 'respond' }),
    openEventStream: () => {
      Object.assign(reply, { status: 200, via: 'stream' });
      return { write: (chunk) => void reply.chunks.push(chunk), end: () => undefined };
    },
  };
  if (!parts) return { responder: base, reply };
  return {
    reply,
    responder: {
      ...base,
      respondParts: (status, list, byteLength) => {
        const bytes = list.map((p) => (typeof p === 'string' ? new TextEncoder().encode(p) : p));
        const total = bytes.reduce((n, b) => n + b.length, 0);
        expect(total).toBe(byteLength);
        Object.assign(reply, { status, via: 'parts', body: new TextDecoder().decode(Buffer.concat(bytes)) });
      },
    },
  };
}

describe('pre-serialized results', () => {
  test('bytes are the UTF-8 of the text; head + result + tail is the serialized response', () => {
    const json = new PreSerializedJson('{"tools":[{"name":"é→"}]}');
    expect(json.bytes).toEqual(new TextEncoder().encode(json.json));
    expect(json.bytes).toBe(json.bytes); // encoded once
    for (const id of [7, 'ïd']) {
      const response = new PreSerializedJsonRpcResult(id, json);
      expect(`${response.head}${json.json}${response.tail}`).toBe(serializeJsonRpcResult(id, json));
      expect(response.toString()).toBe(serializeJsonRpcResult(id, json));
    }
  });

  test('the dispatcher hands memoized results to a pre-serialized sink, the same text to any other sink', async () => {
    const h = new McpHarness();
    const list = modernRequest(1, 'tools/list').body as never;
    const plain: unknown[] = [];
    await h.dispatcher.connect().handleMessage(list, { kind: 'http' }, { send: (m) => plain.push(m) });
    const taken: unknown[] = [];
    const sink: McpPreSerializedSink = { send: (m) => taken.push(m), sendPreSerialized: (r) => taken.push(r) };
    await h.dispatcher.connect().handleRequest(list, { kind: 'http' }, sink);
    expect(taken).toHaveLength(1);
    expect(taken[0]).toBeInstanceOf(PreSerializedJsonRpcResult);
    expect(String(taken[0])).toBe(plain[0]);
    // A result that is not memoized (a tool call) is text on both.
    const call = modernRequest(2, 'tools/call', { name: 'echo', arguments: { text: 'hi' } }).body as never;
    taken.length = 0;
    await h.dispatcher.connect().handleRequest(call, { kind: 'http' }, sink);
    expect(typeof taken[0]).toBe('string');
  });

  test('the endpoint answers a memoized result in parts when the host can, byte for byte the same response', async () => {
    const h = new McpHarness();
    const endpoint = new PmMcpHttpEndpoint({ server: h.server, dispatcher: h.dispatcher });
    const list = modernRequest(1, 'tools/list');
    const text = responder(false);
    await endpoint.handle({ headers: list.headers, body: JSON.stringify(list.body) }, text.responder);
    const parts = responder(true);
    await endpoint.handle({ headers: list.headers, body: JSON.stringify(list.body) }, parts.responder);
    expect(text.reply.via).toBe('respond');
    expect(parts.reply.via).toBe('parts');
    expect(parts.reply).toMatchObject({ status: 200, body: text.reply.body });
    // SSE-only clients still get the result as one event.
    const sse = responder(true);
    await endpoint.handle({ headers: { ...list.headers, accept: 'text/event-stream' }, body: JSON.stringify(list.body) }, sse.responder);
    expect(sse.reply.via).toBe('stream');
    expect(sse.reply.chunks).toEqual([`data: ${text.reply.body}\n\n`]);
  });
});

describe('cancellation without an AbortController', () => {
  const slow = (id: number) => modernRequest(id, 'tools/call', { name: 'slow', arguments: {} });

  test('onCancel receives the running request; aborting it suppresses the answer and aborts ctx.signal', async () => {
    const h = new McpHarness();
    const endpoint = new PmMcpHttpEndpoint({ server: h.server, dispatcher: h.dispatcher });
    const request = slow(1);
    const registered: McpCancellable[] = [];
    const { responder: r, reply } = responder(true);
    const running = endpoint.handle({ headers: request.headers, body: JSON.stringify(request.body), onCancel: (c) => void registered.push(c) }, r);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(registered).toHaveLength(1);
    registered[0]!.abort(new Error('the client closed the response'));
    await running;
    expect(reply.status).toBeUndefined();
    expect(h.state.seenSignals[0]!.aborted).toBe(true);
    expect((h.state.seenSignals[0]!.reason as Error).message).toBe('the client closed the response');
  });

  test('a request that finishes is answered; aborting it afterwards changes nothing', async () => {
    const h = new McpHarness();
    const endpoint = new PmMcpHttpEndpoint({ server: h.server, dispatcher: h.dispatcher });
    const request = slow(2);
    let cancellable: McpCancellable | undefined;
    const { responder: r, reply } = responder(true);
    h.state.gate.open();
    await endpoint.handle({ headers: request.headers, body: JSON.stringify(request.body), onCancel: (c) => (cancellable = c) }, r);
    expect(reply.status).toBe(200);
    cancellable!.abort('late');
    expect(reply.status).toBe(200);
  });
});

describe('Accept memo', () => {
  test('repeated and many distinct values keep their meaning', () => {
    for (let round = 0; round < 3; round++) {
      expect(negotiateMcpHttpResponse('application/json, text/event-stream')).toEqual({ json: true, sse: true });
      expect(negotiateMcpHttpResponse('application/json')).toEqual({ json: true, sse: false });
      for (let i = 0; i < 100; i++) expect(negotiateMcpHttpResponse(`text/event-stream;q=0.${i % 9 + 1}, x/y${i}`)).toEqual({ json: false, sse: true });
      expect(negotiateMcpHttpResponse('text/html')).toEqual({ json: false, sse: false });
    }
    expect(Object.isFrozen(negotiateMcpHttpResponse('application/json'))).toBe(true);
  });
});
