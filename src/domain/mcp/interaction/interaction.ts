import type { JsonObject } from '../wire-types.js';

/**
 * What the client sent back on an MRTR retry (2026-07-28 `basic/patterns/mrtr`): its
 * `inputResponses`, keyed as the input requests were, and the state pm sealed into the
 * `requestState` it answers to — already verified (integrity, expiry, method, arguments,
 * principal, replay) by the dispatcher. Empty on a first request.
 */
export interface McpInteraction {
  /** The client's answers by input-request key (ElicitResult, ListRootsResult, CreateMessageResult). */
  readonly responses: Readonly<Record<string, unknown>>;
  /** The verified state of the `requestState`, or undefined when the request carried none. */
  readonly state: JsonObject | undefined;
}

/** The interaction of a request that answers nothing. */
export const NO_MCP_INTERACTION: McpInteraction = Object.freeze({ responses: Object.freeze({}), state: undefined });

const interactions = new WeakMap<object, McpInteraction>();

/** What the client sent back on this request's MRTR retry (verified), or nothing. */
export function mcpInteractionOf(ctx: object): McpInteraction {
  return interactions.get(ctx) ?? NO_MCP_INTERACTION;
}

/** Attaches a verified interaction to a request context (the dispatcher, before the handler runs). */
export function attachMcpInteraction(ctx: object, interaction: McpInteraction): void {
  interactions.set(ctx, Object.freeze({ responses: Object.freeze({ ...interaction.responses }), state: interaction.state }));
}
