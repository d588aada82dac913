import { jest } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// The build-time rewrites of scripts/build.mjs (zod's locales, zod's namespace import, the lazy
// yaml stand-in, the lazy chunks' stand-ins) run by esbuild in a child process over fixture modules in a temp directory:
// each must fail the build, naming its plugin and what it expected, when its pattern is absent
// (a zod or yaml release that moved things), and do its work when it is there.
jest.setTimeout(60_000);

const BUILD = fileURLToPath(new URL('../../scripts/build.mjs', import.meta.url));
const NODE_MODULES = fileURLToPath(new URL('../../node_modules', import.meta.url));

interface Spec {
  readonly entry: string;
  readonly plugins: ReadonlyArray<'locales' | 'namespace' | 'yaml' | 'lazy'>;
  readonly namespace?: { readonly ours: string; readonly external?: string };
  readonly yaml?: { readonly yaml: string };
  readonly lazy?: { readonly bundle: string; readonly chunks: Record<string, { readonly entry: string; readonly requiredBy: readonly string[] }>; readonly dist: string };
}

interface Built {
  readonly ok: boolean;
  readonly message?: string;
  readonly text?: string;
  readonly stats: { importing?: number; rewritten?: number };
}

/** Bundles `spec.entry` with the named plugins of scripts/build.mjs (the repository's node_modules on the path). */
function bundleWith(spec: Spec): Built {
  const script = `
    import { createRequire } from 'node:module';
    import { pathToFileURL } from 'node:url';
    const { PM_TEST_BUILD: build, PM_TEST_SPEC: specText, PM_TEST_NODE_MODULES: nodeModules } = process.env;
    const { englishZodLocales, zodNamespaceImports, lazyYaml, lazyChunks } = await import(pathToFileURL(build).href);
    const esbuild = createRequire(build)('esbuild');
    const spec = JSON.parse(specText);
    const stats = {};
    const make = { locales: () => englishZodLocales(), namespace: () => zodNamespaceImports(spec.namespace, stats), yaml: () => lazyYaml(spec.yaml), lazy: () => lazyChunks(spec.lazy.bundle, spec.lazy.chunks, spec.lazy.dist) };
    let result;
    try {
      const plugins = (await Promise.all(spec.plugins.map((p) => make[p]()))).flat();
      const built = await esbuild.build({ entryPoints: [spec.entry], bundle: true, platform: 'node', format: 'cjs', write: false, logLevel: 'silent', nodePaths: [nodeModules], plugins });
      result = { ok: true, text: built.outputFiles[0].text, stats };
    } catch (error) {
      result = { ok: false, message: error.message, stats };
    }
    process.stdout.write(JSON.stringify(result));
  `;
  // Passed in the environment: a first argument naming scripts/build.mjs would make it build.
  const env = { ...process.env, PM_TEST_BUILD: BUILD, PM_TEST_SPEC: JSON.stringify(spec), PM_TEST_NODE_MODULES: NODE_MODULES };
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', env });
  if (run.status !== 0) throw new Error(`the build child failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as Built;
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pm-build-plugins-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Writes files (relative path → text) under the temp directory; returns the first one's path. */
function files(entries: Record<string, string>): string {
  for (const [path, text] of Object.entries(entries)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return join(dir, Object.keys(entries)[0]!);
}

describe('pm-zod-english-locales', () => {
  /** A stand-in zod whose core module re-exports its locales from `localesModule`. */
  const fakeZod = (localesModule: string) =>
    files({
      'entry.js': "import { locales } from './node_modules/zod/v4/core/index.js';\nconsole.log(Object.keys(locales));\n",
      'node_modules/zod/v4/core/index.js': `export * as locales from '${localesModule}';\n`,
      'node_modules/zod/v4/locales/index.js': "export { default as en } from './en.js';\nexport { default as de } from './de.js';\n",
      'node_modules/zod/v4/locales/all.js': "export { default as en } from './en.js';\nexport { default as de } from './de.js';\n",
      'node_modules/zod/v4/locales/en.js': "export default () => 'english locale';\n",
      'node_modules/zod/v4/locales/de.js': "export default () => 'german locale';\n",
    });

  it('fails, naming itself and what it expected, when zod no longer imports ../locales/index.js', () => {
    const built = bundleWith({ entry: fakeZod('../locales/all.js'), plugins: ['locales'] });
    expect(built.ok).toBe(false);
    expect(built.message).toContain("pm-zod-english-locales: expected zod/v4/classic or zod/v4/core to import '../locales/index.js' (every locale) at least once in this bundle");
  });

  it('keeps English only where zod imports ../locales/index.js (positive control, fixture)', () => {
    const built = bundleWith({ entry: fakeZod('../locales/index.js'), plugins: ['locales'] });
    expect(built).toMatchObject({ ok: true });
    expect(built.text).toContain('english locale');
    expect(built.text).not.toContain('german locale');
  });

  it('keeps English only with the installed zod (positive control: fails once a zod upgrade moves the import)', () => {
    const entry = files({ 'entry.js': "import { z } from 'zod';\nconsole.log(z.string().parse('x'));\n" });
    const built = bundleWith({ entry, plugins: ['locales'] });
    expect(built).toMatchObject({ ok: true });
    expect(built.text).toMatch(/zod\/v4\/locales\/en\.js/);
    expect(built.text).not.toMatch(/zod\/v4\/locales\/(?!en\.js)[\w-]+\.js/);
  });
});

describe('pm-zod-namespace-imports', () => {
  const ours = () => join(dir, 'ours');
  const entry = (...modules: string[]) => `${modules.map((m, i) => `import * as m${i} from './${m}';`).join('\n')}\nconsole.log(${modules.map((_, i) => `m${i}`).join(', ')});\n`;

  it('rewrites every compiled module that imports zod, counts them, and the bundle leaves most of zod out (positive control)', () => {
    const file = files({
      'ours/entry.js': entry('a.js', 'b.js', 'plain.js'),
      'ours/a.js': "import { z } from 'zod';\nexport const a = z.string();\n",
      'ours/b.js': "import { z } from 'zod';\nexport const b = z.object({ n: z.number() });\n",
      'ours/plain.js': 'export const plain = 1;\n',
    });
    const built = bundleWith({ entry: file, plugins: ['namespace'], namespace: { ours: ours() } });
    expect(built).toMatchObject({ ok: true, stats: { importing: 2, rewritten: 2 } });
    const whole = bundleWith({ entry: file, plugins: [] });
    expect(whole.ok).toBe(true);
    expect(built.text!.length).toBeLessThan(whole.text!.length * 0.8);
    expect(whole.text).toContain('toJSONSchema');
    expect(built.text).not.toMatch(/function toJSONSchema/);
  });

  it('fails, naming itself and the module, when a module imports zod in another form', () => {
    const file = files({
      'ours/entry.js': entry('a.js', 'b.js'),
      'ours/a.js': "import { z } from 'zod';\nexport const a = z.string();\n",
      'ours/b.js': "import { z as zod } from 'zod';\nexport const b = zod.number();\n",
    });
    const built = bundleWith({ entry: file, plugins: ['namespace'], namespace: { ours: ours() } });
    expect(built.ok).toBe(false);
    expect(built.message).toContain(`pm-zod-namespace-imports: expected ${join(ours(), 'b.js')} to import zod only as \`import { z } from 'zod';\``);
  });

  it.each([
    ['double quotes', 'import { z } from "zod";\nexport const a = z.string();\n'],
    ['a second import of zod', "import { z } from 'zod';\nimport { ZodError } from 'zod';\nexport const a = [z.string(), ZodError];\n"],
    ['a re-export', "export { z } from 'zod';\n"],
    ['a dynamic import', "export const a = import('zod');\n"],
  ])('fails on %s', (_form, text) => {
    const file = files({ 'ours/entry.js': entry('a.js'), 'ours/a.js': text });
    const built = bundleWith({ entry: file, plugins: ['namespace'], namespace: { ours: ours() } });
    expect(built.ok).toBe(false);
    expect(built.message).toContain(`pm-zod-namespace-imports: expected ${join(ours(), 'a.js')} to import zod only as`);
  });

  it('fails when none of our modules imports zod in the form it rewrites', () => {
    const file = files({ 'ours/entry.js': entry('plain.js'), 'ours/plain.js': 'export const plain = 1;\n' });
    const built = bundleWith({ entry: file, plugins: ['namespace'], namespace: { ours: ours() } });
    expect(built.ok).toBe(false);
    expect(built.message).toContain(`pm-zod-namespace-imports: expected at least one compiled module under ${ours()} to import zod as \`import { z } from 'zod';\`, and none did`);
  });

  it("fails when zod's classic external.js is not where it expects it", () => {
    const file = files({ 'ours/entry.js': entry('a.js'), 'ours/a.js': "import { z } from 'zod';\nexport const a = z.string();\n" });
    const external = join(dir, 'zod-elsewhere', 'classic', 'external.js');
    const built = bundleWith({ entry: file, plugins: ['namespace'], namespace: { ours: ours(), external } });
    expect(built.ok).toBe(false);
    expect(built.message).toContain(`pm-zod-namespace-imports: expected zod's classic API at ${external}, and it is not there`);
  });
});

