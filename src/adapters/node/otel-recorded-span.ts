import { randomFillSync } from 'node:crypto';
import { SpanStatusCode, TraceFlags, type Attributes, type AttributeValue, type Exception, type Link, type Span, type SpanContext, type SpanKind, type SpanStatus, type TimeInput } from '@opentelemetry/api';
import type { TelemetryAttributes, TelemetrySpan } from '../../ports/telemetry.js';

/**
 * A span of the OpenTelemetry API (`Span` of @opentelemetry/api) that only records: its name,
 * ids, start and end times (`performance.now()` milliseconds) and attributes stay plain fields
 * until the span has ended, and only then does its {@link FinishedSpanSink} turn it into the
 * SDK's `ReadableSpan` for the official span processors and OTLP exporter — wherever and
 * whenever that sink chooses (OpenTelemetry trace API "Span": a span is mutable until ended, and
 * its processors see it at end). The attributes given at start are kept as given (the caller's
 * object, never changed by it) and later ones appended, so a request's span costs no copies.
 * Events and links are not recorded (pm adds none); a non-recording span (not sampled) keeps its
 * context for its children and its duration for the metrics, and is handed to no sink.
 */

/** Where ended, sampled spans go (the finished-span hand-off of the OpenTelemetry SDK's span processors). */
export interface FinishedSpanSink {
  ended(span: OtelRecordedSpan): void;
}

/** The fields shared by every span of one tracer. */
export interface SpanScope {
  readonly sink: FinishedSpanSink;
}

const POOL_BYTES = 8192;
const ZERO_TRACE_ID = '0'.repeat(32);
const ZERO_SPAN_ID = '0'.repeat(16);
let pool = '';
let used = POOL_BYTES * 2;

/**
 * Random lowercase hex of `length` characters, cut from a pool filled by the CSPRNG 8 KiB at a
 * time (W3C Trace Context: trace and span ids are random; an all-zero id is invalid, so such a
 * cut is drawn again).
 */
export function randomHex(length: number): string {
  for (;;) {
    if (used + length > pool.length) {
      pool = randomFillSync(Buffer.allocUnsafe(POOL_BYTES)).toString('hex');
      used = 0;
    }
    const id = pool.slice(used, (used += length));
    if (id !== (length === 32 ? ZERO_TRACE_ID : length === 16 ? ZERO_SPAN_ID : '0'.repeat(length))) return id;
  }
}

/** A parent as a span records it: a SpanContext, or the local parent span itself (no context object made). */
export interface SpanParent {
  readonly spanId: string;
  readonly traceFlags: number;
  readonly isRemote?: boolean;
}

const UNSET: SpanStatus = Object.freeze({ code: SpanStatusCode.UNSET });

/** One span, recording or not (see the file's comment). */
export class OtelRecordedSpan implements Span, TelemetrySpan {
  /** `performance.now()` at start and end (end: NaN until ended). */
  readonly start = performance.now();
  endTime = Number.NaN;
  /** Attributes set after start, as name, value pairs (later pairs win). */
  extra: (string | AttributeValue)[] | undefined;
  status: SpanStatus = UNSET;
  private context: SpanContext | undefined;

  constructor(
    readonly scope: SpanScope,
    public name: string,
    readonly kind: SpanKind,
    readonly traceId: string,
    readonly spanId: string,
    readonly traceFlags: number,
    readonly traceState: SpanContext['traceState'],
    readonly parent: SpanParent | undefined,
    /** The attributes given at start (undefined values are left out at export). */
    readonly initial: TelemetryAttributes | Attributes,
  ) {}

  spanContext(): SpanContext {
    return (this.context ??= { traceId: this.traceId, spanId: this.spanId, traceFlags: this.traceFlags, ...(this.traceState ? { traceState: this.traceState } : {}) });
  }

  isRecording(): boolean {
    return (this.traceFlags & TraceFlags.SAMPLED) !== 0 && Number.isNaN(this.endTime);
  }

  setAttribute(key: string, value: AttributeValue): this {
    if (value !== undefined && this.isRecording()) (this.extra ??= []).push(key, value);
    return this;
  }

  setAttributes(attributes: TelemetryAttributes | Attributes): this {
    if (!this.isRecording()) return this;
    for (const key in attributes) {
      const value = attributes[key];
      if (value !== undefined) (this.extra ??= []).push(key, value);
    }
    return this;
  }

  setStatus(status: SpanStatus): this {
    if (this.isRecording()) this.status = status;
    return this;
  }

  updateName(name: string): this {
    if (this.isRecording()) this.name = name;
    return this;
  }

  /** pm records no events (the API's addEvent is accepted and ignored). */
  addEvent(): this {
    return this;
  }

  /** pm records no links. */
  addLink(_link: Link): this {
    return this;
  }

  addLinks(_links: Link[]): this {
    return this;
  }

  recordException(exception: Exception): void {
    const type = typeof exception === 'string' ? undefined : exception.name;
    if (type !== undefined) this.setAttribute('exception.type', type);
  }

  fail(errorType: string, description?: string): void {
    this.setAttribute('error.type', errorType);
    this.setStatus(description !== undefined ? { code: SpanStatusCode.ERROR, message: description } : { code: SpanStatusCode.ERROR });
  }

  /** Ends the span once (the API's end time, when given, is not used) and returns its duration in seconds. */
  end(_endTime?: TimeInput): number {
    if (Number.isNaN(this.endTime)) {
      this.endTime = performance.now();
      if (this.traceFlags & TraceFlags.SAMPLED) this.scope.sink.ended(this);
    }
    return (this.endTime - this.start) / 1000;
  }
}
