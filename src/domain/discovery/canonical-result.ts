import type { McpMethodOutcome } from '../mcp/method-outcome.js';
import type { JsonObject, McpContentBlock } from '../mcp/wire-types.js';
import { PM_TOOL_DISCOVERY_CANONICAL_RESULT } from './discovery-capability.js';

/**
 * Canonical model-facing tool results (seed 004 "Decision": negotiated tool results designate
 * structuredContent.result as canonical and use text content only as a pointer). A negotiated
 * result carries its value once, as `structuredContent.result`, and its first content block is
 * a fixed pointer to it instead of a second rendering of the same data. Further content blocks
 * (resource links, images) stay. Results without structured content (tool failures, whose text
 * is the error message rather than a copy of anything) are left as they are. The same `result`
 * wrapping is the one the official SDK uses to project non-object outputs onto 2025-11-25.
 *
 * Unnegotiated clients never reach this code: their text comes from the core's compatibility
 * adapter (buildMcpCompatToolText), unchanged.
 */

/** The text of a negotiated result's first content block. */
export const PM_CANONICAL_RESULT_POINTER = `Result in ${PM_TOOL_DISCOVERY_CANONICAL_RESULT}.`;

/** The canonical body of a `tools/call` result body (see the module comment). */
export function toPmCanonicalToolResultBody(body: JsonObject): JsonObject {
  const structured = body.structuredContent;
  const content = body.content as readonly McpContentBlock[] | undefined;
  if (structured === undefined || !Array.isArray(content) || content[0]?.type !== 'text') return body;
  return {
    content: [{ type: 'text', text: PM_CANONICAL_RESULT_POINTER }, ...content.slice(1)],
    structuredContent: { result: structured },
    ...(body.isError === true ? { isError: true } : {}),
  };
}

/** The canonical form of a finished `tools/call` outcome (interim results pass unchanged). */
export function toPmCanonicalToolOutcome(outcome: McpMethodOutcome): McpMethodOutcome {
  if (outcome.resultType !== undefined && outcome.resultType !== 'complete') return outcome;
  const body = toPmCanonicalToolResultBody(outcome.body);
  return body === outcome.body ? outcome : { ...outcome, body };
}
