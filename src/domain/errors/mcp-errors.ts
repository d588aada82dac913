import { EXIT, INTERNAL_ERROR, INVALID_PARAMS, PmError } from './pm-error.js';

/**
 * MCP protocol error codes (JSON-RPC 2.0 plus the MCP 2026-07-28 allocations, spec
 * `basic/index` "Error Codes"). `-32002` exists only on the legacy (initialize-era) path.
 */
export const MCP_ERROR_CODES = Object.freeze({
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: INVALID_PARAMS,
  internalError: INTERNAL_ERROR,
  headerMismatch: -32020,
  missingRequiredClientCapability: -32021,
  unsupportedProtocolVersion: -32022,
  /** Legacy resource-not-found (2025-11-25 and 2025-06-18 only; MUST NOT be sent in 2026-07-28). */
  legacyResourceNotFound: -32002,
});

/**
 * Base of the errors the MCP protocol itself defines. Unlike tracker errors, their JSON-RPC
 * `data` is exactly the spec's shape (no extra `reason` key), because clients parse it
 * (e.g. `-32022` `{supported, requested}`). A tool handler that throws one of these produces
 * a protocol error, never an `isError` tool result.
 */
export abstract class PmMcpProtocolError extends PmError {
  /** A different code for the legacy path, when the legacy revisions define one. */
  readonly legacyJsonRpcCode: number | undefined = undefined;

  override toJsonRpcError(): { code: number; message: string; data: Record<string, unknown> } {
    return { code: this.jsonRpcCode, message: this.message, data: { ...this.data } };
  }
}

/** -32700: the frame is not JSON. */
export class PmMcpParseError extends PmMcpProtocolError {
  readonly jsonRpcCode = MCP_ERROR_CODES.parseError;
  readonly reason = 'parse_error';
  readonly exitCode = EXIT.usage;
}

/** -32600: JSON, but not a valid JSON-RPC request object (bad `jsonrpc`, `id: null`, batch, …). */
export class PmMcpInvalidRequestError extends PmMcpProtocolError {
  readonly jsonRpcCode = MCP_ERROR_CODES.invalidRequest;
  readonly reason = 'invalid_request';
  readonly exitCode = EXIT.usage;
}

/** -32601: unknown method, a method removed in 2026-07-28, or one gated on an unadvertised capability. */
export class PmMcpMethodNotFoundError extends PmMcpProtocolError {
  readonly jsonRpcCode = MCP_ERROR_CODES.methodNotFound;
  readonly reason = 'method_not_found';
  readonly exitCode = EXIT.usage;
  constructor(readonly method: string, message = `Method not found: ${method}`) {
    super(message, { method });
  }
}

/** -32602: malformed request `_meta`, malformed params, unknown tool or prompt, invalid cursor. */
export class PmMcpInvalidParamsError extends PmMcpProtocolError {
  readonly jsonRpcCode = MCP_ERROR_CODES.invalidParams;
  readonly reason = 'invalid_params';
  readonly exitCode = EXIT.usage;
}

/**
 * Resource not found: `-32602` with `data.uri` in 2026-07-28 (SEP-2164), `-32002` on the
 * legacy path (2025-11-25 / 2025-06-18 `server/resources`).
 */
export class PmMcpResourceNotFoundError extends PmMcpProtocolError {
  readonly jsonRpcCode = MCP_ERROR_CODES.invalidParams;
  override readonly legacyJsonRpcCode = MCP_ERROR_CODES.legacyResourceNotFound;
  readonly reason = 'resource_not_found';
  readonly exitCode = EXIT.notFound;
  constructor(readonly uri: string) {
    super('Resource not found', { uri });
  }
}

/**
 * -32022 UnsupportedProtocolVersion. `data` is `{supported, requested}` (2026-07-28 schema).
 * Also used, by the seed decision, to refuse a legacy `initialize` outside the declared set.
 */
export class PmMcpUnsupportedProtocolVersionError extends PmMcpProtocolError {
  readonly jsonRpcCode = MCP_ERROR_CODES.unsupportedProtocolVersion;
  readonly reason = 'unsupported_protocol_version';
  readonly exitCode = EXIT.usage;
  constructor(
    readonly requested: string,
    readonly supported: readonly string[],
    message = `Unsupported protocol version ${JSON.stringify(requested)}; supported: ${supported.join(', ')}`,
  ) {
    super(message, { supported: [...supported], requested });
  }
}

/** -32021 MissingRequiredClientCapability; `data.requiredCapabilities` names only what is missing. */
export class PmMcpMissingClientCapabilityError extends PmMcpProtocolError {
  readonly jsonRpcCode = MCP_ERROR_CODES.missingRequiredClientCapability;
  readonly reason = 'missing_client_capability';
  readonly exitCode = EXIT.usage;
  constructor(readonly requiredCapabilities: Record<string, unknown>, message = 'This request needs a client capability it did not declare') {
    super(message, { requiredCapabilities });
  }
}

/** -32020 HeaderMismatch (Streamable HTTP only): a required MCP header is missing, malformed or differs from the body. */
export class PmMcpHeaderMismatchError extends PmMcpProtocolError {
  readonly jsonRpcCode = MCP_ERROR_CODES.headerMismatch;
  readonly reason = 'header_mismatch';
  readonly exitCode = EXIT.usage;
}

/** -32603 for a fault the server detected itself (unexpected throws are mapped to -32603 too). */
export class PmMcpInternalError extends PmMcpProtocolError {
  readonly jsonRpcCode = MCP_ERROR_CODES.internalError;
  readonly reason = 'internal_error';
  readonly exitCode = EXIT.failure;
}

/**
 * An interim result (MRTR `input_required`, a tasks-extension `task`) that this request cannot
 * receive: the initialize-era path has no interim results at all (2025-11-25 results carry no
 * `resultType`), and a modern request must have declared what the interim result needs.
 * -32021 with `requiredCapabilities` naming what to declare and, on the legacy path,
 * `requiredProtocolVersion` naming the revision to send the request with.
 */
export class PmMcpInterimResultUnsupportedError extends PmMcpProtocolError {
  readonly jsonRpcCode = MCP_ERROR_CODES.missingRequiredClientCapability;
  readonly reason = 'interim_result_unsupported';
  readonly exitCode = EXIT.usage;
  constructor(
    readonly resultType: string,
    readonly requiredCapabilities: Record<string, unknown>,
    message: string,
    readonly requiredProtocolVersion?: string,
  ) {
    super(message, { requiredCapabilities, ...(requiredProtocolVersion !== undefined ? { requiredProtocolVersion } : {}) });
  }
}
