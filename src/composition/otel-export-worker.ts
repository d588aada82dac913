import { parentPort, workerData } from 'node:worker_threads';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { serveSpanExport } from '../adapters/node/otel-span-export.js';
import { otelResource } from './otel-sdk-parts.js';
import type { OtelBatchSettings } from './otel-settings.js';

/**
 * The span export thread of pm-mcp-http (started by createOtelTelemetry): the official batch
 * span processor with the OTEL_BSP_* settings over the official OTLP/HTTP exporter (which reads
 * its endpoint, headers and timeout variables from this thread's copy of the environment),
 * taking the batches of ended spans the request thread posts.
 */

/** What the request thread hands this thread at start. */
export interface OtelExportWorkerData {
  readonly serviceName: string;
  readonly version: string;
  readonly scope: { readonly name: string; readonly version?: string };
  readonly batch: OtelBatchSettings;
}

if (parentPort) {
  const data = workerData as OtelExportWorkerData;
  serveSpanExport(parentPort, new BatchSpanProcessor(new OTLPTraceExporter(), data.batch), { resource: otelResource(data.serviceName, data.version), scope: data.scope });
}
