import type { InboundHandler, MessageSink, Transport } from '../../ports/transport.js';

/** A transport driven by the test: deliver() feeds a frame in, sent() shows what went out. */
export class MemoryTransport implements Transport {
  private handler: InboundHandler | undefined;
  readonly outbox: unknown[] = [];
  private readonly sink: MessageSink = { send: (message) => this.outbox.push(message) };

  async start(handler: InboundHandler): Promise<void> {
    this.handler = handler;
  }

  async close(): Promise<void> {
    this.handler = undefined;
  }

  deliver(frame: string): void {
    if (!this.handler) throw new Error('transport not started');
    this.handler(frame, { kind: 'memory' }, this.sink);
  }
}
