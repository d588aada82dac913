import type { JsonObject, McpResourceContents, McpResourceDescriptor } from '../mcp/wire-types.js';
import { PM_MCP_APP_CONTRACTS, PM_MCP_APP_MIME_TYPE, type PmMcpAppContract } from './app-contracts.js';

/**
 * The `ui://` resources of the pm views (MCP Apps 2026-01-26 §UI Resource Format, §Content
 * Requirements): one listing entry per view whose tool the server offers, and the read result
 * of a view's document.
 */

/**
 * The resource `_meta.ui` of every pm view: no network (empty connect and resource domains, so
 * the host's default CSP applies: inline script and style, `data:` images, nothing fetched), no
 * permissions requested (no camera, microphone, geolocation or clipboard), and a border.
 */
export const PM_MCP_APP_RESOURCE_UI_META: JsonObject = Object.freeze({
  csp: Object.freeze({ connectDomains: Object.freeze([]), resourceDomains: Object.freeze([]) }),
  prefersBorder: true,
}) as unknown as JsonObject;

/** The resources/list entry of one view. */
export function pmMcpAppResourceDescriptor(contract: PmMcpAppContract): McpResourceDescriptor {
  return {
    uri: contract.resourceUri,
    name: contract.name,
    title: contract.title,
    description: contract.description,
    mimeType: PM_MCP_APP_MIME_TYPE,
    _meta: { ui: PM_MCP_APP_RESOURCE_UI_META },
  };
}

/** The entries of the views whose tools are among `offeredTools`, in contract order. */
export function pmMcpAppResourceDescriptors(offeredTools: readonly string[], contracts: readonly PmMcpAppContract[] = PM_MCP_APP_CONTRACTS): readonly McpResourceDescriptor[] {
  return contracts.filter((c) => offeredTools.includes(c.tool)).map(pmMcpAppResourceDescriptor);
}

/** The one content item of a view's `resources/read` result: the document, its MIME type and its `_meta.ui` (which wins over the listing's). */
export function pmMcpAppResourceContents(contract: PmMcpAppContract, html: string): McpResourceContents {
  return { uri: contract.resourceUri, mimeType: PM_MCP_APP_MIME_TYPE, text: html, _meta: { ui: PM_MCP_APP_RESOURCE_UI_META } };
}
