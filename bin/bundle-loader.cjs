// Loads one of pm's single-file bundles (dist/bundle/*.cjs, built by scripts/build.mjs) with a
// code cache, so a process start neither parses nor compiles the ~0.7 MB bundle again.
//
// Why: start-up of pm and pm-mcp is dominated by compiling JavaScript, and a stdio MCP host
// spawns pm-mcp for every session (docs/BENCHMARKS.md, cold start). The cache is a V8 code
// cache kept by this loader through `node:vm`: the bundle is compiled as a `vm.Script` with the
// cached data of an earlier run, and after a run that had no usable cache the new one is written
// at exit, so it holds every function that run compiled. V8 rejects a cache made by another V8
// version, with other flags or for a source of another length, but does not compare the source
// text: the file name binds the cache to the bundle's inode, size and mtime (each build replaces
// the bundle by rename), taken from the same open file the source is read from, and to the runtime
// (node's version, or Bun's). Only files owned by the current user are read (code caches are executable data).
//
// Node >= 22.1 has a compile cache of its own (`module.enableCompileCache`), which
// `PM_COMPILE_CACHE=node` selects instead: Node's cache in pm's directory, then a plain
// `require()` of the bundle. It is not the default because Node serializes its cache right
// after compiling, before the bundle runs, so it holds only the eagerly compiled top level and
// every function a start calls is compiled again each time: measured side by side, pm and
// pm-mcp start slower that way than with this loader's cache (docs/BENCHMARKS.md).
//
// Where: `$PM_COMPILE_CACHE_DIR`, else `$XDG_CACHE_HOME/pm/compile-cache`, else
// `~/.cache/pm/compile-cache`; a directory of the current user, created with mode 0700 (Node's
// own cache is used only in a directory nobody else can write to: Node reads its entries
// without asking who wrote them). `PM_COMPILE_CACHE=0` (or `false`, `off`) turns the cache off.
// Any failure of the cache falls back to a plain compile: the cache can make a start faster,
// never break it.
//
// This file and the bins that use it are CommonJS: a process whose main module is ESM starts
// node's ES module loader first, which costs ~9 ms of every start here (measured side by side
// with a bare echo in both forms; docs/BENCHMARKS.md).
'use strict';
const { isAscii } = require('node:buffer');
const { closeSync, existsSync, fstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } = require('node:fs');
const { basename, dirname, join } = require('node:path');
const vm = require('node:vm');

const STALE_AFTER_MS = 30 * 24 * 3600 * 1000;

/**
 * The first line scripts/build.mjs gives a bundle in which it found no `import()`: the loader
 * then need not search 0.7 MB of source for one at every start (that search costs about as much
 * as the rest of this file). A bundle without it is searched.
 */
const NO_IMPORT_MARK = '/* pm-bundle: no dynamic import */\n';

const cacheOff = (env) => env.PM_COMPILE_CACHE === '0' || env.PM_COMPILE_CACHE === 'false' || env.PM_COMPILE_CACHE === 'off';

/** The directory of code caches, or undefined when caching is off. */
function compileCacheDir(env = process.env) {
  if (cacheOff(env)) return undefined;
  if (env.PM_COMPILE_CACHE_DIR) return env.PM_COMPILE_CACHE_DIR;
  const base = env.XDG_CACHE_HOME || join(require('node:os').homedir(), '.cache');
  return join(base, 'pm', 'compile-cache');
}

/**
 * `version` (process.versions.node, e.g. "22.1.0") as [major, minor], or undefined when it is
 * not plainly "major.minor.patch" with an optional pre-release tag (then it counts as too old).
 */
function nodeRelease(version) {
  const match = /^(\d+)\.(\d+)\.(\d+)(?:-[0-9A-Za-z.-]+)?$/.exec(String(version));
  return match ? [Number(match[1]), Number(match[2])] : undefined;
}

/**
 * Whether `moduleApi` (node:module) caches compiled code itself: it has `enableCompileCache`
 * and `version` is at least 22.1, the release that added it.
 */
function hasNodeCompileCache(moduleApi, version) {
  if (typeof moduleApi?.enableCompileCache !== 'function') return false;
  const [major, minor] = nodeRelease(version) ?? [0, 0];
  return major > 22 || (major === 22 && minor >= 1);
}

/**
 * Whether a vm.Script compiled from cached data keeps its `import()` loader. Node 20's V8
 * (11.3) drops a script's host-defined options when it deserializes it, so `import()` in a
 * cached script fails with ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING there; Node 22's V8 keeps
 * them (both tried side by side). Where it is not kept, a bundle that calls `import()` is
 * compiled without the cache: slower, never broken.
 */
