import { jest } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PM_MCP_APP_CONTRACTS, PM_MCP_APP_MAX_HTML_BYTES, renderPmMcpAppHtml } from '../../src/domain/apps/index.js';

// The MCP Apps views as scripts/build.mjs builds them (scripts/build-views.mjs; seed 000 "MCP Apps"): one bundled,
// minified script and style per contract in dist/apps/, each document under the size bound,
// the official App class inside; and the view-only stand-in for the MCP client's JSON Schema
// validator, which must fail the build, naming itself, once the client stops importing it the
// way it does today. Bundles run in a child process, as in build-plugins.test.ts.
jest.setTimeout(60_000);

const VIEWS_BUILD = fileURLToPath(new URL('../../scripts/build-views.mjs', import.meta.url));
const BUILD = fileURLToPath(new URL('../../scripts/build.mjs', import.meta.url));
const DIST = fileURLToPath(new URL('../../dist', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const APPS = (file: string) => new URL(`../../dist/apps/${file}`, import.meta.url);

/** Runs `body` (an async function body with `views` and `build` (the two build scripts), `esbuild` and `spec` in scope) in a child node; returns what it printed as JSON. */
function inChild<T>(body: string, spec: unknown): T {
  const script = `
    import { createRequire } from 'node:module';
    import { pathToFileURL } from 'node:url';
    const views = await import(pathToFileURL(process.env.PM_TEST_VIEWS_BUILD).href);
    // Passed in the environment: a first argument naming scripts/build.mjs would make it build.
    const build = await import(pathToFileURL(process.env.PM_TEST_BUILD).href);
    const esbuild = createRequire(process.env.PM_TEST_BUILD)('esbuild');
    const spec = JSON.parse(process.env.PM_TEST_SPEC);
    const result = await (async () => { ${body} })();
    process.stdout.write(JSON.stringify(result));
  `;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env: { ...process.env, PM_TEST_BUILD: BUILD, PM_TEST_VIEWS_BUILD: VIEWS_BUILD, PM_TEST_SPEC: JSON.stringify(spec) } });
  if (run.status !== 0) throw new Error(`the build child failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as T;
}

describe('the built views', () => {
  test('every contract has its script and style, and each document stays under the bound', () => {
    const sizes: Record<string, number> = {};
    for (const contract of PM_MCP_APP_CONTRACTS) {
      const script = readFileSync(APPS(`${contract.view}.js`), 'utf8');
      const style = readFileSync(APPS(`${contract.view}.css`), 'utf8');
      // The official App class drives the handshake (its initialize request and method names are inside).
      expect(script).toContain('ui/initialize');
      expect(script).toContain('ui/notifications/initialized');
      expect(style).toContain('prefers-reduced-motion');
      sizes[contract.view] = Buffer.byteLength(renderPmMcpAppHtml(contract, { script, style }));
    }
    for (const [view, bytes] of Object.entries(sizes)) expect({ view, under: bytes < PM_MCP_APP_MAX_HTML_BYTES }).toEqual({ view, under: true });
  });

  test('buildAppViews writes the same assets to another directory and reports the size of each document', () => {
    const out = mkdtempSync(join(tmpdir(), 'pm-build-views-'));
    try {
      const sizes = inChild<{ view: string; bytes: number }[]>('return views.buildAppViews(esbuild, { root: spec.root, out: spec.dist, outdir: spec.out, plugins: [build.englishZodLocales()] });', { out, root: ROOT, dist: DIST });
      expect(sizes.map((s) => s.view)).toEqual(PM_MCP_APP_CONTRACTS.map((c) => c.view));
      for (const { view, bytes } of sizes) {
        expect(readFileSync(join(out, `${view}.js`), 'utf8')).toBe(readFileSync(APPS(`${view}.js`), 'utf8'));
        expect(bytes).toBeLessThan(PM_MCP_APP_MAX_HTML_BYTES);
        expect(bytes).toBeGreaterThan(100_000);
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  test('a view above the size bound fails the build, naming the view and the bound (here: every zod locale kept)', () => {
    const out = mkdtempSync(join(tmpdir(), 'pm-build-views-'));
    try {
      const failure = inChild<string>('return views.buildAppViews(esbuild, { root: spec.root, out: spec.dist, outdir: spec.out }).then(() => "built", (e) => e.message);', { out, root: ROOT, dist: DIST });
      expect(failure).toMatch(/^the context view: the context view would be \d+ bytes, above the 650000-byte bound of a pm view$/);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});

describe('pm-view-client-shims', () => {
  const bundle = (entry: string) =>
    inChild<{ ok: boolean; text?: string; message?: string }>(
      `try {
        const built = await esbuild.build({ entryPoints: [spec.entry], bundle: true, format: 'iife', platform: 'browser', write: false, logLevel: 'silent', plugins: [views.viewClientShims()] });
        return { ok: true, text: built.outputFiles[0].text };
      } catch (error) {
        return { ok: false, message: error.message };
      }`,
      { entry },
    );
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pm-view-shims-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('the installed App class still imports the client shim, and the bundle gets the stand-in (positive control)', () => {
    const entry = join(dir, 'entry.js');
    writeFileSync(entry, `import { App } from ${JSON.stringify(fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/ext-apps/dist/src/app.js', import.meta.url)))};\nconsole.log(App);\n`);
    const built = bundle(entry);
    expect(built.ok).toBe(true);
    expect(built.text).toContain('pm views carry no JSON Schema validator');
    expect(built.text).not.toContain('CfWorkerJsonSchemaValidator');
  });

  test('the stand-in throws if anything constructs its validator', () => {
    const entry = join(dir, 'entry.js');
    writeFileSync(entry, "import { DefaultJsonSchemaValidator, CORS_IS_POSSIBLE } from '@modelcontextprotocol/client/_shims';\ntry { new DefaultJsonSchemaValidator(); globalThis.out = 'built'; } catch (e) { globalThis.out = e.message + ' ' + CORS_IS_POSSIBLE; }\n");
    const built = bundle(entry);
    expect(built.ok).toBe(true);
    const context = { out: '' } as { out: string };
    new Function('globalThis', built.text!)(context);
    expect(context.out).toBe('pm views carry no JSON Schema validator (scripts/build-views.mjs, pm-view-client-shims) true');
  });

  test('fails, naming itself and what it expected, when nothing imports the shim any more', () => {
    const entry = join(dir, 'entry.js');
    writeFileSync(entry, "console.log('a view without the client');\n");
    const built = bundle(entry);
    expect(built.ok).toBe(false);
    expect(built.message).toContain("pm-view-client-shims: expected @modelcontextprotocol/client to import '@modelcontextprotocol/client/_shims'");
  });
});
