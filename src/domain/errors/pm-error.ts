/**
 * Base of every typed error in pm. Each carries the JSON-RPC code it maps to at the transport
 * edge, a stable machine `reason`, structured `data`, and the CLI exit code, so the MCP edge,
 * the CLI and SDK callers all report the same failure the same way (DEVELOPERS.md rule 5).
 */
export abstract class PmError extends Error {
  abstract readonly jsonRpcCode: number;
  abstract readonly reason: string;
  abstract readonly exitCode: number;
  readonly data: Readonly<Record<string, unknown>>;

  constructor(message: string, data: Record<string, unknown> = {}) {
    super(message);
    this.name = new.target.name;
    this.data = Object.freeze({ ...data });
  }

  /** The JSON-RPC error object for this failure. */
  toJsonRpcError(): { code: number; message: string; data: Record<string, unknown> } {
    return { code: this.jsonRpcCode, message: this.message, data: { reason: this.reason, ...this.data } };
  }
}

/** JSON-RPC Invalid Params (-32602). */
export const INVALID_PARAMS = -32602;
/** JSON-RPC Internal Error (-32603). */
export const INTERNAL_ERROR = -32603;

/**
 * Application error codes for tracker failures. JSON-RPC reserves -32000..-32099 for
 * implementation-defined server errors; MCP 2026-07-28 allocates -32020..-32022 and -32042,
 * and legacy revisions -32002, so pm uses -32050..-32059.
 */
export const PM_ERROR_CODES = Object.freeze({
  conflict: -32050,
  locked: -32051,
  consentRequired: -32052,
  corrupt: -32053,
});

/** CLI exit codes (docs/CLI.md). */
export const EXIT = Object.freeze({
  ok: 0,
  failure: 1,
  usage: 2,
  notFound: 3,
  conflict: 4,
  invalid: 5,
  consent: 6,
  corrupt: 7,
  locked: 8,
});
