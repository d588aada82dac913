// Loads one of pm's single-file bundles (dist/bundle/*.cjs, built by scripts/build.mjs) with a
// V8 code cache, so a process start neither parses nor compiles the ~1 MB bundle again.
//
// Why: start-up of pm and pm-mcp is dominated by compiling JavaScript (issue 3: cold start to
// the first server/discover within 1.5x of a bare node process). Node 22 offers
// `module.enableCompileCache()`; pm supports Node 20, so it does the same with `node:vm`:
// compile the bundle as a `vm.Script` with the cached data of an earlier run, and after a run
// that had no usable cache, write the new one (it then holds every function that run compiled).
//
// Where: `$PM_COMPILE_CACHE_DIR`, else `$XDG_CACHE_HOME/pm/compile-cache`, else
// `~/.cache/pm/compile-cache`; a directory of the current user, created with mode 0700. Only
// files owned by the current user are read (code caches are executable data). V8 itself
// rejects a cache made by another V8 version, with other flags or for a source of another
// length, but does not compare the source text: the file name binds the cache to the bundle's
// inode, size and mtime (each build replaces the bundle by rename), taken from the same open
// file the source is read from, and to the node version. `PM_COMPILE_CACHE=0` turns the cache off. Any failure of the cache falls back to a
// plain compile: the cache can make a start faster, never break it.
//
// This file and the bins that use it are CommonJS: a process whose main module is ESM starts
// node's ES module loader first, which costs ~9 ms of every start here (measured side by side
// with a bare echo in both forms; docs/BENCHMARKS.md).
'use strict';
const { isAscii } = require('node:buffer');
const { closeSync, fstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } = require('node:fs');
const { basename, dirname, join } = require('node:path');
const { Script } = require('node:vm');

const STALE_AFTER_MS = 30 * 24 * 3600 * 1000;

/** The directory of code caches, or undefined when caching is off. */
function compileCacheDir(env = process.env) {
  if (env.PM_COMPILE_CACHE === '0' || env.PM_COMPILE_CACHE === 'false' || env.PM_COMPILE_CACHE === 'off') return undefined;
  if (env.PM_COMPILE_CACHE_DIR) return env.PM_COMPILE_CACHE_DIR;
  const base = env.XDG_CACHE_HOME || join(require('node:os').homedir(), '.cache');
  return join(base, 'pm', 'compile-cache');
}

/**
 * Runs the CommonJS bundle at `file` and returns its exports. Returns undefined when the file
 * does not exist (the caller falls back to the unbundled sources). `options.onCacheStatus` is
 * told what became of the code cache: 'off', 'absent' (none yet: written at exit), 'rejected'
 * (unusable: rewritten at exit) or 'accepted'.
 */
function loadBundle(file, options = {}) {
  // Bytes and signature from one open file: a build replacing the bundle meanwhile (by rename)
  // cannot pair the new file's signature with the old file's code.
  let fd;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    if (error?.code === 'ENOENT') return undefined;
    throw error;
  }
  let bytes;
  let stat;
  try {
    stat = fstatSync(fd);
    bytes = readFileSync(fd);
  } finally {
    closeSync(fd);
  }
  // esbuild writes ASCII (charset: 'ascii'): latin1 decoding is then exact and cheaper than UTF-8.
  const source = isAscii(bytes) ? bytes.latin1Slice(0, bytes.length) : bytes.toString('utf8');
  const dir = compileCacheDir();
  // One cache per installed bundle: later builds of the same file replace it.
  const prefix = `${basename(file).replace(/\.c?js$/, '')}-${fnv1a(file)}-${process.version}-${process.arch}-`;
  const cacheFile = dir ? join(dir, `${prefix}${stat.size}-${Math.trunc(stat.mtimeMs)}-${stat.ino}.bin`) : undefined;
  const cachedData = cacheFile ? readOwnFile(cacheFile) : undefined;
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    ...(cachedData ? { cachedData } : {}),
  });
  const status = !cacheFile ? 'off' : !cachedData ? 'absent' : script.cachedDataRejected ? 'rejected' : 'accepted';
  if (status === 'absent' || status === 'rejected') process.once('exit', () => writeCache(dir, cacheFile, prefix, script));
  options.onCacheStatus?.(status);
  const bundleModule = { exports: {} };
  // The bundles require only node's builtins (everything else is inside), so this file's
  // `require` serves them (node:module's createRequire would cost a start ~0.5 ms).
  script.runInThisContext()(bundleModule.exports, require, bundleModule, file, dirname(file));
  return bundleModule.exports;
}

/** A short, stable hash of a path (FNV-1a, 32 bits), without loading node:crypto. */
function fnv1a(text) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(36);
}

function readOwnFile(path) {
  let fd;
  try {
    fd = openSync(path, 'r');
    const info = fstatSync(fd);
    if (typeof process.getuid === 'function' && info.uid !== process.getuid()) return undefined;
    return readFileSync(fd);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function writeCache(dir, cacheFile, prefix, script) {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const data = script.createCachedData();
    const temp = `${cacheFile}.tmp-${process.pid}`;
    writeFileSync(temp, data, { mode: 0o600 });
    renameSync(temp, cacheFile);
    // Caches of earlier builds of this bundle are dead weight; caches older than a month are
    // dropped too (mostly installs that are gone: one still in use writes its cache again).
    const keep = basename(cacheFile);
    const stale = Date.now() - STALE_AFTER_MS;
    for (const entry of readdirSync(dir)) {
      if (entry === keep || !entry.endsWith('.bin')) continue;
      if (entry.startsWith(prefix) || statSync(join(dir, entry)).mtimeMs < stale) rmSync(join(dir, entry), { force: true });
    }
  } catch {
    // A read-only or full disk only costs the next start its compile time.
  }
}

/**
 * The `main` export of a bin's entry point: the bundle dist/bundle/<bundle> run with the code
 * cache, else the compiled module dist/<entry> (an install built without devDependencies). When
 * dist/ is missing, says how to build it and exits 1.
 */
async function loadMain(bin, bundle, entry) {
  const dist = join(__dirname, '..', 'dist');
  try {
    const exports = loadBundle(join(dist, 'bundle', bundle)) ?? (await import(require('node:url').pathToFileURL(join(dist, entry)).href));
    return exports.main;
  } catch (error) {
    if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('/dist/')) throw error;
    process.stderr.write(`${bin}: dist/ is missing or incomplete; run \`npm install\` or \`node scripts/build.mjs\` first\n`);
    process.exit(1);
  }
}

/** Reports an unexpected failure of a bin on stderr and exits 1. */
function failBin(bin) {
  return (error) => {
    process.stderr.write(`${bin}: ${error?.stack ?? error}\n`);
    process.exit(1);
  };
}

module.exports = { compileCacheDir, loadBundle, loadMain, failBin };
