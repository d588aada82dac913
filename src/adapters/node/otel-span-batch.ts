import type { Attributes, AttributeValue, HrTime, SpanContext, SpanKind, SpanStatus } from '@opentelemetry/api';
import { hrTimeDuration, millisToHrTime, TraceState, type InstrumentationScope } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { OtelRecordedSpan } from './otel-recorded-span.js';

/**
 * Ended spans as numbers: what a traced request writes at the end of each span into one
 * Float64Array (no objects), posted to the export thread by transfer (no copy), and turned into
 * the SDK's `ReadableSpan` objects only there, just before the official span processor and OTLP
 * exporter take them (OpenTelemetry trace SDK "Span processor": processors receive ended spans
 * as readable spans). Strings are numbered: names, attribute names and values are interned once
 * per process on both sides (the batch carries each new one once, up to {@link MAX_INTERNED});
 * ids and other strings travel in a small array of their own.
 *
 * Per span: name, kind, trace id, span id, trace flags, trace state, parent span id, parent trace
 * flags, parent is remote, start and end as Unix epoch milliseconds, status code, status message,
 * the number of attributes, then per attribute its name, a type tag and its value. A string is a
 * reference: n >= 0 the n-th interned string, n < 0 the (-n-1)-th string of the batch, NaN none.
 */

/** One batch as posted: its numbers (transferable) and its strings. */
export interface SpanBatch {
  readonly numbers: Float64Array;
  readonly length: number;
  /** Strings interned by this batch, in order (the reader appends them to its table). */
  readonly interned: readonly string[];
  /** Ids and strings not interned, and array attribute values. */
  readonly strings: readonly (string | AttributeValue)[];
}

/** How many strings a process interns at most (bounded: request ids and the like must not grow it). */
export const MAX_INTERNED = 4096;
const HEADER = 13;
const STRING = 0;
const NUMBER = 1;
const BOOLEAN = 2;
const OTHER = 3;

/** Writes ended spans into batches (the request thread's side). */
export class SpanBatchWriter {
  private readonly table = new Map<string, number>();
  private numbers: Float64Array;
  private length = 0;
  private interned: string[] = [];
  private strings: (string | AttributeValue)[] = [];

  constructor(private readonly capacity = 4096) {
    this.numbers = new Float64Array(capacity);
  }

  /** How many numbers the batch holds. */
  get size(): number {
    return this.length;
  }

  /** Appends an ended span. */
  append(span: OtelRecordedSpan): void {
    const origin = performance.timeOrigin;
    const parent = span.parent;
    const initial = span.initial;
    const extra = span.extra;
    let attributes = extra ? extra.length / 2 : 0;
    for (const key in initial) if (initial[key] !== undefined) attributes++;
    this.reserve(HEADER + 1 + attributes * 3);
    const n = this.numbers;
    let at = this.length;
    n[at++] = this.ref(span.name, true);
    n[at++] = span.kind;
    n[at++] = this.ref(span.traceId, false);
    n[at++] = this.ref(span.spanId, false);
    n[at++] = span.traceFlags;
    n[at++] = span.traceState ? this.ref(span.traceState.serialize(), false) : NaN;
    n[at++] = parent ? this.ref(parent.spanId, false) : NaN;
    n[at++] = parent ? parent.traceFlags : 0;
    n[at++] = parent?.isRemote === true ? 1 : 0;
    n[at++] = origin + span.start;
    n[at++] = origin + span.endTime;
    n[at++] = span.status.code;
    n[at++] = span.status.message !== undefined ? this.ref(span.status.message, false) : NaN;
    n[at++] = attributes;
    for (const key in initial) {
      const value = initial[key];
      if (value !== undefined) at = this.attribute(at, key, value);
    }
    if (extra) for (let i = 0; i < extra.length; i += 2) at = this.attribute(at, extra[i] as string, extra[i + 1]!);
    this.length = at;
  }

