import type { Cancellable } from '../../ports/transport.js';

/**
 * Cancellation state of one in-flight request. The AbortController is created only when the
 * handler first reads `ctx.signal` (most never do), which keeps the hot path allocation-light.
 */
export class McpInFlightRequest implements Cancellable {
  aborted = false;
  private reason: unknown;
  private controller: AbortController | undefined;

  readonly signal = (): AbortSignal => {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  };

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.controller?.abort(reason);
  }
}
