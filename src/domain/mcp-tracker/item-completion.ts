import type { McpCompletionValues } from '../mcp/resource-registry.js';
import type { Tracker } from '../tracker/tracker.js';
import { MCP_MAX_COMPLETION_VALUES } from '../mcp/methods/prompt-methods.js';

/**
 * Completion of item ids for `completion/complete` (2026-07-28 `server/utilities/completion`:
 * at most 100 values, with total and hasMore): ids starting with the typed
 * prefix, most recently updated first, found in one pass over the tracker's index.
 */
export async function completeItemIds(tracker: Tracker, prefix: string): Promise<McpCompletionValues> {
  const page = await tracker.list({ all: true, idPrefix: prefix.trim().toLowerCase(), sort: 'updated', limit: MCP_MAX_COMPLETION_VALUES });
  return { values: page.items.map((s) => s.id), total: page.total };
}
