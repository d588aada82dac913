import type { Attributes, HrTime } from '@opentelemetry/api';
import { ValueType } from '@opentelemetry/api';
import { hrTime } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import { AggregationTemporality, DataPointType, type CollectionResult, type MetricData, type MetricProducer } from '@opentelemetry/sdk-metrics';
import type { TelemetryAttributes } from '../../ports/telemetry.js';

/**
 * pm's counters and histograms, summed in memory and handed to the SDK's metric readers only at
 * collection (a MetricProducer of the official SDK, merged by its readers with the SDK's own
 * metrics). A request then adds to numbers it finds through a few map lookups instead of going
 * through the SDK's per-call attribute hashing. Cumulative temporality, as the SDK's default; a
 * histogram in seconds uses the bucket boundaries the OpenTelemetry MCP semantic conventions
 * recommend for `mcp.server.operation.duration`, any other the SDK's default ones.
 */

/** The semantic conventions' explicit boundaries for MCP durations, in seconds. */
export const MCP_DURATION_BOUNDARIES: readonly number[] = Object.freeze([0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300]);
/** The SDK's default explicit bucket boundaries. */
const SDK_DEFAULT_BOUNDARIES: readonly number[] = Object.freeze([0, 5, 10, 25, 50, 75, 100, 250, 500, 750, 1000, 2500, 5000, 7500, 10000]);

interface CounterSeries {
  readonly attributes: Attributes;
  readonly start: HrTime;
  value: number;
}

interface HistogramSeries {
  readonly attributes: Attributes;
  readonly start: HrTime;
  readonly counts: number[];
  count: number;
  sum: number;
  min: number;
  max: number;
}

/** The defined entries sorted by name: the series' identity whatever order they come in. */
function canonicalKey(attributes: TelemetryAttributes): string {
  const names: string[] = [];
  for (const name in attributes) if (attributes[name] !== undefined) names.push(name);
  names.sort();
  let key = '';
  for (const name of names) {
    const value = attributes[name]!;
    key += `${name}\u0000${typeof value === 'string' ? 's' : typeof value === 'number' ? 'n' : 'b'}${String(value)}\u0000`;
  }
  return key;
}

/** The defined attributes, as the SDK takes them. */
function attributesOf(attributes: TelemetryAttributes): Attributes {
  const out: Attributes = {};
  for (const key in attributes) if (attributes[key] !== undefined) out[key] = attributes[key];
  return out;
}

/** One step of the lookup by entries in the caller's order: by name, then by value. */
interface Step<S> {
  next?: Map<string, Map<string | number | boolean, Step<S>>>;
  series?: S;
}

/**
 * Series by attribute set. A record finds its series by walking the defined entries in the
 * caller's order through nested maps (names and values the caller already holds: no key string
 * is built, nothing is allocated once the set was seen); the first time an order is seen, the
 * sorted key decides, so the same set in any order is one series.
 */
class SeriesTable<S> {
  private readonly root: Step<S> = {};
  private readonly bySet = new Map<string, S>();

  constructor(private readonly create: (attributes: Attributes) => S) {}

  get(attributes: TelemetryAttributes): S {
    let step = this.root;
    for (const name in attributes) {
      const value = attributes[name];
      if (value === undefined) continue;
      const next = (step.next ??= new Map());
      let byValue = next.get(name);
      if (byValue === undefined) next.set(name, (byValue = new Map()));
      let child = byValue.get(value);
      if (child === undefined) byValue.set(value, (child = {}));
      step = child;
    }
    if (step.series === undefined) {
      const canonical = canonicalKey(attributes);
      let series = this.bySet.get(canonical);
      if (series === undefined) this.bySet.set(canonical, (series = this.create(attributesOf(attributes))));
      step.series = series;
    }
    return step.series;
  }

  all(): IterableIterator<S> {
    return this.bySet.values();
  }
}

interface Instrument<S> {
  readonly unit: string;
  readonly series: SeriesTable<S>;
}

/** The metric producer behind the OpenTelemetry adapter's counters and histograms. */
export class OtelMetricSums implements MetricProducer {
  private readonly counters = new Map<string, Instrument<CounterSeries>>();
  private readonly histograms = new Map<string, Instrument<HistogramSeries> & { readonly boundaries: readonly number[] }>();

  constructor(
    private readonly resource: Resource,
    private readonly scope: { readonly name: string; readonly version?: string },
  ) {}

  add(name: string, value: number, attributes: TelemetryAttributes): void {
    if (!(value >= 0)) return; // a counter only grows (the SDK drops negative additions too)
    let counter = this.counters.get(name);
    if (!counter) this.counters.set(name, (counter = { unit: '', series: new SeriesTable((set) => ({ attributes: set, start: hrTime(), value: 0 })) }));
    counter.series.get(attributes).value += value;
  }

  record(name: string, value: number, attributes: TelemetryAttributes, unit = ''): void {
    if (!Number.isFinite(value)) return;
    let histogram = this.histograms.get(name);
    if (!histogram) {
      const boundaries = unit === 's' ? MCP_DURATION_BOUNDARIES : SDK_DEFAULT_BOUNDARIES;
      const series = new SeriesTable<HistogramSeries>((set) => ({ attributes: set, start: hrTime(), counts: new Array<number>(boundaries.length + 1).fill(0), count: 0, sum: 0, min: Infinity, max: -Infinity }));
      this.histograms.set(name, (histogram = { unit, series, boundaries }));
    }
    const series = histogram.series.get(attributes);
    const { boundaries } = histogram;
    let bucket = 0;
    while (bucket < boundaries.length && value > boundaries[bucket]!) bucket++; // upper bounds are inclusive
    series.counts[bucket]!++;
    series.count++;
    series.sum += value;
    if (value < series.min) series.min = value;
    if (value > series.max) series.max = value;
  }

  async collect(): Promise<CollectionResult> {
    const now = hrTime();
    const metrics: MetricData[] = [];
    for (const [name, { unit, series }] of this.counters) {
      metrics.push({
        descriptor: { name, description: '', unit, valueType: ValueType.DOUBLE },
        aggregationTemporality: AggregationTemporality.CUMULATIVE,
        dataPointType: DataPointType.SUM,
        isMonotonic: true,
        dataPoints: [...series.all()].map((s) => ({ attributes: s.attributes, startTime: s.start, endTime: now, value: s.value })),
      });
    }
    for (const [name, { unit, series, boundaries }] of this.histograms) {
      metrics.push({
        descriptor: { name, description: '', unit, valueType: ValueType.DOUBLE },
        aggregationTemporality: AggregationTemporality.CUMULATIVE,
        dataPointType: DataPointType.HISTOGRAM,
        dataPoints: [...series.all()].map((s) => ({
          attributes: s.attributes,
          startTime: s.start,
          endTime: now,
          value: { buckets: { boundaries: [...boundaries], counts: [...s.counts] }, count: s.count, sum: s.sum, min: s.min, max: s.max },
        })),
      });
    }
    const scope = { name: this.scope.name, ...(this.scope.version !== undefined ? { version: this.scope.version } : {}) };
    return { resourceMetrics: { resource: this.resource, scopeMetrics: metrics.length ? [{ scope, metrics }] : [] }, errors: [] };
  }
}
