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
export type ParsedMcpFrame = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly response: string };

/**
 * Parses one frame (a stdio line or an HTTP body). A parse failure yields the serialized
 * -32700 response (no id: it could not be read), which the framing layer sends as is.
 */
export function parseMcpFrame(text: string): ParsedMcpFrame {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, response: serializeJsonRpcError(undefined, { code: MCP_ERROR_CODES.parseError, message: 'Parse error: the message is not valid JSON' }) };
  }
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
 * A success response whose result is pre-serialized (memoized lists, discover), kept in parts:
 * `head` + the result + `}` is exactly {@link serializeJsonRpcResult}'s text. A byte-oriented host
 * (Streamable HTTP) writes the result's cached bytes without building or encoding the whole text
 * per request (issue 4 "Performance (benchmark)").
 */
export class PreSerializedJsonRpcResult {
  constructor(
    readonly id: JsonRpcId,
    readonly result: PreSerializedJson,
  ) {}

  /** The text before the result: `{"jsonrpc":"2.0","id":<id>,"result":`. */
  get head(): string {
    return `{"jsonrpc":"2.0","id":${JSON.stringify(this.id)},"result":`;
  }

  /** The text after the result. */
  get tail(): string {
    return '}';
  }

  /** The whole response text. */
  toString(): string {
    return serializeJsonRpcResult(this.id, this.result);
  }
}
