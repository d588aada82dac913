import { MemoryTelemetry } from '../../../../src/adapters/memory/memory-telemetry.js';
import { AsyncSpanScope } from '../../../support/async-span-scope.js';
import { describeTelemetryContract } from '../telemetry-contract.js';

describeTelemetryContract('MemoryTelemetry', async () => {
  const telemetry = new MemoryTelemetry({ scope: new AsyncSpanScope() });
  return { telemetry, spans: async () => telemetry.finished, counter: async (name, attributes) => telemetry.counter(name, attributes) };
});

test('the default scope follows synchronous calls only', () => {
  const telemetry = new MemoryTelemetry();
  const span = telemetry.startServerSpan('s', {}, undefined);
  telemetry.withSpan(span, () => telemetry.startChildSpan('c', {})!.end());
  expect(telemetry.startChildSpan('after', {})).toBeUndefined();
  expect(telemetry.finished.map((s) => s.name)).toEqual(['c']);
});
