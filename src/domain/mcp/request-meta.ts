import { z } from 'zod';
import { PmMcpInvalidParamsError, PmMcpUnsupportedProtocolVersionError } from '../errors/mcp-errors.js';
import { MCP_LOG_LEVELS, MCP_META, PM_MCP_SUPPORTED_PROTOCOL_VERSIONS, type McpLogLevel } from './protocol.js';
import type { JsonObject, McpClientCapabilities, McpImplementation } from './wire-types.js';
import { lazy } from '../util/lazy.js';

/**
 * Validation of one request's `_meta` (2026-07-28 `RequestMetaObject`, `basic/index` §_meta).
 * The zod schemas below parse exactly the wire input this module reads.
 */

const jsonObject = lazy(() => z.record(z.string(), z.unknown()));

/** `ClientCapabilities`: an object (`{}` allowed); known members must be objects when present. */
export const mcpClientCapabilitiesSchema = lazy(() =>
  z.looseObject({
    elicitation: z.looseObject({ form: jsonObject().optional(), url: jsonObject().optional() }).optional(),
    sampling: z.looseObject({ context: jsonObject().optional(), tools: jsonObject().optional() }).optional(),
    roots: jsonObject().optional(),
    experimental: z.record(z.string(), jsonObject()).optional(),
    extensions: z.record(z.string(), jsonObject()).optional(),
  })
);

/** `Implementation`: `name` and `version` required; the rest optional. */
export const mcpImplementationSchema = lazy(() =>
  z.looseObject({
    name: z.string(),
    version: z.string(),
    title: z.string().optional(),
    description: z.string().optional(),
    websiteUrl: z.string().optional(),
    icons: z.array(jsonObject()).optional(),
  })
);


/** W3C trace context carried in `_meta` (unprefixed keys by the spec's exception). */
export interface McpTraceContext {
  readonly traceparent?: string;
  readonly tracestate?: string;
  readonly baggage?: string;
}

/** The validated modern `_meta` fields of one request. */
export interface ModernRequestMeta {
  readonly protocolVersion: string;
  readonly clientCapabilities: McpClientCapabilities;
  readonly clientInfo: McpImplementation | undefined;
  readonly logLevel: McpLogLevel | undefined;
  readonly progressToken: string | number | undefined;
  readonly trace: McpTraceContext;
}

const NO_TRACE: McpTraceContext = Object.freeze({});
const TRACEPARENT = /^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/;
const TRACE_LIMITS = { traceparent: 55, tracestate: 512, baggage: 8192 } as const;

function missing(field: string): PmMcpInvalidParamsError {
  return new PmMcpInvalidParamsError(`Missing required _meta field ${field}`, { field });
}

function malformed(field: string, detail: string): PmMcpInvalidParamsError {
  return new PmMcpInvalidParamsError(`Malformed _meta field ${field}: ${detail}`, { field });
}

function issueText(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid value';
  return issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message;
}

/**
 * Reads the trace keys. A non-string value is malformed metadata (-32602); a string that breaks
 * the W3C format or size bound is dropped, as W3C Trace Context asks receivers to do.
 */
export function readMcpTraceContext(meta: JsonObject): McpTraceContext {
  if (meta.traceparent === undefined && meta.tracestate === undefined && meta.baggage === undefined) return NO_TRACE;
  const valid = (key: keyof typeof TRACE_LIMITS): string | undefined => {
    const value = meta[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'string') throw malformed(key, 'must be a string');
    if (value.length > TRACE_LIMITS[key]) return undefined;
    return value;
  };
  let traceparent = valid('traceparent');
  if (traceparent !== undefined && (!TRACEPARENT.test(traceparent) || traceparent.startsWith('ff-') || /^..-0{32}-/.test(traceparent) || /-0{16}-..$/.test(traceparent))) traceparent = undefined;
  const tracestate = valid('tracestate');
  const baggage = valid('baggage');
  // A tracestate without a valid traceparent is meaningless and dropped (W3C Trace Context).
  const trace: { traceparent?: string; tracestate?: string; baggage?: string } = {};
  if (traceparent !== undefined) trace.traceparent = traceparent;
  if (traceparent !== undefined && tracestate !== undefined) trace.tracestate = tracestate;
  if (baggage !== undefined) trace.baggage = baggage;
  return Object.freeze(trace);
}

function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function optionalObject(value: unknown): boolean {
  return value === undefined || isPlainObject(value);
}

function recordOfObjects(value: unknown): boolean {
  if (value === undefined) return true;
  if (!isPlainObject(value)) return false;
  for (const key in value) if (!isPlainObject(value[key])) return false;
  return true;
}