function cacheKeepsDynamicImport(version) {
  const [major] = nodeRelease(version) ?? [0];
  return major >= 22;
}

/**
 * Which cache a start uses: 'off' (PM_COMPILE_CACHE=0, false or off), 'node' (Node's own, when
 * PM_COMPILE_CACHE=node asks for it and `moduleApi` has it) or 'vm' (this loader's, otherwise).
 */
function compileCacheKind(env, moduleApi, version) {
  if (cacheOff(env)) return 'off';
  return env.PM_COMPILE_CACHE === 'node' && hasNodeCompileCache(moduleApi, version) ? 'node' : 'vm';
}

/**
 * Runs the CommonJS bundle at `file` and returns its exports. Returns undefined when the file
 * does not exist (the caller falls back to the unbundled sources). `options.onCacheStatus` is
 * told what became of the code cache: 'off'; 'debug' (PM_DEBUG=1: no cache, source maps on); with this loader's cache 'absent' (none yet:
 * written at exit), 'rejected' (unusable: rewritten at exit), 'accepted' or 'skipped' (the
 * bundle calls `import()`, which this Node cannot run from a cache); with Node's own 'node'
 * (enabled) or 'unavailable' (directory unusable, or Node declined).
 * `options.moduleApi` and `options.nodeVersion` stand for node:module and process.versions.node
 * (tests hand in others to choose the way).
 */
function loadBundle(file, options = {}) {
  const env = process.env;
  if (env.PM_DEBUG === '1') return requireWithSourceMaps(file, options);
  // node:module only when asked for: requiring it costs a start ~0.5 ms.
  const moduleApi = options.moduleApi ?? (env.PM_COMPILE_CACHE === 'node' ? require('node:module') : undefined);
  const kind = compileCacheKind(env, moduleApi, options.nodeVersion ?? process.versions.node);
  const dir = compileCacheDir(env);
  return kind === 'node' ? requireWithNodeCache(file, moduleApi, dir, options) : runWithVmCache(file, dir, options);
}

/**
 * Under PM_DEBUG=1 (a run whose stack traces someone will read): source maps on, then a plain
 * require() of the bundle without any code cache, so every frame of a stack trace names its
 * src/*.ts line through the bundle's map (dist/bundle/<name>.map, built by scripts/build.mjs).
 * Node applies a script's map only to code it loaded itself after source maps were turned on,
 * never to a vm.Script from a code cache; and parsing a ~1 MB map is a cost only a debugging
 * run should pay, so the normal start stays as it is.
 */
function requireWithSourceMaps(file, options) {
  process.setSourceMapsEnabled(true);
  let exports;
  try {
    exports = require(file);
  } catch (error) {
    if (error?.code === 'MODULE_NOT_FOUND' && !existsSync(file)) return undefined;
    throw error;
  }
  options.onCacheStatus?.('debug');
  return exports;
}

/** Node's own compile cache in pm's directory, then a plain require(). */
function requireWithNodeCache(file, moduleApi, dir, options) {
  const status = enableNodeCache(moduleApi, dir);
  let exports;
  try {
    exports = require(file);
  } catch (error) {
    if (error?.code === 'MODULE_NOT_FOUND' && !existsSync(file)) return undefined;
    throw error;
  }
  options.onCacheStatus?.(status);
  return exports;
}

function enableNodeCache(moduleApi, dir) {
  try {
    let info = statSync(dir, { throwIfNoEntry: false });
    if (!info) {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      info = statSync(dir);
    }
    if (!isPrivateDir(info)) return 'unavailable';
    const { status } = moduleApi.enableCompileCache(dir) ?? {};
    const { ENABLED, ALREADY_ENABLED } = moduleApi.constants?.compileCacheStatus ?? {};
    return status !== undefined && (status === ENABLED || status === ALREADY_ENABLED) ? 'node' : 'unavailable';
  } catch {
    return 'unavailable';
  }
}

/** A directory only the current user can write to (where POSIX ownership exists). */
function isPrivateDir(info) {
  if (!info.isDirectory()) return false;
  if (typeof process.getuid !== 'function') return true;
  return info.uid === process.getuid() && (info.mode & 0o022) === 0;
}

