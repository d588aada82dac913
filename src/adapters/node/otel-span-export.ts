import type { MessagePort } from 'node:worker_threads';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { SpanBatchReader, type SpanBatch, type SpanBatchOrigin } from './otel-span-batch.js';

/**
 * The export thread's side of {@link WorkerSpanSink}: each batch posted to `port` becomes the
 * SDK's readable spans, handed one by one to `processor` (the official batch span processor over
 * the OTLP exporter, with the OTEL_BSP_* settings: its queue, batch size, delay and timeout apply
 * here as they would on the request thread); `'shutdown'` shuts the processor down, which exports
 * what it holds, then answers `'shut down'`.
 */
export function serveSpanExport(port: MessagePort, processor: SpanProcessor, origin: SpanBatchOrigin): void {
  const reader = new SpanBatchReader(origin);
  port.on('message', (message: SpanBatch | 'shutdown') => {
    if (message === 'shutdown') {
      void processor.shutdown().finally(() => port.postMessage('shut down'));
      return;
    }
    for (const span of reader.read(message)) processor.onEnd(span);
  });
}
