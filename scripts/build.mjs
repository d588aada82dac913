#!/usr/bin/env node
// Transpiles src/**/*.ts to dist/**/*.js with swc (fast, no type check: `npm run typecheck`
// does that). Used by `npm run build`, by `prepare` on install and by jest's global setup,
// so the real `pm` binaries always run the current sources.
import { existsSync, readdirSync, mkdirSync, renameSync, writeFileSync, readFileSync, rmSync, statSync } from 'node:fs';
import { basename, join, dirname, relative } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { transformSync } from '@swc/core';
import { buildAppViews, buildBrowserBoard } from './build-views.mjs';
import { pluginError, redirectImport } from './lib/redirect-import.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');
const out = join(root, 'dist');
const options = JSON.parse(readFileSync(join(root, '.swcrc'), 'utf8'));
delete options.$schema;
// Each compiled module gets a source map beside it (`x.js.map`, naming `src/…/x.ts` by a path
// relative to the map and without the source text); esbuild folds them into the bundles' maps.
// Node reads them only when source maps are on (PM_DEBUG=1: bin/bundle-loader.cjs), so stack
// traces then point at src/*.ts lines, and a normal start never reads a map.
options.sourceMaps = true;

function* walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) yield path;
  }
}

// dist/ is never emptied first and every file is replaced atomically (temp file + rename), so
// a `pm` process started while another test run rebuilds always finds a complete dist/.
export async function build() {
  const built = new Set();
  for (const file of walk(src)) {
    const target = join(out, relative(src, file)).replace(/\.ts$/, '.js');
    mkdirSync(dirname(target), { recursive: true });
    const { code, map } = transformSync(readFileSync(file, 'utf8'), { ...options, filename: file });
    writeAtomically(`${target}.map`, moduleMap(map, file, target));
    writeAtomically(target, `${code}\n//# sourceMappingURL=${basename(target)}.map\n`);
    built.add(target);
  }
  // Outputs whose source is gone (checked now, not against the walk, so a file another build
  // just added is kept).
  for (const js of walkAll(out)) {
    const compiled = js.endsWith('.js.map') ? js.slice(0, -'.map'.length) : js;
    if (compiled.endsWith('.js') && !js.startsWith(bundles) && !js.startsWith(views) && !built.has(compiled) && !existsSync(join(src, relative(out, compiled)).replace(/\.js$/, '.ts'))) rmSync(js, { force: true });
  }
  const esbuild = await bundle();
  if (esbuild) await buildViews(esbuild);
  return built.size;
}

/** Replaces `path` by `contents` through a temp file and a rename (see build()). */
function writeAtomically(path, contents) {
  const temp = `${path}.tmp-${process.pid}`;
  writeFileSync(temp, contents);
  renameSync(temp, path);
}

/** swc's map of one module, naming its source relative to the map file and without its text. */
function moduleMap(map, source, target) {
  const parsed = JSON.parse(map);
  parsed.sources = [relative(dirname(target), source).split('\\').join('/')];
  delete parsed.sourcesContent;
  return JSON.stringify(parsed);
}

/**
 * A bundle's map for a bundle file that starts with `lines` more lines than esbuild wrote (the
 * NO_IMPORT_MARK line): each `;` in `mappings` starts the next generated line.
 */
export function shiftedMap(text, lines) {
  const map = JSON.parse(text);
  map.mappings = ';'.repeat(lines) + map.mappings;
  return JSON.stringify(map);
}

const bundles = join(out, 'bundle');
const { NO_IMPORT_MARK } = createRequire(import.meta.url)('../bin/bundle-loader.cjs');
/** Entry points bundled into single files, so a process start loads one script, not ~450 modules. */
const BUNDLED = { 'pm.cjs': 'composition/cli-main.js', 'pm-mcp.cjs': 'composition/mcp-stdio-main.js' };
/**
 * Modules bundled into a file of their own that the main bundles load only when they call into
 * them ({@link lazyChunks}): the OpenTelemetry SDK (~1 MB) is used only when OTEL_* variables turn
 * tracing on, and inside pm-mcp.cjs it would make every start read and check a larger script.
 */
