import { estimatePmMcpJsonTokens, estimatePmMcpTokens } from '../discovery/token-estimate.js';
import type { JsonObject } from '../mcp/wire-types.js';
import { OUTPUT, outputObject } from './json-schemas.js';

/**
 * Bounded reads for every client (seed 004 "Decision": negotiated or not, a tool result must stay
 * model-sized): besides its row limit, every list-like tool result stays within a token budget,
 * whatever the tracker holds — ten thousand items never make a forty-thousand-token result. The
 * budget is counted for the costliest way the result is sent: its structured JSON plus its text,
 * or plus the same JSON again where the compatibility adapter duplicates it (initialize-era
 * clients). A result cut by the budget says so in `omitted` (how many rows, the budget, how to
 * get the rest) and continues with its cursor; results the budget does not touch are unchanged.
 */

/** The most estimated tokens a list-like tool result may cost (docs/DISCOVERY.md "Bounded reads"). */
export const PM_MCP_RESULT_TOKEN_BUDGET = 8000;

/** What a result cut by the token budget says it left out. */
export interface PmMcpBudgetOmission extends JsonObject {
  readonly reason: 'token_budget';
  /** Rows of this page left out (they follow with the cursor, when there is one). */
  readonly rows: number;
  readonly tokenBudget: number;
  readonly recovery: string;
}

/** The output schema of `omitted`. */
export const OMITTED_SCHEMA: JsonObject = outputObject({ reason: OUTPUT.str, rows: OUTPUT.int, tokenBudget: OUTPUT.int, recovery: OUTPUT.str });

/**
 * The worst-case estimated tokens of a result: its JSON, plus its text or the same JSON again,
 * whichever is larger — each text as it is carried, escaped inside the result's JSON (quotes in
 * a duplicated JSON text double up).
 */
export function worstCaseResultTokens(data: unknown, text: string): number {
  const json = JSON.stringify(data) ?? '';
  return estimatePmMcpTokens(json) + Math.max(estimatePmMcpTokens(JSON.stringify(json)), estimatePmMcpJsonTokens(text));
}

/**
 * The most leading rows (of `count`) whose result fits the budget; `build(k)` renders the
 * result with the first k rows. Exact (the real result is measured, a binary search over k);
 * 0 when not even one row fits.
 */
export function rowsWithinBudget(count: number, build: (rows: number) => { readonly data: unknown; readonly text: string }, budget = PM_MCP_RESULT_TOKEN_BUDGET): number {
  return fitWithinBudget(count, build, budget).rows;
}

/**
 * {@link rowsWithinBudget}, with the result it measured for those rows (`result`, absent when
 * not even one row fits): a page within the budget — nearly every page — is rendered once, not
 * once to measure and again to send.
 */
export function fitWithinBudget<R extends { readonly data: unknown; readonly text: string }>(count: number, build: (rows: number) => R, budget = PM_MCP_RESULT_TOKEN_BUDGET): { rows: number; result?: R } {
  const measured = (k: number) => {
    const result = build(k);
    return worstCaseResultTokens(result.data, result.text) <= budget ? result : undefined;
  };
  const whole = count === 0 ? build(0) : measured(count);
  if (whole) return { rows: count, result: whole };
  let low = 0;
  let lowResult: R | undefined;
  let high = count; // fits(low) is assumed (an empty page is small); fits(high) is false
  while (high - low > 1) {
    const mid = (low + high) >> 1;
    const result = measured(mid);
    if (result) [low, lowResult] = [mid, result];
    else high = mid;
  }
  return lowResult ? { rows: low, result: lowResult } : { rows: low };
}

/** The omission of `rows` rows, with how to get them. */
export function budgetOmission(rows: number, recovery: string): PmMcpBudgetOmission {
  return { reason: 'token_budget', rows, tokenBudget: PM_MCP_RESULT_TOKEN_BUDGET, recovery };
}

/** The text line announcing a budget cut. */
export function budgetLine(omission: PmMcpBudgetOmission): string {
  return `Cut at the ${omission.tokenBudget}-token result budget: ${omission.rows} more left out; ${omission.recovery}.`;
}
