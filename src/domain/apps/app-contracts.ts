import type { PmMcpToolName } from '../mcp-tracker/profiles.js';

/**
 * The MCP Apps contracts of pm (seed 000 "MCP Apps"; MCP Apps 2026-01-26, SEP-1865): which
 * existing, SDK-backed tool renders in which `ui://` view, and which read-only tools that view
 * may ask the host to call for drill-down. Plain data with no imports beyond types, so the
 * views' own build (browser code) reads the same table the server advertises.
 */

/** The extension id a client declares to receive Apps (MCP Apps 2026-01-26 §Client (Host) Capabilities). */
export const PM_MCP_APPS_EXTENSION_ID = 'io.modelcontextprotocol/ui';
/** The stable MCP Apps revision pm implements (seed 000 "MCP Apps"). */
export const PM_MCP_APPS_SPEC_VERSION = '2026-01-26';
/** The MIME type of every `ui://` document (MCP Apps 2026-01-26 §UI Resource Format). */
export const PM_MCP_APP_MIME_TYPE = 'text/html;profile=mcp-app';
/** The deprecated flat tool `_meta` key hosts still read beside `_meta.ui.resourceUri` (MCP Apps 2026-01-26 §Resource Discovery). */
export const PM_MCP_APP_LEGACY_RESOURCE_URI_KEY = 'ui/resourceUri';
/**
 * Every view document stays below this many bytes (seed 000 "MCP Apps": bounded, self-contained
 * views). About 420 KB is the official `App` runtime, about 150 KB the CommonMark parser that
 * renders bodies and comments (docs/APPS.md "Markdown").
 */
export const PM_MCP_APP_MAX_HTML_BYTES = 650_000;

/** The five pm views. */
export const PM_MCP_APP_VIEWS = ['context', 'board', 'item', 'graph', 'history'] as const;
export type PmMcpAppView = (typeof PM_MCP_APP_VIEWS)[number];

/** One tool-to-view contract. */
export interface PmMcpAppContract {
  /** The view's name; its built assets are `<view>.js` and `<view>.css`. */
  readonly view: PmMcpAppView;
  /** The existing tool whose results the view renders. */
  readonly tool: PmMcpToolName;
  /** The `ui://` resource the tool's `_meta.ui.resourceUri` names. */
  readonly resourceUri: string;
  /** `Resource.name` in resources/list. */
  readonly name: string;
  readonly title: string;
  readonly description: string;
  /**
   * The read-only tools the view may ask the host to call (drill-down: open an item, expand a
   * graph node, load the next page). Never a tool that changes the tracker: mutations stay with
   * the model-facing tools, their guards, consent, idempotency and receipts.
   */
  readonly drillDown: readonly PmMcpToolName[];
}

const contract = (view: PmMcpAppView, tool: PmMcpToolName, title: string, description: string, drillDown: readonly PmMcpToolName[]): PmMcpAppContract =>
  Object.freeze({ view, tool, resourceUri: `ui://pm/${view}.html`, name: `pm-${view}-view`, title, description, drillDown: Object.freeze([...drillDown]) });

/** The five contracts, in the order their tools are advertised. */
export const PM_MCP_APP_CONTRACTS: readonly PmMcpAppContract[] = Object.freeze([
  contract('context', 'pm_context', 'Project dashboard', 'Counts by status and type, the next ready item and why, active claims and recent changes (renders pm_context).', ['pm_get', 'pm_list', 'pm_graph', 'pm_history']),
  contract('board', 'pm_list', 'Board by status', 'The listed items as status columns, with paging and item detail (renders pm_list).', ['pm_list', 'pm_get', 'pm_graph', 'pm_history']),
  contract('item', 'pm_get', 'Item detail', 'One item: description, acceptance criteria, comments, links and dependencies (renders pm_get).', ['pm_get', 'pm_graph', 'pm_history']),
  contract('graph', 'pm_graph', 'Dependency graph', 'The hierarchy and dependency graph laid out in layers, with node detail (renders pm_graph).', ['pm_graph', 'pm_get', 'pm_history']),
  contract('history', 'pm_history', 'History timeline', "An item's receipts as a timeline: who changed it, when, how (renders pm_history).", ['pm_history', 'pm_get', 'pm_graph']),
]);

/** The contract whose view renders `tool`, if any. */
export function pmMcpAppContractForTool(tool: string, contracts: readonly PmMcpAppContract[] = PM_MCP_APP_CONTRACTS): PmMcpAppContract | undefined {
  return contracts.find((c) => c.tool === tool);
}

/** The contract serving `uri`, if any. */
export function pmMcpAppContractForUri(uri: string, contracts: readonly PmMcpAppContract[] = PM_MCP_APP_CONTRACTS): PmMcpAppContract | undefined {
  return contracts.find((c) => c.resourceUri === uri);
}
