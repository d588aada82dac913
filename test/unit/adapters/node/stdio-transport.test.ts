import { PassThrough, Writable } from 'node:stream';
import { StdioTransport } from '../../../../src/adapters/node/stdio-transport.js';
import { outboundJsonRpcResult, PreSerializedJson, PreSerializedJsonRpcResult } from '../../../../src/domain/mcp/json-rpc.js';
import type { MessageSink, OutboundMessage } from '../../../../src/ports/message-sink.js';
import type { DispatchOutcome, InboundExchange, TransportConnection, TransportPeer } from '../../../../src/ports/transport.js';

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

/** A peer that records each frame and exchange its one connection was handed, and whether it drained. */
class RecordingPeer implements TransportPeer {
  readonly frames: string[] = [];
  readonly exchanges: InboundExchange[] = [];
  connections = 0;
  drained = false;
  /** Frames whose dispatch is held until released (a request in flight). */
  private held: (() => void)[] = [];
  hold = false;

  connect(): TransportConnection {
    this.connections++;
    return {
      dispatch: (frame, exchange): Promise<DispatchOutcome> => {
        this.frames.push(frame);
        this.exchanges.push(exchange);
        if (!this.hold) return Promise.resolve('answered');
        return new Promise((resolve) => this.held.push(() => resolve('answered')));
      },
      cancelAll: () => undefined,
    };
  }

  drain(): void {
    this.drained = true;
  }

  release(): void {
    for (const release of this.held.splice(0)) release();
  }
}

const text = (id: number): OutboundMessage => outboundJsonRpcResult(id, { resultType: 'complete' });

/** A started transport over a recorder, and the sink it handed to the peer with a first line. */
async function started(): Promise<{ transport: StdioTransport; sink: MessageSink; writes: string[]; peer: RecordingPeer }> {
  const input = new PassThrough();
  const { stream, writes } = recorder();
  const transport = new StdioTransport(input, stream);
  const peer = new RecordingPeer();
  await transport.start(peer);
  input.write('{}\n');
  await turn();
  return { transport, sink: peer.exchanges[0]!.sink, writes, peer };
}

describe('StdioTransport', () => {
  it('frames input lines (CRLF, blank lines, lines split across chunks) into one connection of its peer', async () => {
    const input = new PassThrough();
    const { stream } = recorder();
    const transport = new StdioTransport(input, stream);
    const peer = new RecordingPeer();
    await transport.start(peer);
    input.write('{"a":1}\r\n\n  \n{"b"');
    input.write(':2}\n{"c":3}');
    await turn();
    expect(peer.frames).toEqual(['{"a":1}', '{"b":2}']);
    input.write('\n');
    await turn();
    expect(peer.frames).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
    expect(peer.connections).toBe(1);
    expect(peer.exchanges.every((e) => e.facts.kind === 'stdio' && e === peer.exchanges[0])).toBe(true);
    await transport.close();
  });

  it('writes the messages of one event-loop turn together, in order, one line each', async () => {
    const { transport, sink, writes } = await started();
    sink.send(text(1));
    sink.send({ kind: 'notification', text: '{"jsonrpc":"2.0","method":"n"}' });
    sink.send(text(3));
    expect(writes).toEqual([]);
    await turn();
    expect(writes).toEqual([`${text(1).text}\n{"jsonrpc":"2.0","method":"n"}\n${text(3).text}\n`]);
    sink.send(text(4));
    await turn();
    expect(writes[1]).toBe(`${text(4).text}\n`);
    await transport.close();
  });

  it('on close lets its peer drain, waits for requests in flight, and writes what is pending', async () => {
    const input = new PassThrough();
    const { stream, writes } = recorder();
    const transport = new StdioTransport(input, stream);
    const peer = new RecordingPeer();
    await transport.start(peer);
    peer.hold = true;
    input.write('{"id":1}\n');
    await turn();
    expect(transport.inFlight).toBe(1);
    peer.exchanges[0]!.sink.send(text(1));
    let closed = false;
    const closing = transport.close().then(() => (closed = true));
    await turn();
    expect(peer.drained).toBe(true);
    expect(closed).toBe(false);
    input.write('{"id":2}\n'); // no longer read
    peer.release();
    await closing;
    expect(peer.frames).toEqual(['{"id":1}']);
    expect(writes.join('')).toBe(`${text(1).text}\n`);
  });

  it('writes a pre-serialized result as the same line its text would be, from cached bytes', async () => {
    const { transport, sink, writes } = await started();
    const result = new PreSerializedJson('{"tools":[{"name":"é"}],"resultType":"complete"}');
    const responses = [new PreSerializedJsonRpcResult(7, result), new PreSerializedJsonRpcResult('a"b', result)];
    sink.send(text(1));
    for (const response of responses) sink.send(response);
    await turn();
    expect(writes).toEqual([`${text(1).text}\n${responses.map((r) => `${r.text}\n`).join('')}`]);
    expect(writes[0]!.split('\n').slice(1, 3).map((line) => JSON.parse(line))).toEqual([
      { jsonrpc: '2.0', id: 7, result: { tools: [{ name: 'é' }], resultType: 'complete' } },
      { jsonrpc: '2.0', id: 'a"b', result: { tools: [{ name: 'é' }], resultType: 'complete' } },
    ]);
    await transport.close();
  });
});
