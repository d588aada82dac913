import { PmMcpInvalidParamsError, type PmMcpInputRequiredError } from '../../errors/mcp-errors.js';
import type { McpInputRequiredOutcome } from '../method-outcome.js';
import { mcpCallerOf, type McpRequestContext } from '../request-context.js';
import type { JsonObject } from '../wire-types.js';
import { attachMcpInteraction, type McpInteraction } from './interaction.js';
import type { McpRequestStateBinding, PmMcpRequestStateSealer } from './request-state.js';

/**
 * The modern adapter's side of MRTR (seed 004 "MRTR, tasks, and cache behavior"; 2026-07-28
 * `basic/patterns/mrtr`): a retry's `requestState` is verified and its `inputResponses` checked
 * before the handler runs, and a handler's PmMcpInputRequiredError becomes an
 * `input_required` outcome whose state is sealed. Nothing depends on a protocol session:
 * everything the retry needs is in the retry.
 */

/** The binding of a request's state: its method, its arguments, who asked. */
export function mcpRequestStateBinding(ctx: Pick<McpRequestContext, 'method' | 'principal'>, params: JsonObject): McpRequestStateBinding {
  return { method: ctx.method, params, principal: mcpCallerOf(ctx) };
}

/**
 * Reads a retry's `inputResponses` and opens its `requestState` (when the request carries
 * either) and attaches the result to the context. Malformed responses (not an object of
 * objects) are -32602; a state that fails verification is -32602 naming the failed check.
 */
export async function acceptMcpRetry(ctx: McpRequestContext, params: JsonObject, sealer: PmMcpRequestStateSealer | undefined): Promise<void> {
  const responses = params.inputResponses;
  const sealed = params.requestState;
  if (responses === undefined && sealed === undefined) return;
  if (responses !== undefined && (typeof responses !== 'object' || responses === null || Array.isArray(responses) || Object.values(responses).some((r) => typeof r !== 'object' || r === null || Array.isArray(r)))) {
    throw new PmMcpInvalidParamsError('Malformed inputResponses: an object of input responses (ElicitResult, ListRootsResult, CreateMessageResult) by input request key', { field: 'inputResponses' });
  }
  let state: JsonObject | undefined;
  if (typeof sealed === 'string') {
    if (!sealer) throw new PmMcpInvalidParamsError('This server issues no requestState; retry without it', { field: 'requestState' });
    state = await sealer.open(sealed, mcpRequestStateBinding(ctx, params));
  }
  const interaction: McpInteraction = { responses: (responses ?? {}) as Record<string, unknown>, state };
  attachMcpInteraction(ctx, interaction);
}

/** The `input_required` outcome of a handler's request for input, its state sealed. */
export async function mcpInputRequiredOutcome(error: PmMcpInputRequiredError, ctx: McpRequestContext, params: JsonObject, sealer: PmMcpRequestStateSealer | undefined): Promise<McpInputRequiredOutcome> {
  const inputRequests = error.inputRequests;
  const state = error.options.state;
  if (state !== undefined && !sealer) throw new Error(`${ctx.method} asked for input with state, but the server has no request-state sealer`);
  const requestState = state !== undefined ? await sealer!.seal(state as JsonObject, mcpRequestStateBinding(ctx, params), { once: error.options.once === true }) : undefined;
  if (!Object.keys(inputRequests).length && requestState === undefined) throw new Error(`${ctx.method} asked for input without input requests or state`);
  return {
    resultType: 'input_required',
    body: { ...(Object.keys(inputRequests).length ? { inputRequests: inputRequests as JsonObject } : {}), ...(requestState !== undefined ? { requestState } : {}) } as McpInputRequiredOutcome['body'],
  };
}
