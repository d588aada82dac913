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
export function build() {
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
  bundle();
  return built.size;
}

const bundles = join(out, 'bundle');
/** Entry points bundled into single files, so a process start loads one module, not ~450. */
const BUNDLED = { 'pm.mjs': 'composition/cli-main.js', 'pm-mcp.mjs': 'composition/mcp-stdio-main.js' };

/**
 * Bundles the stdio server and the CLI (our own compiled sources plus their dependencies) with
 * esbuild, a devDependency: start-up is dominated by resolving and compiling hundreds of small
 * ES modules (inversify alone is ~250). The bins prefer dist/bundle and fall back to the
 * unbundled dist/ when it is absent (e.g. an install without devDependencies).
 */
function bundle() {
  let esbuild;
  try {
    esbuild = createRequire(import.meta.url)('esbuild');
  } catch {
    return;
  }
  mkdirSync(bundles, { recursive: true });
  for (const [name, entry] of Object.entries(BUNDLED)) {
    const result = esbuild.buildSync({
      entryPoints: [join(out, entry)],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      write: false,
      outfile: join(bundles, name),
      logLevel: 'error',
      // CommonJS dependencies inside an ES module bundle need a require of their own.
      banner: { js: "import { createRequire as __pmRequire } from 'node:module'; const require = __pmRequire(import.meta.url);" },
    });
    const target = join(bundles, name);
    const temp = `${target}.tmp-${process.pid}`;
    writeFileSync(temp, result.outputFiles[0].contents);
    renameSync(temp, target);
  }
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
  const count = build();
  if (!process.argv.includes('--quiet')) console.log(`built ${count} files into dist/`);
}
