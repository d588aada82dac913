import { MemoryTelemetry } from '../../../../src/adapters/memory/memory-telemetry.js';
import { describeTelemetryContract } from '../telemetry-contract.js';

describeTelemetryContract('MemoryTelemetry', async () => {
  const telemetry = new MemoryTelemetry();
  return { telemetry, spans: async () => telemetry.finished, counter: async (name, attributes) => telemetry.counter(name, attributes) };
});
