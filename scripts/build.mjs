#!/usr/bin/env node
// Transpiles src/**/*.ts to dist/**/*.js with swc (fast, no type check: `npm run typecheck`
// does that). Used by `npm run build`, by `prepare` on install and by jest's global setup,
// so the real `pm` binaries always run the current sources.
import { existsSync, readdirSync, mkdirSync, renameSync, writeFileSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, dirname, relative } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { transformSync } from '@swc/core';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');
const out = join(root, 'dist');
const options = JSON.parse(readFileSync(join(root, '.swcrc'), 'utf8'));
delete options.$schema;
options.sourceMaps = false;

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
    const { code } = transformSync(readFileSync(file, 'utf8'), { ...options, filename: file });
    const temp = `${target}.tmp-${process.pid}`;
    writeFileSync(temp, code);
    renameSync(temp, target);
    built.add(target);
  }
  // Outputs whose source is gone (checked now, not against the walk, so a file another build
  // just added is kept).
  for (const js of walkAll(out)) {
    if (js.endsWith('.js') && !js.startsWith(bundles) && !built.has(js) && !existsSync(join(src, relative(out, js)).replace(/\.js$/, '.ts'))) rmSync(js, { force: true });
  }
  await bundle();
  return built.size;
}

const bundles = join(out, 'bundle');
/** Entry points bundled into single files, so a process start loads one script, not ~450 modules. */
const BUNDLED = { 'pm.cjs': 'composition/cli-main.js', 'pm-mcp.cjs': 'composition/mcp-stdio-main.js' };

/**
 * zod's `z` namespace re-exports every locale (~40 modules, a fifth of the bundle); pm speaks
 * English only, so the bundles keep `en` (zod's default, imported by zod itself) and drop the rest.
 */
const englishZodLocales = {
  name: 'pm-zod-english-locales',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/](classic|core)$/.test(args.resolveDir) ? { path: join(args.resolveDir, '..', 'locales'), namespace: 'pm-zod-locales' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'pm-zod-locales' }, (args) => ({
      contents: "export { default as en } from './en.js';",
      resolveDir: args.path,
      loader: 'js',
    }));
  },
};

/**
 * `import { z } from 'zod'` hands over zod's whole namespace object, so a bundle keeps every
 * export of zod (JSON Schema conversion, ISO formats, coercion… about half of zod's code) though
 * pm uses a few dozen. Our compiled modules import the same module as a namespace instead,
 * whose member uses esbuild resolves statically, so the rest is left out (same zod module, same
 * instances: only unused code goes).
 */
const zodNamespaceImports = {
  name: 'pm-zod-namespace-imports',
  setup(build) {
    const external = join(dirname(createRequire(import.meta.url).resolve('zod/v4')), 'classic', 'external.js');
    const ours = new RegExp(`^${out.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[\\/].*\\.js$`);
    build.onLoad({ filter: ours }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      return { contents: text.replaceAll("import { z } from 'zod';", `import * as z from ${JSON.stringify(external)};`), loader: 'js' };
    });
  },
};

/**
 * yaml is CommonJS, so a bundle runs all of its module code (~5 ms of a start) where a module
 * importing it is evaluated, though pm-mcp needs it only once config.yaml or an item is read.
 * pm uses two plain functions of it: the bundles import them from this stand-in, which loads
 * yaml on the first call. Importing anything else from 'yaml' fails the build here, on purpose.
 */
const lazyYaml = {
  name: 'pm-lazy-yaml',
  setup(build) {
    const real = createRequire(import.meta.url).resolve('yaml');
    build.onResolve({ filter: /^yaml$/ }, (args) => (args.namespace === 'pm-lazy-yaml' ? undefined : { path: 'yaml', namespace: 'pm-lazy-yaml' }));
    build.onLoad({ filter: /.*/, namespace: 'pm-lazy-yaml' }, () => ({
      contents: [
        `let yaml;`,
        `const load = () => (yaml ??= require(${JSON.stringify(real)}));`,
        `export function parseDocument(...args) { return load().parseDocument(...args); }`,
        `export function stringify(...args) { return load().stringify(...args); }`,
      ].join('\n'),
      loader: 'js',
      resolveDir: root,
    }));
  },
};

/**
 * Bundles the stdio server and the CLI (our own compiled sources plus their dependencies) with
 * esbuild, a devDependency, as CommonJS scripts that bin/bundle-loader.cjs runs with a V8 code
 * cache: start-up is dominated by resolving, parsing and compiling JavaScript (issue 3, cold
 * start). Whitespace and syntax are minified (names are kept, so stack traces stay readable).
 * The bins prefer dist/bundle and fall back to the unbundled dist/ when it is absent (e.g. an
 * install without devDependencies).
 */
async function bundle() {
  let esbuild;
  try {
    esbuild = createRequire(import.meta.url)('esbuild');
  } catch {
    return;
  }
  mkdirSync(bundles, { recursive: true });
  for (const [name, entry] of Object.entries(BUNDLED)) {
    const result = await esbuild.build({
      entryPoints: [join(out, entry)],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      charset: 'ascii',
      minifyWhitespace: true,
      minifySyntax: true,
      plugins: [englishZodLocales, zodNamespaceImports, lazyYaml],
      write: false,
      outfile: join(bundles, name),
      logLevel: 'error',
      // The sources locate package.json from import.meta.url; the bundle sits at the same depth.
      define: { 'import.meta.url': '__pmBundleUrl' },
      banner: { js: 'var __pmBundleUrl=require("node:url").pathToFileURL(__filename).href;' },
    });
    const target = join(bundles, name);
    const temp = `${target}.tmp-${process.pid}`;
    writeFileSync(temp, result.outputFiles[0].contents);
    renameSync(temp, target);
  }
  // Bundles of earlier builds (ES module format) are never loaded again.
  for (const stale of ['pm.mjs', 'pm-mcp.mjs']) rmSync(join(bundles, stale), { force: true });
}

function* walkAll(dir) {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walkAll(path);
    else yield path;
  }
}

if (process.argv[1] && statSync(process.argv[1]).ino === statSync(fileURLToPath(import.meta.url)).ino) {
  const count = await build();
  if (!process.argv.includes('--quiet')) console.log(`built ${count} files into dist/`);
}
