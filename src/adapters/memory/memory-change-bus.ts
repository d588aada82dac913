import type { ChangeBus } from '../../ports/change-bus.js';

/**
 * A ChangeBus within one process (tests, embedding hosts): buses made from one hub hear each
 * other, as instances sharing a database do. Delivery is asynchronous (a microtask), like a
 * message that travels.
 */
export class MemoryChangeHub {
  private readonly listeners = new Set<(message: string) => void>();
  /** Every message published, in order (tests). */
  readonly published: string[] = [];

  /** A bus on this hub (one per simulated instance). */
  bus(maxMessageBytes = 8_000): ChangeBus {
    return {
      maxMessageBytes,
      publish: async (message: string) => {
        const bytes = new TextEncoder().encode(message).length;
        if (bytes > maxMessageBytes) throw new RangeError(`message of ${bytes} bytes exceeds ${maxMessageBytes}`);
        this.published.push(message);
        for (const listener of [...this.listeners]) queueMicrotask(() => listener(message));
      },
      subscribe: (onMessage) => {
        const listener = (message: string) => onMessage(message);
        this.listeners.add(listener);
        return () => void this.listeners.delete(listener);
      },
    };
  }
}
