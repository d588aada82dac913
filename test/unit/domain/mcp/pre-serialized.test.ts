/**
 * The hot path's shortcuts (docs/BENCHMARKS.md bench:http, bench:mcp): memoized results leave
 * the dispatcher as typed messages carrying the cached UTF-8 bytes of the result, cancellation
 * is registered without an AbortController (`onCancel`), and Accept outcomes are kept per value.
 * Every shortcut must produce exactly what the plain path produces.
 */
import { BoundedCache } from '../../../../src/domain/util/bounded-cache.js';
import { negotiateMcpHttpResponse, PreSerializedJson, PreSerializedJsonRpcResult, serializeJsonRpcResult } from '../../../../src/domain/mcp/index.js';
import type { OutboundMessage } from '../../../../src/ports/message-sink.js';
import type { Cancellable } from '../../../../src/ports/transport.js';
import { McpHarness } from '../../../support/mcp-fake-server.js';
import { modernRequest } from '../../../support/mcp-http.js';

afterEach(() => BoundedCache.bypass(false));

async function dispatch(h: McpHarness, body: unknown, onCancel?: (c: Cancellable) => void): Promise<{ sent: OutboundMessage[]; outcome: string }> {
  const sent: OutboundMessage[] = [];
  const outcome = await h.dispatcher.connect().dispatch(JSON.stringify(body), { facts: { kind: 'http' }, sink: { send: (m) => sent.push(m) }, ...(onCancel ? { onCancel } : {}) });
  return { sent, outcome };
}

describe('pre-serialized results', () => {
  test('bytes are the UTF-8 of the text; head + result + tail is the serialized response', () => {
    const json = new PreSerializedJson('{"tools":[{"name":"é→"}]}');
    expect(json.bytes).toEqual(new TextEncoder().encode(json.json));
    expect(json.bytes).toBe(json.bytes); // encoded once
    for (const id of [7, 'ïd']) {
      const response = new PreSerializedJsonRpcResult(id, json);
      const { head, body, tail } = response.bytes;
      expect(`${head}${new TextDecoder().decode(body)}${tail}`).toBe(serializeJsonRpcResult(id, json));
      expect(response.text).toBe(serializeJsonRpcResult(id, json));
      expect(response.kind).toBe('result');
    }
  });

  test('a memoized result leaves the dispatcher with its cached bytes and the same text as the plain path', async () => {
    const h = new McpHarness();
    const list = modernRequest(1, 'tools/list').body;
    const memoized = (await dispatch(h, list)).sent[0]!;
    expect(memoized).toBeInstanceOf(PreSerializedJsonRpcResult);
    expect(memoized.kind === 'result' && memoized.bytes).toBeTruthy();
    BoundedCache.bypass(true);
    const plain = (await dispatch(h, list)).sent[0]!;
    expect(plain.text).toBe(memoized.text);
    // A result that is not memoized (a tool call) carries text only.
    BoundedCache.bypass(false);
    const call = (await dispatch(h, modernRequest(2, 'tools/call', { name: 'echo', arguments: { text: 'hi' } }).body)).sent[0]!;
    expect(call).toMatchObject({ kind: 'result', id: 2 });
    expect(call.kind === 'result' && call.bytes).toBeFalsy();
  });

  test('errors travel typed with their code; nothing re-reads their text', async () => {
    const h = new McpHarness();
    const { sent } = await dispatch(h, modernRequest(3, 'no/such').body);
    expect(sent[0]).toMatchObject({ kind: 'error', id: 3, code: -32601 });
    expect(JSON.parse(sent[0]!.text)).toMatchObject({ id: 3, error: { code: -32601 } });
    const parse = await h.dispatcher.connect().dispatch('{not json', { facts: { kind: 'http' }, sink: { send: (m) => expect(m).toMatchObject({ kind: 'error', id: undefined, code: -32700 }) } });
    expect(parse).toBe('answered');
  });
});

describe('cancellation without an AbortController', () => {
  const slow = (id: number) => modernRequest(id, 'tools/call', { name: 'slow', arguments: {} }).body;

  test('onCancel receives the running request; aborting it suppresses the answer and aborts ctx.signal', async () => {
    const h = new McpHarness();
    const registered: Cancellable[] = [];
    const running = dispatch(h, slow(1), (c) => void registered.push(c));
    await Promise.resolve();
    expect(registered).toHaveLength(1);
    registered[0]!.abort(new Error('the client closed the response'));
    const { sent, outcome } = await running;
    expect({ sent, outcome }).toEqual({ sent: [], outcome: 'cancelled' });
    expect(h.state.seenSignals[0]!.aborted).toBe(true);
    expect((h.state.seenSignals[0]!.reason as Error).message).toBe('the client closed the response');
  });

  test('a request that finishes is answered; aborting it afterwards changes nothing', async () => {
    const h = new McpHarness();
    let cancellable: Cancellable | undefined;
    h.state.gate.open();
    const { sent, outcome } = await dispatch(h, slow(2), (c) => (cancellable = c));
    expect(outcome).toBe('answered');
    expect(sent).toHaveLength(1);
    cancellable!.abort('late');
    expect(sent).toHaveLength(1);
  });
});

describe('Accept outcomes kept per value', () => {
  const values = ['application/json, text/event-stream', 'application/json', ...Array.from({ length: 100 }, (_, i) => `text/event-stream;q=0.${(i % 9) + 1}, x/y${i}`), 'text/html'];

  test('repeated and many distinct values keep their meaning, the same with caching bypassed', () => {
    const cached = [0, 1, 2].flatMap(() => values.map((v) => negotiateMcpHttpResponse(v)));
    BoundedCache.bypass(true);
    const plain = [0, 1, 2].flatMap(() => values.map((v) => negotiateMcpHttpResponse(v)));
    expect(cached).toEqual(plain);
    expect(cached.slice(0, 2)).toEqual([{ json: true, sse: true }, { json: true, sse: false }]);
    expect(cached[values.length - 1]).toEqual({ json: false, sse: false });
    expect(Object.isFrozen(negotiateMcpHttpResponse('application/json'))).toBe(true);
  });
});
