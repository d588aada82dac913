import type { JsonObject, McpCachePolicy } from './wire-types.js';

/**
 * What a method handler returns: a typed union of the three result types a modern result may
 * carry (seed 004 "Decision": every modern result carries an explicit resultType). The
 * dispatcher turns it into the era's envelope, once; interim results are checked there against
 * the method's declaration and the request (interim-results.ts).
 */

/** A finished result. */
export interface McpCompleteOutcome {
  readonly resultType?: 'complete';
  /** The method-specific result members (no `resultType`, no cache fields). */
  readonly body: JsonObject;
  /** Cache fields, for discover, list and read results (2026-07-28 `server/utilities/caching`). */
  readonly cache?: McpCachePolicy;
  /**
   * When set, the enveloped, serialized result depends only on (era, revision, method, the
   * hooks that ran with their variants, memoKey): the dispatcher serializes it once and reuses
   * the bytes.
   */
  readonly memoKey?: string;
}

/** One request for input from the client (MRTR `InputRequest`: `elicitation/create`, `roots/list`, `sampling/createMessage`). */
export interface McpInputRequest extends JsonObject {
  readonly method: string;
  readonly params?: JsonObject;
}

/** MRTR: the request cannot finish without input from the client (2026-07-28 `InputRequiredResult`). */
export interface McpInputRequiredOutcome {
  readonly resultType: 'input_required';
  readonly body: JsonObject & { readonly inputRequests?: Readonly<Record<string, McpInputRequest>>; readonly requestState?: string };
}

/** The tasks extension: the operation continues as a durable task (`CreateTaskResult` members). */
export interface McpTaskOutcome {
  readonly resultType: 'task';
  readonly body: JsonObject;
}

/** Any method outcome. */
export type McpMethodOutcome = McpCompleteOutcome | McpInputRequiredOutcome | McpTaskOutcome;

/** The result type of an outcome (`complete` when unset). */
export function mcpOutcomeResultType(outcome: McpMethodOutcome): 'complete' | 'input_required' | 'task' {
  return outcome.resultType ?? 'complete';
}
