import type { MessageSink, OutboundMessage } from '../../ports/message-sink.js';
import type { DispatchOutcome, InboundExchange, Transport, TransportConnection, TransportFacts, TransportPeer } from '../../ports/transport.js';

/**
 * A transport driven by the test or the embedding host: `deliver` feeds one frame to the
 * peer's single connection (as a stdio process would), `outbox` holds what was written, typed.
 */
export class MemoryTransport implements Transport {
  readonly outbox: OutboundMessage[] = [];
  private peer: TransportPeer | undefined;
  private connection: TransportConnection | undefined;
  private readonly pending = new Set<Promise<DispatchOutcome>>();
  private readonly sink: MessageSink = { send: (message) => void this.outbox.push(message) };

  async start(peer: TransportPeer): Promise<void> {
    this.peer = peer;
    this.connection = peer.connect();
  }

  /** Stops taking frames, lets the peer drain and waits for what is in flight. */
  async close(): Promise<void> {
    const peer = this.peer;
    this.connection = undefined;
    this.peer = undefined;
    peer?.drain();
    await Promise.allSettled([...this.pending]);
  }

  /** Delivers one frame; resolves with how it ended once everything for it was written. */
  deliver(frame: string, facts: TransportFacts = { kind: 'memory' }): Promise<DispatchOutcome> {
    if (!this.connection) throw new Error('transport not started');
    const exchange: InboundExchange = { facts, sink: this.sink };
    const work = this.connection.dispatch(frame, exchange).finally(() => this.pending.delete(work));
    this.pending.add(work);
    return work;
  }
}
