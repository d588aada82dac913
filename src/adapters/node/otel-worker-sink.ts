import { once } from 'node:events';
import type { Worker } from 'node:worker_threads';
import type { ClosableSpanSink } from './otel-processor-sink.js';
import type { OtelRecordedSpan } from './otel-recorded-span.js';
import { SpanBatchWriter } from './otel-span-batch.js';

/**
 * Ended spans sent to an export thread ({@link serveSpanExport} runs there) in batches: a traced
 * request only writes its spans' fields as numbers ({@link SpanBatchWriter}; OpenTelemetry trace SDK "Span processor":
 * OnEnd must not block), and every `maxSpans` spans, or `delayMs` after the first span of a
 * batch, the batch is posted to the thread, where the official batch span processor and OTLP
 * exporter turn it into readable spans, serialize and send it. The request's thread then spends
 * nothing on serialization or the exporter's HTTP requests. Shutdown posts what is left and waits
 * for the thread to export it (the processor's shutdown) before ending the thread.
 */
export class WorkerSpanSink implements ClosableSpanSink {
  private readonly writer = new SpanBatchWriter();
  private spans = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly flushSoon = () => this.flush();
  /** Set when the export thread failed: spans are dropped from then on (the server keeps serving). */
  private failed = false;

  constructor(
    private readonly worker: Worker,
    private readonly maxSpans: number,
    private readonly delayMs: number,
  ) {
    worker.unref(); // the export thread never keeps the process alive
    worker.once('error', () => {
      this.failed = true; // an uncaught error ended the thread; its spans are lost, as with a failed export
    });
  }

  ended(span: OtelRecordedSpan): void {
    if (this.failed) return;
    this.writer.append(span);
    if (++this.spans >= this.maxSpans) this.flush();
    else if (this.timer === undefined) (this.timer = setTimeout(this.flushSoon, this.delayMs)).unref();
  }

  /** Posts the spans gathered so far. */
  flush(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.spans === 0 || this.failed) return;
    this.spans = 0;
    const batch = this.writer.take();
    this.worker.postMessage(batch, [batch.numbers.buffer as ArrayBuffer]); // the numbers move, uncopied
  }

  async shutdown(): Promise<void> {
    this.flush();
    if (this.failed) return;
    const done = once(this.worker, 'message');
    this.worker.postMessage('shutdown');
    await Promise.race([done, once(this.worker, 'exit')]);
    await this.worker.terminate();
  }
}