const LAZY_CHUNKS = { 'pm-otel.cjs': { entry: 'composition/otel-composition.js', requiredBy: ['pm-mcp.cjs'] } };

// Each rewrite below fails the build, naming its plugin and what it expected, once its pattern
// stops matching (a zod or yaml release that moved things): a rewrite that silently matched
// nothing would ship a bundle that is bloated (all of zod, every locale) or broken (a yaml
// function the stand-in lacks), and `prepare` runs this build on `npm install`.

/** An esbuild error message from one of pm's plugins: plugin name first, so the cause is plain. */
/** A path as a message shows it: relative inside the repository, absolute outside. */
const shown = (path) => (relative(root, path).startsWith('..') ? path : relative(root, path));

/**
 * zod's `z` namespace re-exports every locale (~40 modules, a fifth of the bundle); pm speaks
 * English only, so the bundles keep `en` (zod's default, imported by zod itself) and drop the rest.
 * A bundle in which zod's locales import was never redirected fails: zod moved it.
 */
export function englishZodLocales() {
  return redirectImport({
    name: 'pm-zod-english-locales',
    filter: /^\.\.\/locales\/index\.js$/,
    applies: (args) => /[\\/]zod[\\/]v4[\\/](classic|core)$/.test(args.resolveDir),
    resolveDir: (args) => join(args.resolveDir, '..', 'locales'),
    contents: "export { default as en } from './en.js';",
    missing: "expected zod/v4/classic or zod/v4/core to import '../locales/index.js' (every locale) at least once in this bundle, and it never did; zod's layout changed, so the bundle would carry all of zod's locales: update this plugin for the installed zod",
  });
}

/**
 * Each module of LAZY_CHUNKS becomes, inside the main bundles, a stand-in with the same exports,
 * all functions, that `require` the chunk beside the bundle on their first call (an export that is
 * not a function fails the build: a stand-in cannot be a value without loading the chunk). The
 * chunk is a plain CommonJS script loaded by node itself, without the code cache: only processes
 * that use it pay for it; a chunk missing from an installation is named in the error. Every bundle gets the stand-ins (so none ever carries a chunk's code);
 * a bundle listed in a chunk's `requiredBy` fails when it stops importing the module.
 * `chunks` and `dist` (where the entries are compiled) are the build's own unless a test passes others.
 */
export async function lazyChunks(bundle, chunks = LAZY_CHUNKS, dist = out) {
  const plugins = [];
  for (const [chunk, { entry, requiredBy }] of Object.entries(chunks)) {
    const name = `pm-lazy-chunk-${chunk}`;
    const exported = Object.entries(await import(pathToFileURL(join(dist, entry)).href));
    const values = exported.filter(([, value]) => typeof value !== 'function').map(([key]) => key);
    if (values.length) throw new Error(`${name}: expected ${entry} to export only functions, and ${values.join(', ')} ${values.length === 1 ? 'is' : 'are'} not: keep values out of a lazy chunk's module`);
    const file = basename(entry);
    plugins.push(redirectImport({
      name,
      filter: new RegExp(`(^|/)${file.replaceAll('.', '\\.')}$`),
      applies: (args) => join(args.resolveDir, args.path) === join(dist, entry),
      contents: [
        `let chunk; const load = () => (chunk ??= loadChunk(require('node:path').join(__dirname, ${JSON.stringify(chunk)})));`,
        `function loadChunk(path) { try { return require(path); } catch (error) { if (error?.code !== 'MODULE_NOT_FOUND' || !String(error.message).includes(path)) throw error; throw new Error(\`\${path} is missing: this installation of pm is incomplete; reinstall pm\`, { cause: error }); } }`,
        ...exported.map(([key]) => `exports.${key} = (...args) => load().${key}(...args);`),
      ].join('\n'),
      missing: requiredBy.includes(bundle) ? `expected dist/bundle/${bundle} to import ${entry}, and it did not; drop the chunk from its requiredBy` : undefined,
    }));
  }
  return plugins;
}

