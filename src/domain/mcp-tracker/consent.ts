import { ConsentRequiredError, PmMcpInputRequiredError, PmMcpInvalidParamsError } from '../errors/index.js';
import { mcpInteractionOf } from '../mcp/interaction/interaction.js';
import type { McpRequestContext } from '../mcp/request-context.js';
import type { ConsentProvider, ConsentRequest } from '../tracker/consent.js';

/**
 * How the MCP tools obtain consent for destructive operations (docs/TRACKER.md "Mutations":
 * the caller passes a consent provider; MCP's is the explicit `confirm` argument). Every
 * consent goes through the domain's {@link ConsentProvider}; a resolver decides, per call,
 * which provider (if any) answers. Upgrading to MRTR elicitation (seed 004 "MRTR, tasks, and
 * cache behavior") means supplying another resolver — one that asks through
 * `elicitation/create` — without touching the tools.
 */

/** What a resolver knows about the call asking for consent. */
export interface PmMcpConsentCall {
  /** The tool asking (`pm_delete`, `pm_close`). */
  readonly tool: string;
  /** The explicit `confirm` argument, when the call gave one. */
  readonly confirm: boolean | undefined;
  readonly ctx: McpRequestContext;
}

/**
 * Returns the consent provider for one call, or undefined when consent cannot be obtained; the
 * tracker then refuses with ConsentRequiredError and writes nothing.
 */
export type PmMcpConsentResolver = (call: PmMcpConsentCall) => ConsentProvider | undefined;

/** Consent as the explicit `confirm: true` argument (works on both paths, needs no client capability). */
export const confirmArgumentConsent: PmMcpConsentResolver = ({ confirm }) => (confirm === true ? () => true : undefined);

/** The input-request key of a consent question. */
export const PM_MCP_CONSENT_INPUT = 'consent';

/** What a consent question is about: bound into the sealed state, so an answer counts only for its own question. */
function consentSubject(request: ConsentRequest): string {
  return `${request.action}:${request.itemId}`;
}

/** The `elicitation/create` form that asks a person to confirm a destructive operation. */
export function pmMcpConsentElicitation(request: ConsentRequest): { readonly method: string; readonly params: Record<string, unknown> } {
  return {
    method: 'elicitation/create',
    params: {
      mode: 'form',
      message: request.message,
      requestedSchema: {
        type: 'object',
        properties: { confirm: { type: 'boolean', title: 'Confirm', description: `Yes, ${request.action === 'delete' ? 'delete' : request.action === 'take_claim' ? 'take over the claim on' : 'cancel'} ${request.itemId}` } },
        required: ['confirm'],
      },
    },
  };
}

/** Reads an ElicitResult answer: accepted with `confirm` not false is a yes; decline and cancel are a no. */
function consentAnswer(answer: unknown): boolean {
  const result = answer as { action?: unknown; content?: { confirm?: unknown } };
  if (!result || typeof result !== 'object' || !['accept', 'decline', 'cancel'].includes(result.action as string)) {
    throw new PmMcpInvalidParamsError(`Malformed inputResponses.${PM_MCP_CONSENT_INPUT}: an ElicitResult with action accept, decline or cancel`, { field: `inputResponses.${PM_MCP_CONSENT_INPUT}` });
  }
  return result.action === 'accept' && result.content?.confirm !== false;
}

/**
 * Consent through MRTR elicitation on the modern path (seed 004 "MRTR, tasks, and cache
 * behavior"; docs/TRACKER.md "Mutations"): the first call asks the host with an
 * `elicitation/create` form (`input_required`, the question sealed one-time into
 * `requestState`; a client that declared no `elicitation` gets -32021 instead), and the retry
 * carries the person's answer. An accepted form is consent; a declined or cancelled one changes
 * nothing and says so. An answer counts only with the verified state of its own question. On
 * the legacy path (no MRTR) consent stays the explicit `confirm: true` argument; on the modern
 * path `confirm` is not consent — the host's answer is.
 */
export const elicitationConsent: PmMcpConsentResolver = (call) => {
  if (call.ctx.era === 'legacy') return confirmArgumentConsent(call);
  return (request) => {
    const interaction = mcpInteractionOf(call.ctx);
    const subject = consentSubject(request);
    const answered = interaction.state?.consent === subject ? interaction.responses[PM_MCP_CONSENT_INPUT] : undefined;
    if (answered !== undefined) return consentAnswer(answered);
    throw new PmMcpInputRequiredError({ [PM_MCP_CONSENT_INPUT]: pmMcpConsentElicitation(request) }, { state: { consent: subject }, once: true, message: `${call.tool} needs consent: ${request.message}` });
  };
};

/**
 * Rewrites the tracker's ConsentRequiredError (in words no edge owns: remedy.ts) so the model
 * learns how to consent through this tool: call it again with `confirm: true`.
 */
export function explainMcpConsent(error: unknown, tool: string): unknown {
  if (!(error instanceof ConsentRequiredError)) return error;
  const request = error.data.consentRequest as ConsentRequest | undefined;
  if (error.data.declined) return new ConsentRequiredError(`Consent was not given: ${request?.itemId ?? 'the item'} was left unchanged.`, { ...error.data });
  const question = request?.message ?? 'This operation is destructive.';
  return new ConsentRequiredError(`${question} Nothing was changed. To proceed, call ${tool} again with the same arguments plus confirm: true.`, { ...error.data, confirmWith: { confirm: true } });
}
