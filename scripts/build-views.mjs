// Builds the MCP Apps views (seed 000 "MCP Apps"; docs/APPS.md "Building the views") for
// scripts/build.mjs: each views/<view>/main.ts bundled and minified for the browser into
// <outdir>/<view>.js and <view>.css, which the server inlines into one self-contained document
// per view.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { redirectImport } from './lib/redirect-import.mjs';

/** The esbuild options every browser bundle shares (the views and the browser board's host page). */
const BROWSER_BUNDLE = { bundle: true, minify: true, format: 'iife', platform: 'browser', target: 'es2022', legalComments: 'none' };

/** What the MCP client's `_shims` module exports (its browser build: a JSON Schema validator and a CORS flag). */
const CLIENT_SHIM_EXPORTS = ['CORS_IS_POSSIBLE', 'DefaultJsonSchemaValidator'];

/** An esbuild error message from a plugin: plugin name first, so the cause is plain. */

/**
 * The views run the official App class, which builds on @modelcontextprotocol/client's
 * Protocol, and the client's index also pulls in its browser shim: a JSON Schema validator
 * (about 22 KB minified) only the client's Client class constructs, to check tool output
 * schemas. A view is never a client, so its bundle gets a stand-in whose validator throws if
 * anything ever constructs it (the browser tests would show it). A view bundle in which the shim
 * import was never redirected fails the build (the client moved it); a shim export the stand-in
 * lacks fails the bundle itself (esbuild: no matching export).
 */
export function viewClientShims() {
  return redirectImport({
    name: 'pm-view-client-shims',
    filter: /^@modelcontextprotocol\/client\/_shims$/,
    contents: [
      'export const CORS_IS_POSSIBLE = true;',
      'export class DefaultJsonSchemaValidator { constructor() { throw new Error("pm views carry no JSON Schema validator (scripts/build-views.mjs, pm-view-client-shims)"); } }',
    ].join('\n'),
    missing: `expected @modelcontextprotocol/client to import '@modelcontextprotocol/client/_shims' (${CLIENT_SHIM_EXPORTS.join(', ')}) at least once in the view bundles, and it never did; the client's layout changed, so the views would carry its JSON Schema validator: update this plugin for the installed client`,
  });
}

/**
 * Bundles every view the server's contracts name (read from `<out>/domain/apps/`, compiled
 * just before) with `options.plugins` plus the client-shim stand-in, and writes each script and
 * style atomically. Fails, naming the view, when a bundle fails, an output is missing, or its
 * document would exceed the size bound; returns each document's size. Skipped (an empty list)
 * when @modelcontextprotocol/ext-apps is not installed (an install without devDependencies).
 * `options`: `root` (the repository), `out` (dist/), `outdir` (where the assets go), `plugins`.
 */
export async function buildAppViews(esbuild, options) {
  const { root, out, outdir, plugins = [] } = options;
  try {
    createRequire(join(root, 'package.json')).resolve('@modelcontextprotocol/ext-apps');
  } catch {
    return [];
  }
  const shown = relative(root, outdir).startsWith('..') ? outdir : relative(root, outdir);
  const { PM_MCP_APP_CONTRACTS } = await import(pathToFileURL(join(out, 'domain/apps/app-contracts.js')).href);
  const { renderPmMcpAppHtml } = await import(pathToFileURL(join(out, 'domain/apps/app-html.js')).href);
  const entryPoints = Object.fromEntries(PM_MCP_APP_CONTRACTS.map((c) => [c.view, join(root, 'views', c.view, 'main.ts')]));
  const result = await esbuild
    .build({
      entryPoints,
      ...BROWSER_BUNDLE,
      plugins: [...plugins, viewClientShims()],
      write: false,
      outdir,
      absWorkingDir: root,
      logLevel: 'error',
    })
    .catch((error) => {
      throw new Error(`bundling the MCP Apps views into ${shown} failed: ${error.message}`, { cause: error });
    });
  const files = new Map(result.outputFiles.map((f) => [f.path, f]));
  mkdirSync(outdir, { recursive: true });
  const sizes = [];
  for (const contract of PM_MCP_APP_CONTRACTS) {
    const script = files.get(join(outdir, `${contract.view}.js`));
    const style = files.get(join(outdir, `${contract.view}.css`));
    if (!script || !style) throw new Error(`bundling the ${contract.view} view gave no ${script ? 'style' : 'script'} (expected ${contract.view}.js and ${contract.view}.css from views/${contract.view}/main.ts)`);
    let bytes;
    try {
      bytes = Buffer.byteLength(renderPmMcpAppHtml(contract, { script: script.text, style: style.text }));
    } catch (error) {
      throw new Error(`the ${contract.view} view: ${error.message}`, { cause: error });
    }
    for (const file of [script, style]) {
      const temp = `${file.path}.tmp-${process.pid}`;
      writeFileSync(temp, file.contents);
      renameSync(temp, file.path);
    }
    sizes.push({ view: contract.view, bytes });
  }
  return sizes;
}

/**
 * Bundles the live board page (views/browser-host/main.ts: the page pm-mcp-http serves at `/`,
 * docs/APPS.md "The board in the browser") into `<outdir>/browser-host.js` and `.css`, written
 * atomically; skipped, like the views, without @modelcontextprotocol/ext-apps.
 */
export async function buildBrowserBoard(esbuild, options) {
  const { root, outdir, plugins = [] } = options;
  try {
    createRequire(join(root, 'package.json')).resolve('@modelcontextprotocol/ext-apps');
  } catch {
    return false;
  }
  const result = await esbuild
    .build({
      entryPoints: { 'browser-host': join(root, 'views', 'browser-host', 'main.ts') },
      ...BROWSER_BUNDLE,
      plugins,
      write: false,
      outdir,
      absWorkingDir: root,
      logLevel: 'error',
    })
    .catch((error) => {
      throw new Error(`bundling the live board page (views/browser-host) failed: ${error.message}`, { cause: error });
    });
  mkdirSync(outdir, { recursive: true });
  for (const file of result.outputFiles) {
    const temp = `${file.path}.tmp-${process.pid}`;
    writeFileSync(temp, file.contents);
    renameSync(temp, file.path);
  }
  return true;
}
