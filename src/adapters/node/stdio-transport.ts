import type { Readable, Writable } from 'node:stream';
import type { McpPreSerializedSink } from '../../domain/mcp/dispatcher.js';
import type { InboundHandler, Transport } from '../../ports/transport.js';

/**
 * Newline-delimited JSON-RPC over a readable/writable pair (MCP stdio transport): one message
 * per line, no embedded newlines. Writes are serialized in order; nothing but protocol
 * messages is ever written to the output stream. The output is corked from the first message
 * of an event-loop turn until the next `setImmediate` (or close), so a burst of pipelined
 * responses leaves in one vectored write instead of one system call each. A memoized result
 * (tools/list pages, discover) is written as its cached UTF-8 bytes between a short head and
 * tail, so a 22 kB list is not rebuilt and re-encoded for every request.
 */
export class StdioTransport implements Transport {
  private buffer = '';
  private onData: ((chunk: Buffer | string) => void) | undefined;
  private readonly sink: McpPreSerializedSink;
  private corked = false;

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
  ) {
    this.sink = {
      send: (message) => {
        this.corkForTurn();
        this.output.write(`${typeof message === 'string' ? message : JSON.stringify(message)}\n`);
      },
      sendPreSerialized: (response) => {
        this.corkForTurn();
        this.output.write(response.head);
        this.output.write(response.result.bytes);
        this.output.write(`${response.tail}\n`);
      },
    };
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

  async start(handler: InboundHandler): Promise<void> {
    this.onData = (chunk) => {
      this.buffer += chunk.toString();
      let newline: number;
      while ((newline = this.buffer.indexOf('\n')) >= 0) {
        const line = this.buffer.slice(0, newline).replace(/\r$/, '');
        this.buffer = this.buffer.slice(newline + 1);
        if (line.trim()) handler(line, { kind: 'stdio' }, this.sink);
      }
    };
    this.input.on('data', this.onData);
  }

  async close(): Promise<void> {
    if (this.onData) this.input.off('data', this.onData);
    this.onData = undefined;
    this.uncork();
  }
}
