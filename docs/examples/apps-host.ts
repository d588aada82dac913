/**
 * A custom host projecting pm's MCP Apps with the public SDK only (seed 000 "Public SDK"): it
 * has its own MCP stack and tool list, asks the SDK whether a request negotiated Apps, decorates
 * its tools/list the way pm does, lists and reads the ui:// documents, and keeps the same
 * security policy (mutating tools model-only, strict ui:// reads). The view assets come from
 * wherever the host keeps them: here the SDK's in-memory adapter; in a real host, the files the
 * package ships under @unbrained/pm-cli/apps/<view>.js and .css. test/unit/sdk runs this file.
 */
import {
  MemoryAppViewAssets,
  PM_MCP_APP_CONTRACTS,
  PmMcpAppDocuments,
  decoratePmMcpToolsWithApps,
  hasPmMcpAppsCapability,
  pmMcpAppContractForUri,
  pmMcpAppResourceContents,
  pmMcpAppResourceDescriptors,
  type AppViewAsset,
  type JsonObject,
  type McpClientCapabilities,
} from '../../src/sdk/index.js';

/** What the host answers for one request, given the client capabilities that request declared. */
export async function projectPmApps(
  tools: readonly JsonObject[],
  capabilities: McpClientCapabilities,
  assets: Readonly<Record<string, AppViewAsset>>,
): Promise<{ tools: readonly JsonObject[]; resources: readonly JsonObject[]; read: (uri: string) => Promise<JsonObject> }> {
  const documents = new PmMcpAppDocuments(new MemoryAppViewAssets(assets));
  const negotiated = hasPmMcpAppsCapability(capabilities);
  const offered = tools.map((t) => String(t.name));
  return {
    // Undecorated, the very same entries, when the request did not negotiate Apps.
    tools: negotiated ? decoratePmMcpToolsWithApps(tools) : tools,
    resources: negotiated ? (pmMcpAppResourceDescriptors(offered) as unknown as JsonObject[]) : [],
    async read(uri) {
      if (!negotiated) return { error: { code: -32021, message: 'declare io.modelcontextprotocol/ui to read ui:// resources' } };
      const contract = pmMcpAppContractForUri(uri, PM_MCP_APP_CONTRACTS.filter((c) => offered.includes(c.tool)));
      if (!contract) return { error: { code: -32602, message: 'Resource not found', data: { uri } } };
      return { contents: [pmMcpAppResourceContents(contract, await documents.document(contract)) as unknown as JsonObject] };
    },
  };
}
