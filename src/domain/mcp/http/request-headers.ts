import { PmMcpHeaderMismatchError } from '../../errors/mcp-errors.js';
import { MCP_NAME_HEADER_SOURCE } from '../methods/method-catalog.js';
import { MCP_META, PM_MCP_PROTOCOL_VERSION } from '../protocol.js';
import type { McpInboundMessage } from '../request-context.js';
import { mcpAnnotatedArgument, mcpHeaderAnnotationsOf, type McpHeaderAnnotation } from './header-annotations.js';
import { decodeMcpHeaderValue, encodeMcpHeaderValue, mcpHeaderValueText } from './header-values.js';

/**
 * The standard and custom MCP request headers of Streamable HTTP (2026-07-28
 * `basic/transports/streamable-http` "Standard Headers", "Custom Headers"; SEP-2243; seed 004
 * "Transport behavior"). The client side builds them from the message; the server
 * side checks them against the body before dispatch. Any missing, malformed or disagreeing
 * header is `-32020` HeaderMismatch, which Streamable HTTP answers with status 400.
 *
 * Which body field `Mcp-Name` mirrors is each method's own declaration (`nameSource`): a server
 * passes the one its method registry holds (so a method an extension registered is covered),
 * a client relies on the declarations the SDK knows ({@link MCP_NAME_HEADER_SOURCE}).
 */

/** Header names as the spec spells them (comparison is case-insensitive). */
export const MCP_HTTP_HEADER = Object.freeze({
  protocolVersion: 'MCP-Protocol-Version',
  method: 'Mcp-Method',
  name: 'Mcp-Name',
  paramPrefix: 'Mcp-Param-',
} as const);

/** Request headers as a host sees them: any name case; node-style repeated values as arrays. */
export type McpHttpHeaders = Readonly<Record<string, string | readonly string[] | undefined>>;

/** Options of the header builders and validators. */
export interface McpHttpHeaderOptions {
  /**
   * The called tool's advertised `inputSchema` (tools/call only): its `x-mcp-header`
   * annotations select the `Mcp-Param-{Name}` headers. Without it no custom header is built or checked.
   */
  readonly toolInputSchema?: object;
  /** Client side: the revision for `MCP-Protocol-Version` when the body carries none (default 2026-07-28). */
  readonly protocolVersion?: string;
  /**
   * The params field `Mcp-Name` mirrors for this message's method, from its declaration; null
   * when the method names none. Omitted: the SDK's known declarations decide.
   */
  readonly nameSource?: string | null;
}

function nameSourceOf(message: McpInboundMessage, options: McpHttpHeaderOptions): string | undefined {
  if (options.nameSource === undefined) return MCP_NAME_HEADER_SOURCE[message.method];
  return options.nameSource ?? undefined;
}

function bodyValue(message: McpInboundMessage, field: string): unknown {
  return message.params?.[field];
}

function metaVersion(message: McpInboundMessage): unknown {
  const meta = message.params?._meta;
  return meta && typeof meta === 'object' && !Array.isArray(meta) ? (meta as Record<string, unknown>)[MCP_META.protocolVersion] : undefined;
}

function toolArguments(message: McpInboundMessage): unknown {
  return message.params?.arguments;
}

function annotationsFor(message: McpInboundMessage, options: McpHttpHeaderOptions): readonly McpHeaderAnnotation[] {
  if (message.method !== 'tools/call' || !options.toolInputSchema) return [];
  return mcpHeaderAnnotationsOf(options.toolInputSchema);
}

/**
 * Client side: the MCP headers for one message (public SDK; seed 004 "Public SDK").
 * `MCP-Protocol-Version` (the body's `_meta` revision, else `options.protocolVersion`, else
 * 2026-07-28), `Mcp-Method`, `Mcp-Name` for the methods that declare a name source, and
 * `Mcp-Param-{Name}` for every `x-mcp-header`-annotated argument that is present and not null.
 * Values that are not plain header-safe ASCII use the `=?base64?…?=` sentinel. Throws a
 * RangeError when the tool schema's annotations are invalid (such a tool must not be called).
 */
export function buildMcpHttpRequestHeaders(message: McpInboundMessage, options: McpHttpHeaderOptions = {}): Record<string, string> {
  const version = metaVersion(message);
  const headers: Record<string, string> = {
    [MCP_HTTP_HEADER.protocolVersion]: typeof version === 'string' ? version : (options.protocolVersion ?? PM_MCP_PROTOCOL_VERSION),
    [MCP_HTTP_HEADER.method]: message.method,
  };
  const source = nameSourceOf(message, options);
  if (source) {
    const value = bodyValue(message, source);
    if (typeof value === 'string') headers[MCP_HTTP_HEADER.name] = encodeMcpHeaderValue(value);
  }
  const args = toolArguments(message);
  for (const annotation of annotationsFor(message, options)) {
    const value = mcpAnnotatedArgument(args, annotation);
    if (value === undefined || value === null) continue;
    const text = mcpHeaderValueText(value);
    if (text !== undefined) headers[`${MCP_HTTP_HEADER.paramPrefix}${annotation.name}`] = encodeMcpHeaderValue(text);
  }
  return headers;
}

