import { otelProbe } from '../../../support/otel-probe.js';
import { describeTelemetryContract } from '../telemetry-contract.js';

describeTelemetryContract('OtelTelemetry', async () => otelProbe());
