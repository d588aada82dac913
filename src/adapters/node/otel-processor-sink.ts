import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { FinishedSpanSink } from './otel-recorded-span.js';
import type { OtelRecordedSpan } from './otel-recorded-span.js';
import { appendSpan, readableSpans, type SpanBatchOrigin } from './otel-span-batch.js';

/** A finished-span sink that can flush what it holds and stop (process shutdown). */
export interface ClosableSpanSink extends FinishedSpanSink {
  shutdown(): Promise<void>;
}

/**
 * Ended spans handed to the official SDK's span processors on this thread, each as soon as it
 * ends (OpenTelemetry trace SDK "Span processor": OnEnd), through the same batch encoding the
 * export thread reads ({@link readableSpans}), so both paths produce the same readable spans. Used
 * by tests (a simple processor over the in-memory exporter) and by pm-mcp over stdio, whose
 * single-file bundle carries no worker script. The processors' OnStart is not called: the batch
 * and simple processors pm composes do nothing there.
 */
export class ProcessorSpanSink implements ClosableSpanSink {
  constructor(
    private readonly processors: readonly SpanProcessor[],
    private readonly origin: SpanBatchOrigin,
  ) {}

  ended(span: OtelRecordedSpan): void {
    const [readable] = readableSpans(appendSpan([], span), this.origin);
    for (const processor of this.processors) processor.onEnd(readable!);
  }

  async shutdown(): Promise<void> {
    await Promise.all(this.processors.map((processor) => processor.shutdown()));
  }
}
