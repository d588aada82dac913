import type { JsonObject } from '../mcp/wire-types.js';
import { PM_MCP_APP_CONTRACTS, PM_MCP_APP_LEGACY_RESOURCE_URI_KEY, pmMcpAppContractForTool, type PmMcpAppContract } from './app-contracts.js';

/**
 * The tools/list entries a negotiated request sees (seed 000 "MCP Apps"; MCP Apps 2026-01-26
 * §Resource Discovery, §Visibility).
 *
 * - A tool with a view gets `_meta.ui = {resourceUri, visibility: ["model", "app"]}` and the
 *   deprecated flat `_meta["ui/resourceUri"]` hosts are still asked to read.
 * - A tool that is not read-only (`annotations.readOnlyHint` not true) gets
 *   `_meta.ui.visibility = ["model"]`: a host MUST reject a view's call to a tool whose
 *   visibility lacks `"app"`, so no view can reach a mutation through its host. Mutations stay
 *   with the model, under their guards, consent, idempotency and receipts.
 * - Every other member, and every other tool, is left exactly as it was.
 */

/** The `visibility` of a tool a view renders, and of a tool no view may call. */
export const PM_MCP_APP_VIEW_TOOL_VISIBILITY = Object.freeze(['model', 'app'] as const);
export const PM_MCP_APP_MODEL_ONLY_VISIBILITY = Object.freeze(['model'] as const);

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function withUi(tool: JsonObject, ui: JsonObject, flat: JsonObject): JsonObject {
  const meta = isObject(tool._meta) ? tool._meta : {};
  const previous = isObject(meta.ui) ? meta.ui : {};
  return { ...tool, _meta: { ...meta, ...flat, ui: { ...previous, ...ui } } };
}

function isReadOnly(tool: JsonObject): boolean {
  return isObject(tool.annotations) && tool.annotations.readOnlyHint === true;
}

/**
 * The negotiated variant of a `tools/list` entry list: new entries where Apps change them, the
 * same objects otherwise. Pure: the same input always gives equal output, so the variant can be
 * memoized.
 */
export function decoratePmMcpToolsWithApps<T extends JsonObject>(tools: readonly T[], contracts: readonly PmMcpAppContract[] = PM_MCP_APP_CONTRACTS): readonly JsonObject[] {
  return tools.map((tool) => {
    const name = typeof tool.name === 'string' ? tool.name : '';
    const view = pmMcpAppContractForTool(name, contracts);
    if (view) return withUi(tool, { resourceUri: view.resourceUri, visibility: [...PM_MCP_APP_VIEW_TOOL_VISIBILITY] }, { [PM_MCP_APP_LEGACY_RESOURCE_URI_KEY]: view.resourceUri });
    if (!isReadOnly(tool)) return withUi(tool, { visibility: [...PM_MCP_APP_MODEL_ONLY_VISIBILITY] }, {});
    return tool;
  });
}
