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
  readonly reason: string = 'unsupported_protocol_version';
  readonly exitCode = EXIT.usage;
  constructor(
    readonly requested: string,
    readonly supported: readonly string[],
    message = `Unsupported protocol version ${JSON.stringify(requested)}; supported: ${supported.join(', ')}`,
  ) {
    super(message, { supported: [...supported], requested });
  }
}

/**
 * -32022 for any initialize-era request while the operator has turned the legacy adapter off
 * (seed 004 "Rollout, rollback, and proof": the ratchet's last step, undone by re-enabling only
 * the reviewed adapter). `data` keeps the spec's `{supported, requested}` shape, naming the
 * modern revision the client should speak instead.
 */
export class PmMcpLegacyDisabledError extends PmMcpUnsupportedProtocolVersionError {
  override readonly reason = 'legacy_adapter_disabled';
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

/** Which check a `requestState` failed (seed 004 "MRTR, tasks, and cache behavior"). */
export type PmMcpRequestStateCheck = 'malformed' | 'too-large' | 'unknown-key' | 'tampered' | 'expired' | 'other-method' | 'other-arguments' | 'foreign-principal' | 'replayed';

/**
 * -32602: a `requestState` that fails verification. MRTR continuation state is attacker
 * controlled input (2026-07-28 `basic/patterns/mrtr`), so pm refuses it and says which check
 * failed; the client starts the operation again without it.
 */
export class PmMcpRequestStateError extends PmMcpProtocolError {
  readonly jsonRpcCode = MCP_ERROR_CODES.invalidParams;
  readonly reason = 'invalid_request_state';
  readonly exitCode = EXIT.usage;
  constructor(
    readonly check: PmMcpRequestStateCheck,
    message: string,
  ) {
    super(`Invalid requestState (${check}): ${message}; start the operation again without requestState`, { field: 'requestState', check });
  }
}

/**
 * A handler that cannot finish without input from the client (seed 004 "MRTR, tasks, and cache
 * behavior": an SDK handler throws PmMcpInputRequiredError). It names the input requests
 * (`elicitation/create`, `roots/list`, `sampling/createMessage`, keyed by the handler) and, when
 * the retry must carry it back, the state to seal into `requestState`. The modern path answers
 * `resultType: "input_required"` — after checking the request declared what those input
 * requests use (-32021 otherwise); the legacy path cannot ask and refuses with -32021 naming
 * the revision to use.
 */
export class PmMcpInputRequiredError extends PmMcpProtocolError {
  readonly jsonRpcCode = MCP_ERROR_CODES.missingRequiredClientCapability;
  readonly reason = 'input_required';
  readonly exitCode = EXIT.usage;
  constructor(
    readonly inputRequests: Readonly<Record<string, { readonly method: string; readonly params?: Record<string, unknown> }>>,
    readonly options: {
      /** What the retry must bring back, sealed into `requestState` (JSON). */
      readonly state?: Record<string, unknown>;
      /** True when the state may be used once only (a consent). */
      readonly once?: boolean;
      readonly message?: string;
    } = {},
  ) {
    super(options.message ?? `input required: ${Object.keys(inputRequests).join(', ')}`, {});
  }
}
