import type { McpEra } from '../protocol.js';
import type { McpToolOutput } from '../tool-registry.js';

/**
 * The compatibility adapter for tool-result text (seed 004 "Decision": the isolated
 * compatibility adapter retains duplicated JSON text for existing clients). Every client that
 * did not negotiate canonical results gets its first text block from here, and only here:
 *
 * - legacy (initialize-era) requests: the JSON text of `structuredContent`, duplicated beside
 *   it, as clients of those revisions expect;
 * - 2026-07-28 requests: the tool's readable rendering, or the same JSON when it gives none.
 *
 * Requests that negotiated progressive tool discovery have their text replaced by a pointer to
 * `structuredContent.result` afterwards (the discovery extension's result shaper). Once no
 * client needs the duplicated text, this file is what goes.
 */
export function buildMcpCompatToolText(output: McpToolOutput, era: McpEra): string {
  return era === 'legacy' || output.text === undefined ? JSON.stringify(output.structuredContent) : output.text;
}