describe('pm-lazy-yaml', () => {
  it('serves parseDocument and stringify (positive control)', () => {
    const file = files({ 'entry.js': "import { parseDocument, stringify } from 'yaml';\nexport const roundTrip = (text) => stringify(parseDocument(text).toJS());\n" });
    const built = bundleWith({ entry: file, plugins: ['yaml'] });
    expect(built.ok).toBe(true);
    const out = join(dir, 'out.cjs');
    writeFileSync(out, built.text!);
    const run = spawnSync(process.execPath, ['-e', `const m = require(${JSON.stringify(out)}); console.log(JSON.stringify(m.roundTrip('a: 1\\nb: [x, y]')))`], { encoding: 'utf8' });
    expect(run.stdout.trim()).toBe(JSON.stringify('a: 1\nb:\n  - x\n  - y\n'));
  });

  it.each([
    ['another function', "import { parse } from 'yaml';\nexport const v = parse('a: 1');\n", 'parse'],
    ['a namespace import', "import * as YAML from 'yaml';\nexport const v = YAML.parse('a: 1');\n", 'import * as YAML'],
    ['a default import', "import YAML from 'yaml';\nexport const v = YAML.parse('a: 1');\n", 'import YAML'],
    ['one name too many', "import { stringify, Document } from 'yaml';\nexport const v = [stringify, Document];\n", 'Document'],
  ])('fails, naming itself, the importer and what it imports, on %s', (_form, text, what) => {
    const file = files({ 'entry.js': text });
    const built = bundleWith({ entry: file, plugins: ['yaml'] });
    expect(built.ok).toBe(false);
    expect(built.message).toContain(`pm-lazy-yaml: expected ${file} to import only parseDocument or stringify or visit or isAlias or isMap or isScalar from 'yaml' (all the lazy stand-in serves), and it imports ${what}`);
  });

  it('fails when the installed yaml lacks a function the stand-in serves', () => {
    const file = files({ 'entry.js': "import { stringify } from 'yaml';\nexport const v = stringify(1);\n", 'fake-yaml/index.cjs': 'exports.parseDocument = () => ({});\n' });
    const built = bundleWith({ entry: file, plugins: ['yaml'], yaml: { yaml: join(dir, 'fake-yaml', 'index.cjs') } });
    expect(built.ok).toBe(false);
    expect(built.message).toContain('pm-lazy-yaml: expected the installed yaml to export parseDocument and stringify and visit and isAlias and isMap and isScalar as functions, and stringify and visit and isAlias and isMap and isScalar are not');
  });

  it('serves the visitor with its markers, read from the real yaml on first use', () => {
    const file = files({
      'entry.js': "import { parseDocument, visit, isScalar } from 'yaml';\nexport const firstScalar = (text) => { const seen = []; visit(parseDocument(text), { Scalar(_key, node) { if (isScalar(node)) { seen.push(node.value); return visit.BREAK; } } }); return seen.join(','); };\n",
    });
    const built = bundleWith({ entry: file, plugins: ['yaml'] });
    expect(built.ok).toBe(true);
    const out = join(dir, 'out-visit.cjs');
    writeFileSync(out, built.text!);
    const run = spawnSync(process.execPath, ['-e', `const m = require(${JSON.stringify(out)}); console.log(m.firstScalar('a: first\\nb: second'))`], { encoding: 'utf8' });
    expect(run.stdout.trim()).toBe('a'); // visit.BREAK stopped the walk at the first scalar
  });
});

