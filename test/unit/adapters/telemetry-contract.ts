import type { Telemetry } from '../../../src/ports/telemetry.js';
import type { RecordedSpan } from '../../../src/adapters/memory/memory-telemetry.js';

/** What a contract run reads back from an adapter. */
export interface TelemetryProbe {
  readonly telemetry: Telemetry;
  /** Finished spans, normalized to the in-memory adapter's record. */
  spans(): Promise<readonly RecordedSpan[]>;
  /** What a counter reports for exactly these attributes. */
  counter(name: string, attributes: Readonly<Record<string, string>>): Promise<number>;
}

const PARENT = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

/**
 * The shared contract of the Telemetry port (seed 004 "Decision": per-request trace isolation),
 * run against the in-memory adapter and the OpenTelemetry one.
 */
export function describeTelemetryContract(label: string, subject: () => Promise<TelemetryProbe>): void {
  describe(`${label}: Telemetry (contract)`, () => {
    let probe: TelemetryProbe;
    beforeEach(async () => {
      probe = await subject();
    });

    it('a server span continues a valid remote parent and starts a new trace otherwise', async () => {
      probe.telemetry.startServerSpan('tools/call a', { 'mcp.method.name': 'tools/call' }, { traceparent: PARENT }).end();
      probe.telemetry.startServerSpan('tools/list', {}, undefined).end();
      probe.telemetry.startServerSpan('bad parent', {}, { traceparent: '00-00000000000000000000000000000000-b7ad6b7169203331-01' }).end();
      const [child, root, bad] = await probe.spans();
      expect(child).toMatchObject({ name: 'tools/call a', kind: 'server', traceId: '0af7651916cd43dd8448eb211c80319c', parentSpanId: 'b7ad6b7169203331', attributes: { 'mcp.method.name': 'tools/call' } });
      expect(root!.parentSpanId).toBeUndefined();
      expect(root!.traceId).not.toBe(child!.traceId);
      expect(bad!.parentSpanId).toBeUndefined();
    });

    it('a server span never inherits a span started or still open before it', async () => {
      const outer = probe.telemetry.startServerSpan('outer', {}, { traceparent: PARENT });
      probe.telemetry.startServerSpan('inner', {}, undefined).end();
      outer.end();
      const [inner] = await probe.spans();
      expect(inner!.parentSpanId).toBeUndefined();
      expect(inner!.traceId).not.toBe('0af7651916cd43dd8448eb211c80319c');
    });

    it('child spans nest under the parent they are given, in its trace', async () => {
      const server = probe.telemetry.startServerSpan('server', {}, undefined);
      await new Promise((resolve) => setImmediate(resolve));
      const child = probe.telemetry.startChildSpan('child', { 'pm.tracker.access': 'read', skipped: undefined }, server);
      await Promise.resolve();
      probe.telemetry.startChildSpan('grandchild', {}, child).end();
      child.end();
      server.end();
      const byName = new Map((await probe.spans()).map((span) => [span.name, span]));
      expect(byName.get('child')).toMatchObject({ kind: 'internal', traceId: byName.get('server')!.traceId, parentSpanId: byName.get('server')!.spanId, attributes: { 'pm.tracker.access': 'read' } });
      expect(byName.get('child')!.attributes).not.toHaveProperty('skipped');
      expect(byName.get('grandchild')).toMatchObject({ traceId: byName.get('server')!.traceId, parentSpanId: byName.get('child')!.spanId });
    });

    it('a child span refuses a parent that is not a span of this telemetry', () => {
      expect(() => probe.telemetry.startChildSpan('orphan', {}, { isRecording: () => true, setAttributes() {}, fail() {}, end: () => 0 })).toThrow(TypeError);
    });

    it('concurrent requests keep their own parents', async () => {
      const run = async (name: string, parent: string) => {
        const span = probe.telemetry.startServerSpan(name, {}, { traceparent: parent });
        await new Promise((resolve) => setTimeout(resolve, name === 'a' ? 5 : 1));
        probe.telemetry.startChildSpan(`${name}-child`, {}, span).end();
        span.end();
      };
      await Promise.all([run('a', PARENT), run('b', '00-1af7651916cd43dd8448eb211c80319c-c7ad6b7169203331-01')]);
      const byName = new Map((await probe.spans()).map((span) => [span.name, span]));
      expect(byName.get('a-child')!.parentSpanId).toBe(byName.get('a')!.spanId);
      expect(byName.get('b-child')!.parentSpanId).toBe(byName.get('b')!.spanId);
      expect(byName.get('b-child')!.traceId).toBe('1af7651916cd43dd8448eb211c80319c');
    });

    it('fail records error.type and the error status; end is idempotent and returns seconds', async () => {
      const span = probe.telemetry.startServerSpan('x', {}, undefined);
      span.setAttributes({ 'rpc.response.status_code': '-32602', skipped: undefined });
      span.fail('-32602', 'Invalid params');
      const seconds = span.end();
      expect(seconds).toBeGreaterThanOrEqual(0);
      span.end();
      const spans = await probe.spans();
      expect(spans).toHaveLength(1);
      expect(spans[0]).toMatchObject({ attributes: { 'error.type': '-32602', 'rpc.response.status_code': '-32602' }, error: { type: '-32602' } });
      expect(spans[0]!.attributes).not.toHaveProperty('skipped');
    });

    it('an observed counter reports the running totals its callback returns at each read, per attribute set', async () => {
      const totals = [
        { value: 3, attributes: { 'pm.mcp.era': 'legacy' } },
        { value: 1, attributes: { 'pm.mcp.era': 'modern', skipped: undefined } },
      ];
      probe.telemetry.observeCounter('pm.mcp.requests', () => totals);
      expect(await probe.counter('pm.mcp.requests', { 'pm.mcp.era': 'legacy' })).toBe(3);
      expect(await probe.counter('pm.mcp.requests', { 'pm.mcp.era': 'modern' })).toBe(1);
      totals[0] = { value: 5, attributes: { 'pm.mcp.era': 'legacy' } };
      expect(await probe.counter('pm.mcp.requests', { 'pm.mcp.era': 'legacy' })).toBe(5);
    });

    it('a span is recording until it ends', () => {
      const span = probe.telemetry.startServerSpan('x', {}, undefined);
      expect(span.isRecording()).toBe(true);
      span.end();
      expect(span.isRecording()).toBe(false);
    });
  });
}