  /** The batch so far (a fresh one starts). */
  take(): SpanBatch {
    const batch: SpanBatch = { numbers: this.numbers, length: this.length, interned: this.interned, strings: this.strings };
    this.numbers = new Float64Array(Math.max(this.capacity, this.length));
    this.length = 0;
    this.interned = [];
    this.strings = [];
    return batch;
  }

  private attribute(at: number, key: string, value: AttributeValue): number {
    const n = this.numbers;
    n[at++] = this.ref(key, true);
    if (typeof value === 'string') {
      n[at++] = STRING;
      n[at++] = this.ref(value, true);
    } else if (typeof value === 'number') {
      n[at++] = NUMBER;
      n[at++] = value;
    } else if (typeof value === 'boolean') {
      n[at++] = BOOLEAN;
      n[at++] = value ? 1 : 0;
    } else {
      n[at++] = OTHER;
      n[at++] = -this.strings.push(value);
    }
    return at;
  }

  private ref(text: string, intern: boolean): number {
    if (intern) {
      const known = this.table.get(text);
      if (known !== undefined) return known;
      if (this.table.size < MAX_INTERNED) {
        this.table.set(text, this.table.size);
        this.interned.push(text);
        return this.table.size - 1;
      }
    }
    return -this.strings.push(text);
  }

  private reserve(more: number): void {
    if (this.length + more <= this.numbers.length) return;
    const grown = new Float64Array(Math.max(this.numbers.length * 2, this.length + more));
    grown.set(this.numbers.subarray(0, this.length));
    this.numbers = grown;
  }
}

/** What every span of a batch shares. */
export interface SpanBatchOrigin {
  readonly resource: Resource;
  readonly scope: InstrumentationScope;
}

const NO_LINKS: never[] = [];
const NO_EVENTS: never[] = [];

/** Reads batches back as the SDK's readable spans (the export thread's side). */
export class SpanBatchReader {
  private readonly table: string[] = [];

  constructor(private readonly origin: SpanBatchOrigin) {}

  /** The batch's spans, in the order they ended. */
  read(batch: SpanBatch): ReadableSpan[] {
    for (const text of batch.interned) this.table.push(text);
    const n = batch.numbers;
    const text = (ref: number): string | undefined => (Number.isNaN(ref) ? undefined : ref >= 0 ? this.table[ref] : (batch.strings[-ref - 1] as string));
    const spans: ReadableSpan[] = [];
    let i = 0;
    while (i < batch.length) {
      const traceId = text(n[i + 2]!)!;
      const state = text(n[i + 5]!);
      const context: SpanContext = { traceId, spanId: text(n[i + 3]!)!, traceFlags: n[i + 4]!, ...(state !== undefined ? { traceState: new TraceState(state) } : {}) };
      const parentSpanId = text(n[i + 6]!);
      const parentSpanContext: SpanContext | undefined = parentSpanId !== undefined ? { traceId, spanId: parentSpanId, traceFlags: n[i + 7]!, isRemote: n[i + 8] === 1 } : undefined;
      const startTime: HrTime = millisToHrTime(n[i + 9]!);
      const endTime: HrTime = millisToHrTime(n[i + 10]!);
      const message = text(n[i + 12]!);
      const status: SpanStatus = message !== undefined ? { code: n[i + 11]!, message } : { code: n[i + 11]! };
      const count = n[i + HEADER]!;
      const attributes: Attributes = {};
      let at = i + HEADER + 1;
      for (let a = 0; a < count; a++, at += 3) {
        const tag = n[at + 1]!;
        const value = n[at + 2]!;
        attributes[text(n[at]!)!] = tag === STRING ? text(value) : tag === NUMBER ? value : tag === BOOLEAN ? value === 1 : (batch.strings[-value - 1] as AttributeValue);
      }
      spans.push({
        name: text(n[i]!)!,
        kind: n[i + 1] as SpanKind,
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
        resource: this.origin.resource,
        instrumentationScope: this.origin.scope,
        droppedAttributesCount: 0,
        droppedEventsCount: 0,
        droppedLinksCount: 0,
      });
      i = at;
    }
    return spans;
  }
}