/** Every way a module can name 'zod' (static, re-export, dynamic, require), for the check below. */
const ZOD_REFERENCE = /\bfrom\s*(['"])zod\1|\bimport\s*(['"])zod\2|\b(?:import|require)\s*\(\s*(['"])zod\3\s*\)/;
const ZOD_NAMED_IMPORT = "import { z } from 'zod';";

/**
 * `import { z } from 'zod'` hands over zod's whole namespace object, so a bundle keeps every
 * export of zod (JSON Schema conversion, ISO formats, coercion… about half of zod's code) though
 * pm uses a few dozen. Our compiled modules import the same module as a namespace instead,
 * whose member uses esbuild resolves statically, so the rest is left out (same zod module, same
 * instances: only unused code goes). Every compiled module of ours that names zod must use
 * exactly the one form rewritten here, else the build fails naming the module; `stats` (when
 * given) receives how many modules named zod and how many were rewritten.
 * `options.ours` is the directory of our compiled modules; `options.external` zod's external.js.
 */
export function zodNamespaceImports(options = {}, stats = {}) {
  const name = 'pm-zod-namespace-imports';
  const ours = options.ours ?? out;
  let external = options.external;
  try {
    external ??= join(dirname(createRequire(import.meta.url).resolve('zod/v4')), 'classic', 'external.js');
  } catch {
    // reported at the start of the build
  }
  const oursFilter = new RegExp(`^${ours.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[\\\\/].*\\.js$`);
  return {
    name,
    setup(build) {
      build.onStart(() => {
        stats.importing = 0;
        stats.rewritten = 0;
        if (!external || !existsSync(external)) return pluginError(name, `expected zod's classic API at ${external ?? "zod/v4's classic/external.js"}, and it is not there; zod's layout changed: update this plugin for the installed zod`);
        return undefined;
      });
      build.onLoad({ filter: oursFilter }, (args) => {
        const text = readFileSync(args.path, 'utf8');
        if (!ZOD_REFERENCE.test(text)) return { contents: text, loader: 'js' };
        stats.importing++;
        const contents = text.replaceAll(ZOD_NAMED_IMPORT, `import * as z from ${JSON.stringify(external)};`);
        if (contents === text || ZOD_REFERENCE.test(contents)) {
          return pluginError(name, `expected ${shown(args.path)} to import zod only as \`${ZOD_NAMED_IMPORT}\` (the one form this rewrite knows), and it imports zod otherwise; the bundle would keep all of zod: write the import in that form, or teach this plugin the new one`);
        }
        stats.rewritten++;
        return { contents, loader: 'js' };
      });
      build.onEnd(() =>
        stats.rewritten > 0 ? undefined : pluginError(name, `expected at least one compiled module under ${shown(ours) || '.'} to import zod as \`${ZOD_NAMED_IMPORT}\`, and none did`),
      );
    },
  };
}

/** The yaml functions the lazy stand-in serves (visit with its BREAK/SKIP/REMOVE markers). */
const LAZY_YAML_EXPORTS = ['parseDocument', 'stringify', 'visit', 'isAlias', 'isMap', 'isScalar'];
/** The markers of `visit` (read from the real function on first use). */
const LAZY_YAML_VISIT_MARKERS = ['BREAK', 'SKIP', 'REMOVE'];

/**
 * yaml is CommonJS, so a bundle runs all of its module code (~5 ms of a start) where a module
 * importing it is evaluated, though pm-mcp needs it only once config.yaml or an item is read.
 * pm uses a few plain functions of it (parsing, printing, and the node visitor skill front
 * matter is checked with): the bundles import them from this stand-in, which loads yaml on the
 * first call. Importing anything else from 'yaml' (another name, a namespace or a
 * default import) fails the build, naming the importer, as does a yaml without these functions.
 * `options.yaml` is the yaml module file (default: the installed package's).
 */
