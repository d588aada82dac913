import { ConsentRequiredError } from '../errors/index.js';
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

/** The default resolver: consent is the explicit `confirm: true` argument (works on both paths, needs no client capability). */
export const confirmArgumentConsent: PmMcpConsentResolver = ({ confirm }) => (confirm === true ? () => true : undefined);

/**
 * Rewrites the tracker's ConsentRequiredError (which speaks of the CLI's --yes) so the model
 * learns how to consent through this tool: call it again with `confirm: true`.
 */
export function explainMcpConsent(error: unknown, tool: string): unknown {
  if (!(error instanceof ConsentRequiredError) || error.data.declined) return error;
  const request = error.data.consentRequest as ConsentRequest | undefined;
  const question = request?.message ?? 'This operation is destructive.';
  return new ConsentRequiredError(`${question} Nothing was changed. To proceed, call ${tool} again with the same arguments plus confirm: true.`, { ...error.data, confirmWith: { confirm: true } });
}
