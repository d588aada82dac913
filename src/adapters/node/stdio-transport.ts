import type { Readable, Writable } from 'node:stream';
import type { MessageSink } from '../../ports/message-sink.js';
import type { DispatchOutcome, InboundExchange, Transport, TransportConnection, TransportPeer } from '../../ports/transport.js';

/**
 * Newline-delimited JSON-RPC over a readable/writable pair (MCP stdio transport, 2026-07-28
 * `basic/transports`): one message per line, no embedded newlines; every line goes to one
 * connection of the peer, and nothing but protocol messages is ever written to the output.
 * Writes are serialized in order. The output is corked from the first message of an
 * event-loop turn until the next `setImmediate` (or close), so a burst of pipelined responses
 * leaves in one vectored write instead of one system call each. A memoized result (tools/list
 * pages, discover) is written as its cached UTF-8 bytes between a short head and tail, so a
 * 22 kB list is not rebuilt and re-encoded for every request.
 */
export class StdioTransport implements Transport {
  private buffer = '';
  private onData: ((chunk: Buffer | string) => void) | undefined;
  private peer: TransportPeer | undefined;
  private readonly pending = new Set<Promise<DispatchOutcome>>();
  private readonly exchange: InboundExchange;
  private corked = false;

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
  ) {
    const sink: MessageSink = {
      send: (message) => {
        this.corkForTurn();
        if (message.kind === 'result' && message.bytes !== undefined) {
          const bytes = message.bytes;
          this.output.write(bytes.head);
          this.output.write(bytes.body);
          this.output.write(`${bytes.tail}\n`);
          return;
        }
        this.output.write(`${message.text}\n`);
      },
    };
    this.exchange = Object.freeze({ facts: Object.freeze({ kind: 'stdio' as const }), sink });
  }

  /** Requests still running. */
  get inFlight(): number {
    return this.pending.size;
  }

  private corkForTurn(): void {
    if (this.corked) return;
    this.corked = true;
    this.output.cork();
    setImmediate(this.uncork);
  }

  private readonly uncork = (): void => {
    if (!this.corked) return;
    this.corked = false;
    this.output.uncork();
  };

  /** Starts reading lines; all of them go to one connection of `peer` (a stdio process is one client). */
  async start(peer: TransportPeer): Promise<void> {
    this.peer = peer;
    const connection: TransportConnection = peer.connect();
    this.onData = (chunk) => {
      this.buffer += chunk.toString();
      let newline: number;
      while ((newline = this.buffer.indexOf('\n')) >= 0) {
        const line = this.buffer.slice(0, newline).replace(/\r$/, '');
        this.buffer = this.buffer.slice(newline + 1);
        if (!line.trim()) continue;
        const work = connection.dispatch(line, this.exchange).finally(() => this.pending.delete(work));
        this.pending.add(work);
      }
    };
    this.input.on('data', this.onData);
  }

  /** Stops reading, lets the peer end its listen streams, waits for in-flight requests, flushes. */
  async close(): Promise<void> {
    if (this.onData) this.input.off('data', this.onData);
    this.onData = undefined;
    this.peer?.drain();
    this.peer = undefined;
    await Promise.allSettled([...this.pending]);
    this.uncork();
  }
}
