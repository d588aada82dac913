import type { AppViewAssets } from '../../ports/app-view-assets.js';
import { PmMcpInternalError } from '../errors/mcp-errors.js';
import { BoundedCache } from '../util/bounded-cache.js';
import type { PmMcpAppContract } from './app-contracts.js';
import { renderPmMcpAppHtml } from './app-html.js';

/**
 * The rendered view documents of one server (seed 000 "MCP Apps"): each built once from the
 * view's assets, read through the {@link AppViewAssets} port on first use (a server that is
 * never asked for a view reads nothing), and kept while the server runs, since the assets of an
 * installation do not change under it. A failed read is not kept, so the next read tries again.
 */
export class PmMcpAppDocuments {
  private readonly documents = new BoundedCache<string, Promise<string>>('rendered MCP Apps view documents by view', 16);

  constructor(private readonly assets: AppViewAssets) {}

  /** The document of `contract`'s view; -32603 when the installation has no built assets for it. */
  document(contract: PmMcpAppContract): Promise<string> {
    return this.documents.getOrCreate(contract.view, () => {
      const rendered = this.render(contract);
      rendered.catch(() => this.documents.delete(contract.view));
      return rendered;
    });
  }

  private async render(contract: PmMcpAppContract): Promise<string> {
    const asset = await this.assets.read(contract.view);
    if (!asset) throw new PmMcpInternalError(`The ${contract.view} view (${contract.resourceUri}) is not built in this installation; npm run build writes it to dist/apps/`);
    return renderPmMcpAppHtml(contract, asset);
  }
}