/** The bundle as a vm.Script with the V8 cached data of an earlier run (none when `dir` is undefined). */
function runWithVmCache(file, dir, options) {
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
  const source = bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
  const mayImport = !source.startsWith(NO_IMPORT_MARK);
  const skipped = dir !== undefined && mayImport && !cacheKeepsDynamicImport(process.versions.node) && source.includes('import(');
  // One cache per installed bundle and runtime: later builds of the same file replace it.
  const prefix = `${basename(file).replace(/\.c?js$/, '')}-${fnv1a(file)}-${runtimeTag(process.versions)}-${process.arch}-`;
  const cacheFile = dir && !skipped ? join(dir, `${prefix}${stat.size}-${Math.trunc(stat.mtimeMs)}-${stat.ino}.bin`) : undefined;
  const cachedData = cacheFile ? readOwnFile(cacheFile) : undefined;
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    ...(cachedData ? { cachedData } : {}),
    ...(mayImport ? dynamicImports() : {}),
  });
  const status = skipped ? 'skipped' : !cacheFile ? 'off' : !cachedData ? 'absent' : script.cachedDataRejected ? 'rejected' : 'accepted';
  if (status === 'absent' || status === 'rejected') process.once('exit', () => writeCache(dir, cacheFile, prefix, script));
  options.onCacheStatus?.(status);
  const bundleModule = { exports: {} };
  // The bundles require only node's builtins (everything else is inside), so this file's
  // `require` serves them (node:module's createRequire would cost a start ~0.5 ms).
  script.runInThisContext()(bundleModule.exports, require, bundleModule, file, dirname(file));
  return bundleModule.exports;
}

/**
 * A vm.Script has no loader for `import()` unless it is given one: without this option an
 * `import()` in a bundle fails with ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING. The main context's
 * default loader is what a required module's `import()` uses (relative specifiers resolve
 * against the bundle's file). Node (20 and 22) calls that option experimental and says so on
 * stderr at the first `import()`; the notice is about how this loader compiles, not about
 * anything a pm user can act on, and would land in the output of the command, so exactly that
 * one warning is dropped (node emits it once per process; the filter then steps aside).
 */
function dynamicImports() {
  const loader = vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER;
  if (loader === undefined) return {};
  const emitWarning = process.emitWarning;
  const filtered = function emitWarningExceptLoaderNotice(warning, ...rest) {
    if (typeof warning === 'string' && warning.startsWith('vm.USE_MAIN_CONTEXT_DEFAULT_LOADER is an experimental feature')) {
      if (process.emitWarning === filtered) process.emitWarning = emitWarning;
      return undefined;
    }
    return Reflect.apply(emitWarning, this, [warning, ...rest]);
  };
  process.emitWarning = filtered;
  return { importModuleDynamically: loader };
}

/**
 * The engine a code cache belongs to: `v<node version>` under Node, `bun<version>` under Bun.
 * Bun reports a Node version of its own in process.version while its engine (JavaScriptCore)
 * writes caches of another kind, so a cache named by process.version alone could be handed
 * from one engine to the other.
 */
function runtimeTag(versions) {
  return versions.bun ? `bun${versions.bun}` : `v${versions.node}`;
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
 * The V8 heap flags of a pm process of this kind, leaving out any the user gave to node: the
 * policy, and why, is src/composition/heap-growth.ts (`heapFlags`, which the bundle applies
 * again; a unit test keeps the two equal).
 */
function heapFlags(kind, execArgv, nodeOptions) {
  const given = [...execArgv, nodeOptions ?? ''].join(' ').replaceAll('_', '-');
  const flags = kind === 'one-shot' ? ['--heap-growing-percent=50', '--semi-space-growth-factor=1'] : ['--heap-growing-percent=50'];
  return flags.filter((flag) => !given.includes(flag.slice(0, flag.indexOf('='))));
}

/**
 * Sets the heap flags before the bundle is compiled. V8 stamps a code cache with a hash of the
 * flags in force when it is written and rejects it at a compile under other flags, so flags set
 * only once the bundle runs made every start's cache unusable: compiled from scratch, and
 * written again at exit (1.39x the time of `pm get` with a working cache; docs/BENCHMARKS.md).
 */
function boundHeapBeforeCompile(kind) {
  const v8 = require('node:v8');
  for (const flag of heapFlags(kind, process.execArgv, process.env.NODE_OPTIONS)) v8.setFlagsFromString(flag);
}

/**
 * The `main` export of a bin's entry point: the bundle dist/bundle/<bundle> run with the code
 * cache, else the compiled module dist/<entry> (an install built without devDependencies), with
 * the heap flags of `heapKind` ('one-shot' or 'server') set first. When dist/ is missing, says
 * how to build it and exits 1.
 */
async function loadMain(bin, bundle, entry, heapKind) {
  const dist = join(__dirname, '..', 'dist');
  boundHeapBeforeCompile(heapKind);
  // The unbundled fallback's modules carry maps too (dist/**/*.js.map).
  if (process.env.PM_DEBUG === '1') process.setSourceMapsEnabled(true);
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

module.exports = { NO_IMPORT_MARK, cacheKeepsDynamicImport, compileCacheDir, compileCacheKind, hasNodeCompileCache, heapFlags, loadBundle, loadMain, failBin, runtimeTag };