describe('pm-lazy-chunk stand-ins', () => {
  const CHUNK_MODULE = "export const greet = (name) => `hello ${name}`;\nexport async function later() { return 'later'; }\n";
  const chunks = (requiredBy: string[] = ['main.cjs']) => ({ 'chunk.cjs': { entry: 'lib/heavy.js', requiredBy } });

  it('replaces the module by functions that load the chunk beside the bundle on their first call (positive control)', () => {
    const entry = files({ 'dist/main.js': "import { greet, later } from './lib/heavy.js';\nexport const run = async () => [greet('pm'), await later()];\n", 'dist/lib/heavy.js': CHUNK_MODULE });
    const built = bundleWith({ entry, plugins: ['lazy'], lazy: { bundle: 'main.cjs', chunks: chunks(), dist: join(dir, 'dist') } });
    expect(built.ok).toBe(true);
    expect(built.text).not.toContain('hello'); // the module's code is not in the bundle
    mkdirSync(join(dir, 'bundle'));
    writeFileSync(join(dir, 'bundle', 'main.cjs'), built.text!);
    writeFileSync(join(dir, 'bundle', 'chunk.cjs'), "exports.greet = (name) => `chunk says hello ${name}`;\nexports.later = async () => 'later from the chunk';\nglobalThis.chunkLoads = (globalThis.chunkLoads ?? 0) + 1;\n");
    const probe = `const m = require(${JSON.stringify(join(dir, 'bundle', 'main.cjs'))}); const before = globalThis.chunkLoads ?? 0; m.run().then(async (r) => { await m.run(); console.log(JSON.stringify({ before, after: globalThis.chunkLoads, r })); });`;
    const run = spawnSync(process.execPath, ['-e', probe], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({ before: 0, after: 1, r: ['chunk says hello pm', 'later from the chunk'] });
  });

  it('names the missing chunk file when an installation lacks it, on the first call', () => {
    const entry = files({ 'dist/main.js': "import { greet } from './lib/heavy.js';\nexport const run = () => greet('pm');\n", 'dist/lib/heavy.js': CHUNK_MODULE });
    const built = bundleWith({ entry, plugins: ['lazy'], lazy: { bundle: 'main.cjs', chunks: chunks(), dist: join(dir, 'dist') } });
    mkdirSync(join(dir, 'bundle'));
    writeFileSync(join(dir, 'bundle', 'main.cjs'), built.text!);
    const probe = `const m = require(${JSON.stringify(join(dir, 'bundle', 'main.cjs'))}); console.log('loaded'); try { m.run(); } catch (error) { console.log(error.message); }`;
    const run = spawnSync(process.execPath, ['-e', probe], { encoding: 'utf8' });
    expect(run.stdout.split('\n')).toEqual(['loaded', `${join(dir, 'bundle', 'chunk.cjs')} is missing: this installation of pm is incomplete; reinstall pm`, '']);
  });

  it('fails, naming itself, when a bundle that requires the chunk no longer imports its module', () => {
    const entry = files({ 'dist/main.js': 'export const run = () => 1;\n', 'dist/lib/heavy.js': CHUNK_MODULE });
    const built = bundleWith({ entry, plugins: ['lazy'], lazy: { bundle: 'main.cjs', chunks: chunks(), dist: join(dir, 'dist') } });
    expect(built.ok).toBe(false);
    expect(built.message).toContain('pm-lazy-chunk-chunk.cjs: expected dist/bundle/main.cjs to import lib/heavy.js, and it did not');
  });

  it('lets a bundle that does not require the chunk leave the module out', () => {
    const entry = files({ 'dist/main.js': 'export const run = () => 1;\n', 'dist/lib/heavy.js': CHUNK_MODULE });
    expect(bundleWith({ entry, plugins: ['lazy'], lazy: { bundle: 'other.cjs', chunks: chunks(), dist: join(dir, 'dist') } }).ok).toBe(true);
  });

  it('refuses a module that exports a value (a stand-in could not serve it without loading the chunk)', () => {
    const entry = files({ 'dist/main.js': "import { greet } from './lib/heavy.js';\nexport const run = () => greet('x');\n", 'dist/lib/heavy.js': `${CHUNK_MODULE}export const LIMIT = 3;\n` });
    const built = bundleWith({ entry, plugins: ['lazy'], lazy: { bundle: 'main.cjs', chunks: chunks(), dist: join(dir, 'dist') } });
    expect(built.ok).toBe(false);
    expect(built.message).toContain('pm-lazy-chunk-chunk.cjs: expected lib/heavy.js to export only functions, and LIMIT is not');
  });

  it('keeps the OpenTelemetry SDK out of the built pm-mcp bundle and in its chunk (the real build)', () => {
    const bundles = fileURLToPath(new URL('../../dist/bundle/', import.meta.url));
    expect(readFileSync(join(bundles, 'pm-mcp.cjs'), 'utf8')).not.toContain('@opentelemetry');
    const chunk = spawnSync(process.execPath, ['-e', `const c = require(${JSON.stringify(join(bundles, 'pm-otel.cjs'))}); console.log(typeof c.createOtelTelemetry)`], { encoding: 'utf8' });
    expect(chunk.stdout.trim()).toBe('function');
  });
});
