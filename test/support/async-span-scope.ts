import { AsyncLocalStorage } from 'node:async_hooks';
import type { ActiveSpanScope, MemorySpan } from '../../src/adapters/memory/memory-telemetry.js';

/** The in-memory telemetry's active span carried across `await` by node's AsyncLocalStorage (tests only). */
export class AsyncSpanScope implements ActiveSpanScope {
  private readonly storage = new AsyncLocalStorage<MemorySpan>();

  run<T>(span: MemorySpan, work: () => T): T {
    return this.storage.run(span, work);
  }

  active(): MemorySpan | undefined {
    return this.storage.getStore();
  }
}
