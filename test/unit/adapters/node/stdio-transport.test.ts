import { PassThrough, Writable } from 'node:stream';
import { StdioTransport } from '../../../../src/adapters/node/stdio-transport.js';
import type { McpPreSerializedSink } from '../../../../src/domain/mcp/dispatcher.js';
import { PreSerializedJson, PreSerializedJsonRpcResult } from '../../../../src/domain/mcp/json-rpc.js';
import type { MessageSink } from '../../../../src/ports/transport.js';

/** A writable that records each chunk the transport hands to the stream's underlying sink. */
function recorder(): { stream: Writable; writes: string[] } {
  const writes: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      writes.push(chunk.toString());
      done();
    },
    writev(chunks, done) {
      writes.push(chunks.map((c) => (c.chunk as Buffer).toString()).join(''));
      done();
    },
  });
  return { stream, writes };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

/** A started transport over a recorder, and the sink it handed to the handler of a first line. */
async function started(): Promise<{ transport: StdioTransport; sink: MessageSink; writes: string[] }> {
  const input = new PassThrough();
  const { stream, writes } = recorder();
  const transport = new StdioTransport(input, stream);
  let sink: MessageSink | undefined;
  await transport.start((_line, _facts, s) => {
    sink = s;
  });
  input.write('{}\n');
  await turn();
  return { transport, sink: sink!, writes };
}

describe('StdioTransport', () => {
  it('frames input lines (CRLF, blank lines, lines split across chunks)', async () => {
    const input = new PassThrough();
    const { stream } = recorder();
    const transport = new StdioTransport(input, stream);
    const lines: string[] = [];
    await transport.start((line, facts) => {
      expect(facts.kind).toBe('stdio');
      lines.push(line);
    });
    input.write('{"a":1}\r\n\n  \n{"b"');
    input.write(':2}\n{"c":3}');
    await turn();
    expect(lines).toEqual(['{"a":1}', '{"b":2}']);
    input.write('\n');
    await turn();
    expect(lines).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
    await transport.close();
  });

  it('writes the messages of one event-loop turn together, in order, one line each', async () => {
    const { transport, sink, writes } = await started();
    sink.send('{"id":1}');
    sink.send({ id: 2 });
    sink.send('{"id":3}');
    expect(writes).toEqual([]);
    await turn();
    expect(writes).toEqual(['{"id":1}\n{"id":2}\n{"id":3}\n']);
    sink.send('{"id":4}');
    await turn();
    expect(writes).toEqual(['{"id":1}\n{"id":2}\n{"id":3}\n', '{"id":4}\n']);
    await transport.close();
  });

  it('writes what is pending when it closes', async () => {
    const { transport, sink, writes } = await started();
    sink.send('{"id":1}');
    await transport.close();
    expect(writes.join('')).toBe('{"id":1}\n');
  });

  it('writes a pre-serialized result as the same line its text would be, from cached bytes', async () => {
    const { transport, sink, writes } = await started();
    const result = new PreSerializedJson('{"tools":[{"name":"é"}],"resultType":"complete"}');
    const responses = [new PreSerializedJsonRpcResult(7, result), new PreSerializedJsonRpcResult('a"b', result)];
    const preSerialized = sink as McpPreSerializedSink;
    expect(typeof preSerialized.sendPreSerialized).toBe('function');
    sink.send('{"id":1}');
    for (const response of responses) preSerialized.sendPreSerialized(response);
    await turn();
    expect(writes).toEqual([`{"id":1}\n${responses.map((r) => `${r.toString()}\n`).join('')}`]);
    expect(writes[0]!.split('\n').slice(1, 3).map((line) => JSON.parse(line))).toEqual([
      { jsonrpc: '2.0', id: 7, result: { tools: [{ name: 'é' }], resultType: 'complete' } },
      { jsonrpc: '2.0', id: 'a"b', result: { tools: [{ name: 'é' }], resultType: 'complete' } },
    ]);
    await transport.close();
  });
});
