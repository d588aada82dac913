import type { Attributes, AttributeValue, HrTime, SpanContext, SpanKind, SpanStatus } from '@opentelemetry/api';
import { hrTimeDuration, millisToHrTime, TraceState, type InstrumentationScope } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { OtelRecordedSpan } from './otel-recorded-span.js';

/**
 * Ended spans as one flat array of strings, numbers and booleans: what a traced request appends
 * at the end of each span (a few array pushes, no objects), cheap for `postMessage` to copy to
 * the export thread, and turned into the SDK's `ReadableSpan` objects only there, just before
 * the official span processor and OTLP exporter take them (OpenTelemetry trace SDK "Span
 * processor": processors receive ended spans as readable spans).
 *
 * Per span: name, kind, trace id, span id, trace flags, serialized trace state (or undefined),
 * parent span id (or undefined), parent trace flags, parent is remote, start and end as Unix
 * epoch milliseconds, status code, status message (or undefined), the number of attributes,
 * then each attribute's name and value (later ones of the same name win).
 */
export type SpanBatch = (string | number | boolean | undefined | null | AttributeValue)[];

const HEADER = 13;

/** Appends an ended span to `batch`; returns the batch. */
export function appendSpan(batch: SpanBatch, span: OtelRecordedSpan): SpanBatch {
  const origin = performance.timeOrigin;
  const parent = span.parent;
  batch.push(span.name, span.kind, span.traceId, span.spanId, span.traceFlags, span.traceState?.serialize(), parent?.spanId, parent?.traceFlags ?? 0, parent?.isRemote === true, origin + span.start, origin + span.endTime, span.status.code, span.status.message);
  const countAt = batch.length;
  batch.push(0);
  let count = 0;
  const initial = span.initial;
  for (const key in initial) {
    const value = initial[key];
    if (value !== undefined) {
      batch.push(key, value);
      count++;
    }
  }
  const extra = span.extra;
  if (extra) {
    for (let i = 0; i < extra.length; i++) batch.push(extra[i]);
    count += extra.length / 2;
  }
  batch[countAt] = count;
  return batch;
}

/** What every span of a batch shares. */
export interface SpanBatchOrigin {
  readonly resource: Resource;
  readonly scope: InstrumentationScope;
}

const NO_LINKS: never[] = [];
const NO_EVENTS: never[] = [];

/** The batch's spans as the SDK's readable spans, in the order they ended. */
export function readableSpans(batch: SpanBatch, origin: SpanBatchOrigin): ReadableSpan[] {
  const spans: ReadableSpan[] = [];
  let i = 0;
  while (i + HEADER < batch.length) {
    const traceId = batch[i + 2] as string;
    const state = (batch[i + 5] ?? undefined) as string | undefined; // JSON text carries undefined as null
    const context: SpanContext = { traceId, spanId: batch[i + 3] as string, traceFlags: batch[i + 4] as number, ...(state !== undefined ? { traceState: new TraceState(state) } : {}) };
    const parentSpanId = (batch[i + 6] ?? undefined) as string | undefined;
    const parentSpanContext: SpanContext | undefined = parentSpanId !== undefined ? { traceId, spanId: parentSpanId, traceFlags: batch[i + 7] as number, isRemote: batch[i + 8] as boolean } : undefined;
    const startTime: HrTime = millisToHrTime(batch[i + 9] as number);
    const endTime: HrTime = millisToHrTime(batch[i + 10] as number);
    const message = (batch[i + 12] ?? undefined) as string | undefined;
    const status: SpanStatus = message !== undefined ? { code: batch[i + 11] as number, message } : { code: batch[i + 11] as number };
    const count = batch[i + HEADER] as number;
    const attributes: Attributes = {};
    let at = i + HEADER + 1;
    for (let n = 0; n < count; n++, at += 2) attributes[batch[at] as string] = batch[at + 1] as AttributeValue;
    spans.push({
      name: batch[i] as string,
      kind: batch[i + 1] as SpanKind,
      spanContext: () => context,
      parentSpanContext,
      startTime,
      endTime,
      duration: hrTimeDuration(startTime, endTime),
      status,
      attributes,
      links: NO_LINKS,
      events: NO_EVENTS,
      ended: true,
      resource: origin.resource,
      instrumentationScope: origin.scope,
      droppedAttributesCount: 0,
      droppedEventsCount: 0,
      droppedLinksCount: 0,
    });
    i = at;
  }
  return spans;
}