export function lazyYaml(options = {}) {
  const name = 'pm-lazy-yaml';
  const requireHere = createRequire(import.meta.url);
  return {
    name,
    setup(build) {
      let real;
      build.onStart(() => {
        try {
          real = options.yaml ?? requireHere.resolve('yaml');
          const yaml = requireHere(real);
          const missing = LAZY_YAML_EXPORTS.filter((fn) => typeof yaml[fn] !== 'function');
          if (missing.length === 0) return undefined;
          return pluginError(name, `expected the installed yaml to export ${LAZY_YAML_EXPORTS.join(' and ')} as functions, and ${missing.join(' and ')} ${missing.length === 1 ? 'is' : 'are'} not; the bundle would fail at its first YAML read: update the stand-in for the installed yaml`);
        } catch (error) {
          return pluginError(name, `expected to load the installed yaml, and could not: ${error?.message ?? error}`);
        }
      });
      build.onResolve({ filter: /^yaml$/ }, (args) => {
        if (args.namespace === 'pm-lazy-yaml') return undefined;
        const refused = args.importer ? unservedYamlImports(readFileSync(args.importer, 'utf8')) : [];
        if (refused.length > 0) {
          return pluginError(name, `expected ${shown(args.importer)} to import only ${LAZY_YAML_EXPORTS.join(' or ')} from 'yaml' (all the lazy stand-in serves), and it imports ${refused.join(', ')}: add what it needs to the stand-in in scripts/build.mjs`);
        }
        return { path: 'yaml', namespace: 'pm-lazy-yaml' };
      });
      build.onLoad({ filter: /.*/, namespace: 'pm-lazy-yaml' }, () => ({
        contents: [
          `let yaml;`,
          `const load = () => (yaml ??= require(${JSON.stringify(real)}));`,
          ...LAZY_YAML_EXPORTS.map((fn) => `export function ${fn}(...args) { return load().${fn}(...args); }`),
          ...LAZY_YAML_VISIT_MARKERS.map((marker) => `Object.defineProperty(visit, ${JSON.stringify(marker)}, { get: () => load().visit.${marker} });`),
        ].join('\n'),
        loader: 'js',
        resolveDir: root,
      }));
    },
  };
}

/** What a module takes from 'yaml' beyond the stand-in's functions, as readable phrases. */
function unservedYamlImports(text) {
  const refused = [];
  const statement = /\b(import|export)\s*([^;'"]*?)\s*from\s*(['"])yaml\3|\b(import|require)\s*\(\s*(['"])yaml\5\s*\)/g;
  for (const match of text.matchAll(statement)) {
    if (match[4]) {
      refused.push(`the whole module (${match[4]}())`);
      continue;
    }
    const clause = match[2].trim();
    const named = /^(?:type\s+)?\{([^}]*)\}$/.exec(clause);
    if (!named) {
      refused.push(`${match[1]} ${clause}`);
      continue;
    }
    for (const part of named[1].split(',').map((p) => p.trim()).filter(Boolean)) {
      const imported = part.split(/\s+as\s+/)[0].trim();
      if (!LAZY_YAML_EXPORTS.includes(imported)) refused.push(imported);
    }
  }
  return refused;
}

/**
 * Bundles the stdio server and the CLI (our own compiled sources plus their dependencies) with
 * esbuild, a devDependency, as CommonJS scripts that bin/bundle-loader.cjs runs with a V8 code
 * cache: start-up is dominated by resolving, parsing and compiling JavaScript, and a stdio MCP
 * host starts pm-mcp for every session. Whitespace and syntax are minified (names are kept, so
 * stack traces stay readable). The bins prefer dist/bundle and fall back to the unbundled dist/
 * when it is absent (an install without devDependencies, so without esbuild). A failed bundle
 * fails the build, naming the bundle.
 */