/** Removes optional whitespace (SP, HTAB) around a value; no copy when there is none (the usual case). */
function trimOws(value: string): string {
  const last = value.length - 1;
  if (last < 0) return value;
  const first = value.charCodeAt(0);
  const end = value.charCodeAt(last);
  if (first !== 0x20 && first !== 0x09 && end !== 0x20 && end !== 0x09) return value;
  return value.replace(/^[ \t]+|[ \t]+$/g, '');
}

/** Case-insensitive lookup; a repeated header with different values is reported as such. */
function readHeader(headers: McpHttpHeaders, name: string): { value: string | undefined; repeated: boolean } {
  const lower = name.toLowerCase();
  let raw = headers[lower];
  if (raw === undefined) {
    for (const key in headers) {
      if (key.toLowerCase() === lower) {
        raw = headers[key];
        break;
      }
    }
  }
  if (raw === undefined) return { value: undefined, repeated: false };
  if (typeof raw === 'string') return { value: trimOws(raw), repeated: false };
  const values = [...new Set(raw.map(trimOws))];
  return { value: values[0], repeated: values.length > 1 };
}

function mismatch(message: string, header: string): PmMcpHeaderMismatchError {
  return new PmMcpHeaderMismatchError(`Header mismatch: ${message}`, { header });
}

function quote(value: unknown): string {
  return typeof value === 'string' ? `'${value}'` : JSON.stringify(value);
}

/** Reads a required header and decodes it (sentinel form included). Throws -32020. */
function required(headers: McpHttpHeaders, name: string, what = `${name} header is required`): string {
  const { value, repeated } = readHeader(headers, name);
  if (value === undefined) throw mismatch(`${what} but missing`, name);
  if (repeated) throw mismatch(`${name} header is repeated with different values`, name);
  const decoded = decodeMcpHeaderValue(value);
  if (!decoded.ok) throw mismatch(`${name} header ${decoded.problem}`, name);
  return decoded.value;
}

function sameArgument(header: string, value: unknown, type: McpHeaderAnnotation['type']): boolean {
  if (type === 'integer' && typeof value === 'number') {
    // Integers compare numerically ("007" and "7" name the same integer).
    return /^[+-]?\d+$/.test(header) && Number(header) === value;
  }
  return header === mcpHeaderValueText(value);
}

/**
 * Server side: checks the MCP headers of one modern request against its body, before dispatch
 * (public SDK; seed 004 "Transport behavior"). Header names are case-insensitive, values exact
 * (after trimming optional whitespace). Throws PmMcpHeaderMismatchError (-32020, HTTP 400) when:
 * - `MCP-Protocol-Version` or `Mcp-Method` is missing, or `Mcp-Name` is missing where the
 *   method declares one (tools/call, prompts/get, resources/read; tasks/get|update|cancel;
 *   any registered method with a `nameSource`);
 * - a header is repeated with different values, holds characters outside visible ASCII, or
 *   has malformed Base64 inside the sentinel;
 * - `MCP-Protocol-Version` differs from `_meta["io.modelcontextprotocol/protocolVersion"]`
 *   (a body without that key is left to the -32602 metadata check), `Mcp-Method` from `method`,
 *   the decoded `Mcp-Name` from the mirrored body field;
 * - an `x-mcp-header`-annotated argument is present and not null but its `Mcp-Param-{Name}`
 *   header is missing, or the decoded header differs from it (integers compared numerically).
 *   Null or absent arguments expect no header.
 */
export function validateMcpHttpRequestHeaders(headers: McpHttpHeaders, message: McpInboundMessage, options: McpHttpHeaderOptions = {}): void {
  const version = required(headers, MCP_HTTP_HEADER.protocolVersion);
  const method = required(headers, MCP_HTTP_HEADER.method);
  const source = nameSourceOf(message, options);
  const mirrored = source ? bodyValue(message, source) : undefined;
  const name = source && typeof mirrored === 'string' ? required(headers, MCP_HTTP_HEADER.name, `${MCP_HTTP_HEADER.name} header is required for ${message.method}`) : undefined;
  const bodyVersion = metaVersion(message);
  if (typeof bodyVersion === 'string' && version !== bodyVersion) {
    throw mismatch(`${MCP_HTTP_HEADER.protocolVersion} header value ${quote(version)} does not match body value ${quote(bodyVersion)}`, MCP_HTTP_HEADER.protocolVersion);
  }
  if (method !== message.method) throw mismatch(`${MCP_HTTP_HEADER.method} header value ${quote(method)} does not match body value ${quote(message.method)}`, MCP_HTTP_HEADER.method);
  if (name !== undefined && name !== mirrored) throw mismatch(`${MCP_HTTP_HEADER.name} header value ${quote(name)} does not match body value ${quote(mirrored)}`, MCP_HTTP_HEADER.name);
  const args = toolArguments(message);
  for (const annotation of annotationsFor(message, options)) {
    const value = mcpAnnotatedArgument(args, annotation);
    if (value === undefined || value === null) continue;
    const headerName = `${MCP_HTTP_HEADER.paramPrefix}${annotation.name}`;
    const header = required(headers, headerName, `${headerName} header is required when argument ${annotation.path.join('.')} is present`);
    if (!sameArgument(header, value, annotation.type)) {
      throw mismatch(`${headerName} header value ${quote(header)} does not match argument ${annotation.path.join('.')} value ${quote(value)}`, headerName);
    }
  }
}
