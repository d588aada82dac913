import { utf8Length } from '../util/utf8.js';

/**
 * How pm estimates what a piece of model-facing JSON or text costs in tokens (seed 004
 * "Decision": the public SDK owns token receipts): one token per three UTF-8 bytes, rounded
 * up. JSON full of ids, timestamps and punctuation packs fewer bytes into a token than prose
 * does, so a four-byte rule undercounts tool results; three bytes errs high for the hosts'
 * byte-pair tokenizers (docs/BENCHMARKS.md "bench:tokens" compares it with a real one), which is
 * the safe side for a budget that must never be exceeded. It is an estimate, not a count.
 */
export const PM_MCP_TOKEN_ESTIMATE_METHOD = 'ceil(utf8Bytes / 3)' as const;

const BYTES_PER_TOKEN = 3;

/** Estimated tokens of `byteLength` UTF-8 bytes. */
export function estimatePmMcpTokensOfBytes(byteLength: number): number {
  return Math.ceil(byteLength / BYTES_PER_TOKEN);
}

/** Estimated tokens of a text. */
export function estimatePmMcpTokens(text: string): number {
  return estimatePmMcpTokensOfBytes(utf8Length(text));
}

/** Estimated tokens of a JSON value as it is serialized on the wire (compact JSON). */
export function estimatePmMcpJsonTokens(value: unknown): number {
  return estimatePmMcpTokens(JSON.stringify(value) ?? '');
}

/** The UTF-8 bytes a token budget allows. */
export function pmMcpTokenBudgetBytes(tokens: number): number {
  return tokens * BYTES_PER_TOKEN;
}
