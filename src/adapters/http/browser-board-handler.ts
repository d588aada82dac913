import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PM_MCP_APP_CONTRACTS } from '../../domain/apps/app-contracts.js';
import type { PmMcpAppDocuments } from '../../domain/apps/app-documents.js';
import {
  PM_BROWSER_BOARD_ASSET,
  PM_BROWSER_BOARD_PATHS,
  pmBrowserBoardCsp,
  pmBrowserBoardHeaders,
  pmMcpAppInlineSources,
  renderPmBrowserBoardHtml,
  type PmBrowserBoardInlineHashes,
} from '../../domain/apps/browser-board-page.js';
import { mcpHttpRejection } from '../../domain/mcp/http/index.js';
import type { AppViewAssets } from '../../ports/app-view-assets.js';
import { writeRejection } from './http-responder.js';
import { requestTargetPath } from './request-target.js';

/**
 * Serves the live board page of pm-mcp-http (docs/APPS.md "The board in the browser"): `GET /`
 * and its script and style. They hold no project data (the page reads everything through the
 * MCP endpoint, under that endpoint's authorization), so they are answered without a token;
 * Host was already checked. The page's policy carries the hashes of the views' inline code,
 * computed once from the same documents `resources/read` serves.
 */

/** What the handler is built from. */
export interface BrowserBoardHandlerOptions {
  /** The built page assets (`browser-host`) and the view documents (for their hashes). */
  readonly assets: AppViewAssets;
  readonly documents: PmMcpAppDocuments;
  /** The MCP endpoint path the page talks to. */
  readonly mcpPath: string;
}

/** Answers GET and HEAD of the board's paths; returns false for any other request (the caller goes on). */
export type BrowserBoardHandler = (req: IncomingMessage, res: ServerResponse) => boolean;

const sha256 = (text: string) => `sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}`;

/** The handler; assets and hashes are read on the first request and kept (a failed read is retried). */
export function createBrowserBoardHandler(options: BrowserBoardHandlerOptions): BrowserBoardHandler {
  let loaded: Promise<{ csp: string; script: string; style: string } | undefined> | undefined;
  const load = () => {
    loaded ??= (async () => {
      const asset = await options.assets.read(PM_BROWSER_BOARD_ASSET);
      if (!asset) return undefined;
      const hashes: { scripts: string[]; styles: string[] } = { scripts: [], styles: [] };
      for (const contract of PM_MCP_APP_CONTRACTS) {
        const sources = pmMcpAppInlineSources(await options.documents.document(contract));
        hashes.scripts.push(...sources.scripts.map(sha256));
        hashes.styles.push(...sources.styles.map(sha256));
      }
      return { csp: pmBrowserBoardCsp({ scripts: [...new Set(hashes.scripts)], styles: [...new Set(hashes.styles)] } satisfies PmBrowserBoardInlineHashes), script: asset.script, style: asset.style };
    })();
    loaded.catch(() => (loaded = undefined));
    return loaded;
  };
  const page = renderPmBrowserBoardHtml({ mcpPath: options.mcpPath });
  return (req, res) => {
    const path = requestTargetPath(req.url ?? '');
    const body = path === PM_BROWSER_BOARD_PATHS.page ? 'page' : path === PM_BROWSER_BOARD_PATHS.script ? 'script' : path === PM_BROWSER_BOARD_PATHS.style ? 'style' : undefined;
    if (!body) return false;
    // Only reads: any other method falls through to the 404 every unknown path gets.
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    void load().then(
      (built) => {
        if (!built) return writeRejection(res, mcpHttpRejection(503, 'The live board is not built in this installation: npm run build writes it to dist/apps/'));
        const text = body === 'page' ? page : built[body];
        const type = body === 'page' ? 'text/html; charset=utf-8' : body === 'script' ? 'text/javascript; charset=utf-8' : 'text/css; charset=utf-8';
        res.writeHead(200, { ...pmBrowserBoardHeaders(type, built.csp), 'Content-Length': String(Buffer.byteLength(text)) });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      (error: unknown) => writeRejection(res, mcpHttpRejection(500, `The live board could not be read: ${(error as Error).message}`)),
    );
    return true;
  };
}