async function bundle() {
  let esbuild;
  try {
    esbuild = createRequire(import.meta.url)('esbuild');
  } catch {
    return undefined;
  }
  mkdirSync(bundles, { recursive: true });
  for (const [name, entry] of Object.entries(BUNDLED)) {
    const { output, map } = await bundleOne(esbuild, name, entry, [englishZodLocales(), zodNamespaceImports(), lazyYaml(), ...(await lazyChunks(name))]);
    const target = join(bundles, name);
    // Node 20 cannot run import() from a cached script, so bin/bundle-loader.cjs compiles such a
    // bundle in full at every start there: a cost that should never arrive unannounced. A bundle
    // without import() says so in its first line, which spares the loader searching for one.
    const imports = output.text.includes('import(');
    if (imports) process.stderr.write(`scripts/build.mjs: warning: dist/bundle/${name} calls import(), so under Node 20 it starts without its code cache (bin/bundle-loader.cjs)\n`);
    writeAtomically(`${target}.map`, imports ? map.text : shiftedMap(map.text, NO_IMPORT_MARK.split('\n').length - 1));
    writeAtomically(target, imports ? output.contents : Buffer.concat([Buffer.from(NO_IMPORT_MARK), output.contents]));
  }
  for (const [name, { entry }] of Object.entries(LAZY_CHUNKS)) {
    const { output, map } = await bundleOne(esbuild, name, entry, []);
    writeAtomically(join(bundles, `${name}.map`), map.text);
    writeAtomically(join(bundles, name), output.contents);
  }
  // Bundles of earlier builds (ES module format) are never loaded again.
  for (const stale of ['pm.mjs', 'pm-mcp.mjs']) rmSync(join(bundles, stale), { force: true });
  return esbuild;
}

/**
 * One esbuild bundle of dist/<entry> as dist/bundle/<name> with `plugins` (in memory: the caller
 * writes it). A lazy chunk gets none of the main bundles' rewrites: it carries no zod, and its
 * yaml, if any, loads as it is.
 */
async function bundleOne(esbuild, name, entry, plugins) {
  const outfile = join(bundles, name);
  const result = await esbuild.build({
    entryPoints: [join(out, entry)],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    charset: 'ascii',
    minifyWhitespace: true,
    minifySyntax: true,
    plugins,
    write: false,
    outfile,
    logLevel: 'error',
    // Linked map (dist/bundle/<name>.map) composed from the modules' maps, so it points at src/*.ts.
    sourcemap: 'linked',
    sourcesContent: false,
    // The sources locate package.json from import.meta.url; the bundle sits at the same depth.
    define: { 'import.meta.url': '__pmBundleUrl' },
    banner: { js: 'var __pmBundleUrl=require("node:url").pathToFileURL(__filename).href;' },
  }).catch((error) => {
    throw new Error(`bundling dist/bundle/${name} failed: ${error.message}`, { cause: error });
  });
  return { output: result.outputFiles.find((file) => file.path === outfile), map: result.outputFiles.find((file) => file.path === `${outfile}.map`) };
}

const views = join(out, 'apps');

/** The MCP Apps views (scripts/build-views.mjs), with the zod locales rewrite the bundles use. */
async function buildViews(esbuild) {
  const sizes = await buildAppViews(esbuild, { root, out, outdir: views, plugins: [englishZodLocales()] });
  await buildBrowserBoard(esbuild, { root, outdir: views, plugins: [englishZodLocales()] });
  return sizes;
}

function* walkAll(dir) {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walkAll(path);
    else yield path;
  }
}

if (process.argv[1] && statSync(process.argv[1], { throwIfNoEntry: false })?.ino === statSync(fileURLToPath(import.meta.url)).ino) {
  try {
    const count = await build();
    // stderr: stdout belongs to whoever runs the build (`npm pack --json` prints its JSON there).
    if (!process.argv.includes('--quiet')) console.error(`built ${count} files into dist/`);
  } catch (error) {
    // Also under --quiet (the prepare script): a failed build must never pass for a good one.
    process.stderr.write(`scripts/build.mjs: ${error?.message ?? error}\n`);
    process.exit(1);
  }
}