/** Fast structural check equivalent to {@link mcpClientCapabilitiesSchema} (the hot path; zod explains failures). */
function isClientCapabilities(value: unknown): value is McpClientCapabilities {
  if (!isPlainObject(value)) return false;
  const { elicitation, sampling } = value;
  if (!optionalObject(elicitation) || !optionalObject(sampling) || !optionalObject(value.roots)) return false;
  if (elicitation && (!optionalObject((elicitation as JsonObject).form) || !optionalObject((elicitation as JsonObject).url))) return false;
  if (sampling && (!optionalObject((sampling as JsonObject).context) || !optionalObject((sampling as JsonObject).tools))) return false;
  return recordOfObjects(value.experimental) && recordOfObjects(value.extensions);
}

const optionalString = (value: unknown) => value === undefined || typeof value === 'string';

/** Fast structural check equivalent to {@link mcpImplementationSchema}. */
function isImplementation(value: unknown): value is McpImplementation {
  if (!isPlainObject(value) || typeof value.name !== 'string' || typeof value.version !== 'string') return false;
  if (!optionalString(value.title) || !optionalString(value.description) || !optionalString(value.websiteUrl)) return false;
  return value.icons === undefined || (Array.isArray(value.icons) && value.icons.every(isPlainObject));
}

const EMPTY: JsonObject = Object.freeze({});

/** A deep, frozen copy of a JSON value (the context never aliases the caller's objects). */
export function frozenJsonCopy<T>(value: T): T {
  if (Array.isArray(value)) return Object.freeze(value.map(frozenJsonCopy)) as T;
  if (isPlainObject(value)) {
    let empty = true;
    const out: JsonObject = {};
    for (const key in value) {
      empty = false;
      out[key] = frozenJsonCopy(value[key]);
    }
    return (empty ? EMPTY : Object.freeze(out)) as T;
  }
  return value;
}

/**
 * Validates a modern request's `_meta`: missing or malformed required keys are -32602; a
 * well-formed but unsupported `protocolVersion` is -32022 listing the supported modern
 * versions. The version is checked as soon as it is a string, before the other keys, so a
 * client speaking a future revision (whose required keys may differ) learns what to retry with.
 * Returned objects are frozen copies.
 */
export function parseModernRequestMeta(meta: unknown): ModernRequestMeta {
  if (meta === undefined) throw missing(MCP_META.protocolVersion);
  if (!isPlainObject(meta)) throw new PmMcpInvalidParamsError('Malformed _meta: must be an object', { field: '_meta' });
  const version = meta[MCP_META.protocolVersion];
  if (version === undefined) throw missing(MCP_META.protocolVersion);
  if (typeof version !== 'string') throw malformed(MCP_META.protocolVersion, 'must be a string');
  if (!PM_MCP_SUPPORTED_PROTOCOL_VERSIONS.includes(version)) throw new PmMcpUnsupportedProtocolVersionError(version, PM_MCP_SUPPORTED_PROTOCOL_VERSIONS);

  const capabilities = meta[MCP_META.clientCapabilities];
  if (capabilities === undefined) throw missing(MCP_META.clientCapabilities);
  if (!isClientCapabilities(capabilities)) {
    const caps = mcpClientCapabilitiesSchema().safeParse(capabilities);
    throw malformed(MCP_META.clientCapabilities, caps.success ? 'invalid value' : issueText(caps.error));
  }

  const info = meta[MCP_META.clientInfo];
  if (info !== undefined && !isImplementation(info)) {
    const parsed = mcpImplementationSchema().safeParse(info);
    throw malformed(MCP_META.clientInfo, parsed.success ? 'invalid value' : issueText(parsed.error));
  }

  const level = meta[MCP_META.logLevel];
  if (level !== undefined && !(MCP_LOG_LEVELS as readonly unknown[]).includes(level)) {
    throw malformed(MCP_META.logLevel, `must be one of ${MCP_LOG_LEVELS.join(', ')}`);
  }

  return {
    protocolVersion: version,
    clientCapabilities: frozenJsonCopy(capabilities),
    clientInfo: info === undefined ? undefined : frozenJsonCopy(info),
    logLevel: level as McpLogLevel | undefined,
    progressToken: readMcpProgressToken(meta),
    trace: readMcpTraceContext(meta),
  };
}

/** Reads `_meta.progressToken` (string or integer); any other type is malformed (-32602). */
export function readMcpProgressToken(meta: JsonObject): string | number | undefined {
  const token = meta[MCP_META.progressToken];
  if (token === undefined) return undefined;
  if (typeof token === 'string' || (typeof token === 'number' && Number.isSafeInteger(token))) return token;
  throw malformed(MCP_META.progressToken, 'must be a string or an integer');
}
