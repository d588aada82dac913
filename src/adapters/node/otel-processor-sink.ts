import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { FinishedSpanSink } from './otel-recorded-span.js';
import type { OtelRecordedSpan } from './otel-recorded-span.js';
import { SpanBatchReader, SpanBatchWriter, type SpanBatchOrigin } from './otel-span-batch.js';

/** A finished-span sink that can flush what it holds and stop (process shutdown). */
export interface ClosableSpanSink extends FinishedSpanSink {
  shutdown(): Promise<void>;
}

/**
 * Ended spans handed to the official SDK's span processors on this thread, each as soon as it
 * ends (OpenTelemetry trace SDK "Span processor": OnEnd), through the same batch encoding the
 * export thread reads ({@link SpanBatchReader}), so both paths produce the same readable spans. Used
 * by tests (a simple processor over the in-memory exporter) and by pm-mcp over stdio, whose
 * single-file bundle carries no worker script. The processors' OnStart is not called: the batch
 * and simple processors pm composes do nothing there.
 */
export class ProcessorSpanSink implements ClosableSpanSink {
  private readonly writer = new SpanBatchWriter(64);
  private readonly reader: SpanBatchReader;

  constructor(
    private readonly processors: readonly SpanProcessor[],
    origin: SpanBatchOrigin,
  ) {
    this.reader = new SpanBatchReader(origin);
  }

  ended(span: OtelRecordedSpan): void {
    this.writer.append(span);
    const [readable] = this.reader.read(this.writer.take());
    for (const processor of this.processors) processor.onEnd(readable!);
  }

  async shutdown(): Promise<void> {
    await Promise.all(this.processors.map((processor) => processor.shutdown()));
  }
}
