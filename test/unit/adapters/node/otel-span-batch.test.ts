import { SpanKind, SpanStatusCode, TraceFlags } from '@opentelemetry/api';
import { TraceState } from '@opentelemetry/core';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { OtelRecordedSpan, randomHex } from '../../../../src/adapters/node/otel-recorded-span.js';
import { MAX_INTERNED, SpanBatchReader, SpanBatchWriter } from '../../../../src/adapters/node/otel-span-batch.js';

/**
 * The span batch encoding between the request thread and the export thread: what is read back
 * is what was recorded, across batches (interned strings announced once) and past the intern
 * table's bound.
 */

const origin = { resource: resourceFromAttributes({ 'service.name': 'pm-test' }), scope: { name: 'pm-test', version: '1' } };
const ended: OtelRecordedSpan[] = [];
const scope = { sink: { ended: (span: OtelRecordedSpan) => void ended.push(span) } };

function serverSpan(id: string, attributes: Record<string, string | number | boolean | undefined> = {}) {
  return new OtelRecordedSpan(scope, 'tools/call pm_get', SpanKind.SERVER, randomHex(32), randomHex(16), TraceFlags.SAMPLED, undefined, undefined, { 'jsonrpc.request.id': id, skipped: undefined, ...attributes });
}

test('spans read back with their ids, parent, times, status and attributes, later attributes winning', () => {
  const remote = { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: TraceFlags.SAMPLED, isRemote: true };
  const server = new OtelRecordedSpan(scope, 'tools/call pm_get', SpanKind.SERVER, remote.traceId, randomHex(16), TraceFlags.SAMPLED, new TraceState('vendor=x'), remote, { 'mcp.method.name': 'tools/call', 'pm.mcp.era': 'modern', skipped: undefined });
  const child = new OtelRecordedSpan(scope, 'pm.tracker get', SpanKind.INTERNAL, server.traceId, randomHex(16), server.traceFlags, undefined, server, { 'pm.tracker.access': 'read' });
  child.fail('not_found', 'no such item');
  child.end();
  server.setAttributes({ 'mcp.method.name': 'tools/call!', 'http.response.status_code': 200, ok: true });
  server.setAttribute('tags', ['a', 'b']);
  server.end();
  const writer = new SpanBatchWriter(8); // small: the writer grows
  writer.append(child);
  writer.append(server);
  const [readChild, readServer] = new SpanBatchReader(origin).read(writer.take());

  expect(readServer!.spanContext()).toEqual({ traceId: remote.traceId, spanId: server.spanId, traceFlags: TraceFlags.SAMPLED, traceState: expect.any(TraceState) });
  expect(readServer!.spanContext().traceState!.get('vendor')).toBe('x');
  expect(readServer!.parentSpanContext).toEqual({ traceId: remote.traceId, spanId: remote.spanId, traceFlags: TraceFlags.SAMPLED, isRemote: true });
  expect(readServer!.attributes).toEqual({ 'mcp.method.name': 'tools/call!', 'pm.mcp.era': 'modern', 'http.response.status_code': 200, ok: true, tags: ['a', 'b'] });
  expect(readServer!).toMatchObject({ name: 'tools/call pm_get', kind: SpanKind.SERVER, status: { code: SpanStatusCode.UNSET }, ended: true, resource: origin.resource, instrumentationScope: origin.scope });
  const epochMs = (time: readonly [number, number]) => time[0] * 1000 + time[1] / 1e6;
  expect(epochMs(readServer!.startTime)).toBeCloseTo(performance.timeOrigin + server.start, 2);
  expect(epochMs(readServer!.endTime)).toBeCloseTo(performance.timeOrigin + server.endTime, 2);
  expect(epochMs(readServer!.duration)).toBeCloseTo(server.endTime - server.start, 2);

  expect(readChild!.parentSpanContext).toEqual({ traceId: remote.traceId, spanId: server.spanId, traceFlags: TraceFlags.SAMPLED, isRemote: false });
  expect(readChild!.status).toEqual({ code: SpanStatusCode.ERROR, message: 'no such item' });
  expect(readChild!.attributes).toEqual({ 'pm.tracker.access': 'read', 'error.type': 'not_found' });
});

test('a reader keeps the strings earlier batches interned, and strings past the bound travel in the batch', () => {
  const writer = new SpanBatchWriter();
  const reader = new SpanBatchReader(origin);
  const first = serverSpan('1', { 'pm.mcp.era': 'modern' });
  first.end();
  writer.append(first);
  const firstBatch = writer.take();
  expect(firstBatch.interned).toEqual(expect.arrayContaining(['tools/call pm_get', 'jsonrpc.request.id', '1', 'pm.mcp.era', 'modern']));
  reader.read(firstBatch);

  const spans = [];
  for (let i = 0; i < MAX_INTERNED + 10; i++) {
    const span = serverSpan(`id-${i}`, { 'pm.mcp.era': 'modern' });
    span.end();
    writer.append(span);
    spans.push(span);
  }
  const batch = writer.take();
  expect(batch.interned).not.toContain('modern'); // announced by the first batch
  expect(batch.strings).toContain(`id-${MAX_INTERNED + 9}`); // the table was full by then
  const read = reader.read(batch);
  expect(read).toHaveLength(spans.length);
  expect(read.map((span) => span.attributes['jsonrpc.request.id'])).toEqual(spans.map((_, i) => `id-${i}`));
  expect(read.every((span) => span.attributes['pm.mcp.era'] === 'modern' && span.name === 'tools/call pm_get')).toBe(true);
  expect(read.map((span) => span.spanContext().spanId)).toEqual(spans.map((span) => span.spanId));
});

test('an unsampled span reaches no sink, and a span ends once', () => {
  ended.length = 0;
  const unsampled = new OtelRecordedSpan(scope, 'x', SpanKind.SERVER, randomHex(32), randomHex(16), TraceFlags.NONE, undefined, undefined, {});
  expect(unsampled.isRecording()).toBe(false);
  unsampled.end();
  const sampled = serverSpan('2');
  const seconds = sampled.end();
  expect(sampled.end()).toBe(seconds);
  expect(sampled.isRecording()).toBe(false);
  expect(ended).toEqual([sampled]);
});

test('random ids are lowercase hex of the asked length, and differ', () => {
  const ids = new Set(Array.from({ length: 2000 }, () => randomHex(16)));
  expect(ids.size).toBe(2000);
  for (const id of ids) expect(id).toMatch(/^[0-9a-f]{16}$/);
  expect(randomHex(32)).toMatch(/^[0-9a-f]{32}$/);
});
