import type { OutboundBytes, OutboundMessage } from '../../ports/message-sink.js';
import { MCP_ERROR_CODES } from '../errors/mcp-errors.js';
import type { JsonObject, JsonRpcId } from './wire-types.js';

/**
 * JSON-RPC 2.0 framing helpers shared by every transport binding (stdio lines, HTTP bodies).
 * MCP narrows JSON-RPC: ids are strings or integers and never null, `params` is an object,
 * and no revision pm speaks allows batches (2025-06-18 removed them).
 */

/** A JSON-RPC request (has an id). */
export interface JsonRpcRequest {
  readonly jsonrpc: '2.0';
  readonly id: JsonRpcId;
  readonly method: string;
  readonly params?: JsonObject;
}

/** A JSON-RPC notification (no id; never answered). */
export interface JsonRpcNotification {
  readonly jsonrpc: '2.0';
  readonly method: string;
  readonly params?: JsonObject;
}

/** A JSON-RPC error object. */
export interface JsonRpcErrorObject {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/** The classification of one inbound value. */
export type ClassifiedJsonRpcMessage =
  | { readonly kind: 'request'; readonly message: JsonRpcRequest }
  | { readonly kind: 'notification'; readonly message: JsonRpcNotification }
  | { readonly kind: 'response'; readonly id: JsonRpcId | undefined }
  | { readonly kind: 'invalid'; readonly id: JsonRpcId | undefined; readonly detail: string };

/** True for a valid MCP request id (string, or an integer within the safe range). */
export function isJsonRpcId(value: unknown): value is JsonRpcId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isSafeInteger(value));
}

function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Classifies an already-parsed JSON value as request, notification, response (from the client;
 * pm never sends requests, so these are ignored) or invalid (answered with -32600).
 */
export function classifyJsonRpcMessage(value: unknown): ClassifiedJsonRpcMessage {
  if (Array.isArray(value)) return { kind: 'invalid', id: undefined, detail: 'JSON-RPC batches are not supported' };
  if (!isPlainObject(value)) return { kind: 'invalid', id: undefined, detail: 'a JSON-RPC message must be an object' };
  if (value.method === undefined && ('result' in value || 'error' in value)) return { kind: 'response', id: isJsonRpcId(value.id) ? value.id : undefined };
  const hasId = Object.prototype.hasOwnProperty.call(value, 'id');
  const id = isJsonRpcId(value.id) ? value.id : undefined;
  if (value.jsonrpc !== '2.0') return { kind: 'invalid', id, detail: 'jsonrpc must be "2.0"' };
  if (hasId && id === undefined) return { kind: 'invalid', id: undefined, detail: 'id must be a string or an integer (never null)' };
  if (typeof value.method !== 'string' || value.method.length === 0) return { kind: 'invalid', id, detail: 'method must be a non-empty string' };
  if (value.params !== undefined && !isPlainObject(value.params)) return { kind: 'invalid', id, detail: 'params must be an object' };
  // The validated value itself is the message (no copy: the frame was parsed for this message alone).
  return hasId ? { kind: 'request', message: value as unknown as JsonRpcRequest } : { kind: 'notification', message: value as unknown as JsonRpcNotification };
}

/** The outcome of framing one text frame: a parsed value, or the -32700 response to send. */
export type ParsedMcpFrame = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly response: OutboundMessage };

const PARSE_ERROR = { code: MCP_ERROR_CODES.parseError, message: 'Parse error: the message is not valid JSON' } as const;

/**
 * Parses one frame (a stdio line or an HTTP body). A parse failure yields the -32700 response
 * (no id: it could not be read), which the connection sends as is.
 */
export function parseMcpFrame(text: string): ParsedMcpFrame {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, response: outboundJsonRpcError(undefined, PARSE_ERROR) };
  }
}

/** The typed outbound form of a success response. */
export function outboundJsonRpcResult(id: JsonRpcId, result: JsonObject): OutboundMessage {
  return { kind: 'result', id, text: serializeJsonRpcResult(id, result) };
}

/** The typed outbound form of an error response (the code travels beside the text, for HTTP statuses). */
export function outboundJsonRpcError(id: JsonRpcId | undefined, error: JsonRpcErrorObject): OutboundMessage {
  return { kind: 'error', id, code: error.code, text: serializeJsonRpcError(id, error) };
}

/** The typed outbound form of a -32600 response for an invalid request. */
export function outboundInvalidRequest(id: JsonRpcId | undefined, detail: string): OutboundMessage {
  return outboundJsonRpcError(id, { code: MCP_ERROR_CODES.invalidRequest, message: `Invalid request: ${detail}` });
}

/** The typed outbound form of a notification. */
export function outboundJsonRpcNotification(method: string, params: JsonObject): OutboundMessage {
  return { kind: 'notification', text: serializeJsonRpcNotification(method, params) };
}

/** A notification already serialized (listen streams build theirs once per change). */
export function outboundNotificationText(text: string): OutboundMessage {
  return { kind: 'notification', text };
}

/** Serializes a -32600 response for an invalid request (the id is echoed only when it was readable). */
export function serializeInvalidRequest(id: JsonRpcId | undefined, detail: string): string {
  return serializeJsonRpcError(id, { code: MCP_ERROR_CODES.invalidRequest, message: `Invalid request: ${detail}` });
}

/** Serializes a success response. `resultJson` may be a pre-serialized result (memoized lists). */
export function serializeJsonRpcResult(id: JsonRpcId, result: JsonObject | PreSerializedJson): string {
  const body = result instanceof PreSerializedJson ? result.json : JSON.stringify(result);
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${body}}`;
}

/** Serializes an error response; `id` is omitted when it could not be read. */
export function serializeJsonRpcError(id: JsonRpcId | undefined, error: JsonRpcErrorObject): string {
  return JSON.stringify(id === undefined ? { jsonrpc: '2.0', error } : { jsonrpc: '2.0', id, error });
}

/** Serializes a notification. */
export function serializeJsonRpcNotification(method: string, params: JsonObject): string {
  return JSON.stringify({ jsonrpc: '2.0', method, params });
}

const UTF8_ENCODER = new TextEncoder();

/** A JSON text computed once and spliced into responses unchanged (precomputed list pages). */
export class PreSerializedJson {
  #bytes: Uint8Array | undefined;

  constructor(readonly json: string) {}

  /** The UTF-8 bytes of {@link json}, encoded on first use and kept (byte hosts write them as they are). */
  get bytes(): Uint8Array {
    return (this.#bytes ??= UTF8_ENCODER.encode(this.json));
  }
}

/**
 * A success response whose result is pre-serialized (memoized lists, discover, item reads), as
 * a typed outbound message: `bytes` holds the head, the result's cached UTF-8 bytes and the tail,
 * whose concatenation is exactly `text`. Byte-oriented transports (stdio, Streamable HTTP) write
 * the cached bytes without building or encoding the whole text per request; `text` is built
 * only when something asks for it.
 */
export class PreSerializedJsonRpcResult {
  readonly kind = 'result' as const;
  #text: string | undefined;

  constructor(
    readonly id: JsonRpcId,
    readonly result: PreSerializedJson,
  ) {}

  /** The whole response text. */
  get text(): string {
    return (this.#text ??= serializeJsonRpcResult(this.id, this.result));
  }

  /** Head (`{"jsonrpc":"2.0","id":<id>,"result":`), the result's bytes, tail (`}`). */
  get bytes(): OutboundBytes {
    return { head: `{"jsonrpc":"2.0","id":${JSON.stringify(this.id)},"result":`, body: this.result.bytes, tail: '}' };
  }

  toString(): string {
    return this.text;
  }
}
