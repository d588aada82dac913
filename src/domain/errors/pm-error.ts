/**
 * Base of every typed error in pm. Each carries the JSON-RPC code it maps to at the transport
 * edge, a stable machine `reason`, structured `data`, and the CLI exit code, so the MCP edge,
 * the CLI and SDK callers all report the same failure the same way (docs/ARCHITECTURE.md
 * "Errors").
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
 * Application error codes for tracker failures. MCP 2026-07-28 reserves -32000..-32099 to the
 * specification ("Error Codes": never emit an undefined one) and asks application codes to sit
 * outside -32768..-32000, so pm uses -31050..-31059.
 */
export const PM_ERROR_CODES = Object.freeze({
  conflict: -31050,
  locked: -31051,
  consentRequired: -31052,
  corrupt: -31053,
  storeUnavailable: -31054,
  storage: -31055,
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
  storage: 9,
  /** A command given several items (ids or a filter) failed on some of them; the others were applied. */
  partial: 10,
});
