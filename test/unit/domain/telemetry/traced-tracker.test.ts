import { MemoryTelemetry } from '../../../../src/adapters/memory/memory-telemetry.js';
import type { McpRequestContext } from '../../../../src/domain/mcp/request-context.js';
import { McpRequestSpans } from '../../../../src/domain/telemetry/request-spans.js';
import { traceTracker } from '../../../../src/domain/telemetry/traced-tracker.js';
import { memoryTracker } from '../../../support/memory-tracker.js';

/** Stand-ins for two requests' contexts: the lookup keys on the context object itself. */
const contextOf = () => ({}) as McpRequestContext;

async function setup() {
  const { tracker } = await memoryTracker();
  const telemetry = new MemoryTelemetry();
  const spans = new McpRequestSpans();
  return { tracker, telemetry, spans, trackerFor: traceTracker(tracker, telemetry, spans) };
}

test('a request without a span gets the plain tracker, and nothing is recorded', async () => {
  const { tracker, telemetry, trackerFor } = await setup();
  const untraced = trackerFor(contextOf());
  expect(untraced).toBe(tracker);
  await untraced.list({});
  expect(telemetry.finished).toEqual([]);
});

test("each request's operations are children of that request's span, with the operation and access, never arguments", async () => {
  const { telemetry, spans, trackerFor } = await setup();
  const [a, b] = [contextOf(), contextOf()];
  const spanA = telemetry.startServerSpan('a', {}, undefined);
  const spanB = telemetry.startServerSpan('b', {}, undefined);
  spans.bind(a, spanA);
  spans.bind(b, spanB);
  expect(trackerFor(a)).toBe(trackerFor(a)); // one view per request
  // Interleaved: b's write starts while a's read is still pending.
  const created = trackerFor(b).create({ title: 'secret title' });
  const listed = trackerFor(a).list({});
  const { item } = await created;
  await listed;
  await expect(trackerFor(a).get('pm-nope')).rejects.toThrow();
  expect(trackerFor(b).config).toBe(trackerFor(a).config); // everything else passes through
  const [serverA, serverB] = [spanA, spanB].map((span) => (span.end(), telemetry.finished.at(-1)!));
  const children = telemetry.finished.filter((span) => span.kind === 'internal');
  expect(children.map((span) => [span.name, span.parentSpanId])).toEqual(
    expect.arrayContaining([
      ['pm.tracker create', serverB!.spanId],
      ['pm.tracker list', serverA!.spanId],
      ['pm.tracker get', serverA!.spanId],
    ]),
  );
  expect(children).toHaveLength(3);
  expect(children.find((span) => span.name === 'pm.tracker create')).toMatchObject({ traceId: serverB!.traceId, attributes: { 'pm.tracker.operation': 'create', 'pm.tracker.access': 'write' } });
  expect(children.find((span) => span.name === 'pm.tracker get')!.error).toMatchObject({ type: expect.any(String) });
  expect(JSON.stringify(telemetry.finished)).not.toContain('secret title');
  expect(item.title).toBe('secret title');
});
