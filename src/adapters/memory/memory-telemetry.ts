import type { Telemetry, TelemetryAttributes, TelemetryObservation, TelemetryRemoteParent, TelemetrySpan } from '../../ports/telemetry.js';

/**
 * Telemetry kept in memory, for tests: finished spans with their trace and parent ids, observed
 * counters and histogram values. A server span is recorded unless the `sample` option declines
 * it, and a child span as its parent is (a parent-based sampler). A child span's parent is the
 * span its caller passes, as with the OpenTelemetry adapter.
 */

/** One recorded span. */
export interface RecordedSpan {
  readonly name: string;
  readonly kind: 'server' | 'internal';
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string | undefined;
  readonly attributes: Readonly<Record<string, string | number | boolean>>;
  readonly error: { readonly type: string; readonly description: string | undefined } | undefined;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

function parseParent(parent: TelemetryRemoteParent | undefined): { traceId: string; spanId: string } | undefined {
  const match = parent ? TRACEPARENT.exec(parent.traceparent) : null;
  if (!match || match[1] === 'ff' || /^0+$/.test(match[2]!) || /^0+$/.test(match[3]!)) return undefined;
  return { traceId: match[2]!, spanId: match[3]! };
}

function defined(attributes: TelemetryAttributes): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const key in attributes) if (attributes[key] !== undefined) out[key] = attributes[key]!;
  return out;
}

/** A metric series key: the name and its attributes in key order. */
function seriesKey(name: string, attributes: TelemetryAttributes): string {
  const values = defined(attributes);
  return `${name} ${JSON.stringify(Object.keys(values).sort().map((key) => [key, values[key]]))}`;
}

/** A span of {@link MemoryTelemetry}. */
export class MemorySpan implements TelemetrySpan {
  private readonly attributes: Record<string, string | number | boolean>;
  private error: RecordedSpan['error'];
  private ended = false;

  constructor(
    private readonly sink: MemoryTelemetry,
    readonly name: string,
    readonly kind: 'server' | 'internal',
    readonly traceId: string,
    readonly spanId: string,
    readonly parentSpanId: string | undefined,
    attributes: TelemetryAttributes,
    private readonly startedAt: number,
    readonly recorded: boolean,
  ) {
    this.attributes = defined(attributes);
  }

  isRecording(): boolean {
    return this.recorded && !this.ended;
  }

  setAttributes(attributes: TelemetryAttributes): void {
    Object.assign(this.attributes, defined(attributes));
  }

  fail(errorType: string, description?: string): void {
    this.error = { type: errorType, description };
    this.attributes['error.type'] = errorType;
  }

  end(): number {
    const seconds = (this.sink.now() - this.startedAt) / 1000;
    if (this.ended) return seconds;
    this.ended = true;
    if (this.recorded) this.sink.finished.push(Object.freeze({ name: this.name, kind: this.kind, traceId: this.traceId, spanId: this.spanId, parentSpanId: this.parentSpanId, attributes: Object.freeze({ ...this.attributes }), error: this.error }));
    return seconds;
  }
}

/** Options of {@link MemoryTelemetry}. */
export interface MemoryTelemetryOptions {
  /** Milliseconds, for span durations (default: a clock that never moves). */
  readonly now?: () => number;
  /** Whether a server span of this name is recorded (default: every one). */
  readonly sample?: (name: string) => boolean;
}

/** The in-memory Telemetry adapter. */
export class MemoryTelemetry implements Telemetry {
  /** Ended recorded spans, in the order they ended. */
  readonly finished: RecordedSpan[] = [];
  /** The name of every span started, recorded or not. */
  readonly started: string[] = [];
  private readonly counters = new Map<string, () => Iterable<TelemetryObservation>>();
  private readonly histograms = new Map<string, number[]>();
  readonly now: () => number;
  private readonly sample: (name: string) => boolean;
  private ids = 0;
  stopped = false;

  constructor(options: MemoryTelemetryOptions = {}) {
    this.now = options.now ?? (() => 0);
    this.sample = options.sample ?? (() => true);
  }

  startServerSpan(name: string, attributes: TelemetryAttributes, remoteParent: TelemetryRemoteParent | undefined): TelemetrySpan {
    const parent = parseParent(remoteParent);
    this.started.push(name);
    return new MemorySpan(this, name, 'server', parent?.traceId ?? this.nextId(32), this.nextId(16), parent?.spanId, attributes, this.now(), this.sample(name));
  }

  startChildSpan(name: string, attributes: TelemetryAttributes, parent: TelemetrySpan): TelemetrySpan {
    if (!(parent instanceof MemorySpan)) throw new TypeError('startChildSpan needs a parent span of this telemetry');
    this.started.push(name);
    return new MemorySpan(this, name, 'internal', parent.traceId, this.nextId(16), parent.spanId, attributes, this.now(), parent.recorded);
  }

  observeCounter(name: string, observe: () => Iterable<TelemetryObservation>): void {
    this.counters.set(name, observe);
  }

  recordHistogram(name: string, value: number, attributes: TelemetryAttributes): void {
    const key = seriesKey(name, attributes);
    const values = this.histograms.get(key) ?? [];
    values.push(value);
    this.histograms.set(key, values);
  }

  /** What counter `name` reports now for exactly these attributes (0 when it reports none). */
  counter(name: string, attributes: TelemetryAttributes): number {
    const key = seriesKey(name, attributes);
    let sum = 0;
    for (const observation of this.counters.get(name)?.() ?? []) if (seriesKey(name, observation.attributes) === key) sum += observation.value;
    return sum;
  }

  /** The values recorded for histogram `name` with exactly these attributes. */
  histogram(name: string, attributes: TelemetryAttributes): readonly number[] {
    return this.histograms.get(seriesKey(name, attributes)) ?? [];
  }

  async shutdown(): Promise<void> {
    this.stopped = true;
  }

  private nextId(length: number): string {
    return (++this.ids).toString(16).padStart(length, '0');
  }
}
