import type { AnyMcpToolDefinition } from '../mcp/tool-registry.js';
import { pmDeleteTool, pmExportTool, pmValidateTool } from './admin-tools.js';
import { pmContextTool } from './context-tool.js';
import { pmCreateTool, pmUpdateTool } from './create-update-tools.js';
import { pmDepsTool, pmGraphTool } from './graph-tools.js';
import { pmGetTool, pmHistoryTool } from './item-tools.js';
import { PM_MCP_TOOL_NAMES, type PmMcpToolName } from './profiles.js';
import { pmListTool, pmNextTool, pmSearchTool } from './query-tools.js';
import type { PmTrackerToolDeps } from './tool-kit.js';
import { pmClaimTool, pmCloseTool, pmCommentTool, pmReleaseTool, pmReopenTool } from './workflow-tools.js';

/**
 * The catalogue of SDK-backed tracker tools: one factory per tool name.
 * Definitions are built from the tracker (its config shapes the schemas) and validated by
 * PmMcpToolRegistry before they are advertised.
 */
export const PM_MCP_TOOL_FACTORIES: Readonly<Record<PmMcpToolName, (deps: PmTrackerToolDeps) => AnyMcpToolDefinition>> = Object.freeze({
  pm_context: pmContextTool,
  pm_next: pmNextTool,
  pm_list: pmListTool,
  pm_get: pmGetTool,
  pm_search: pmSearchTool,
  pm_create: pmCreateTool,
  pm_update: pmUpdateTool,
  pm_claim: pmClaimTool,
  pm_release: pmReleaseTool,
  pm_close: pmCloseTool,
  pm_reopen: pmReopenTool,
  pm_comment: pmCommentTool,
  pm_deps: pmDepsTool,
  pm_graph: pmGraphTool,
  pm_history: pmHistoryTool,
  pm_delete: pmDeleteTool,
  pm_validate: pmValidateTool,
  pm_export: pmExportTool,
});

/** The definitions of `names`, in catalogue order. */
export function createPmTrackerTools(deps: PmTrackerToolDeps, names: readonly PmMcpToolName[] = PM_MCP_TOOL_NAMES): AnyMcpToolDefinition[] {
  return PM_MCP_TOOL_NAMES.filter((n) => names.includes(n)).map((n) => PM_MCP_TOOL_FACTORIES[n](deps));
}
