import { jest } from '@jest/globals';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { toolNode } from '../support/tool-nodes.js';

// bin/bundle-loader.cjs in real node processes: the code cache is written at process exit, so
// every step is its own process over a temp bundle and a temp cache directory (never the real
// home: every spawn below names its PM_COMPILE_CACHE_DIR, XDG_CACHE_HOME or HOME).
jest.setTimeout(60_000);

const LOADER = fileURLToPath(new URL('../../bin/bundle-loader.cjs', import.meta.url));
const PM_MCP_BUNDLE = fileURLToPath(new URL('../../dist/bundle/pm-mcp.cjs', import.meta.url));

interface LoaderApi {
  readonly NO_IMPORT_MARK: string;
  cacheKeepsDynamicImport(version: string): boolean;
  compileCacheDir(env: NodeJS.ProcessEnv): string | undefined;
  compileCacheKind(env: NodeJS.ProcessEnv, moduleApi: unknown, version: string): 'off' | 'node' | 'vm';
  hasNodeCompileCache(moduleApi: unknown, version: string): boolean;
  runtimeTag(versions: { node: string; bun?: string }): string;
}
const loader = createRequire(import.meta.url)(LOADER) as LoaderApi;

interface Loaded {
  readonly code: number | null;
  readonly status: string | undefined;
  readonly value: unknown;
  /** Directories the injected node:module stand-in was asked to cache in (fake runs only). */
  readonly enabled: string[] | undefined;
  readonly stderr: string;
}

interface LoadOptions {
  /** The node binary (default: the one running the tests). */
  readonly node?: string;
  /** Hand the loader a node:module stand-in of Node 22.1 that records enableCompileCache calls. */
  readonly fakeNode22?: boolean;
}

/** Loads `file` in a fresh process and reports the cache status and the bundle's `value` export (awaited). */
function load(file: string, env: NodeJS.ProcessEnv, options: LoadOptions = {}): Promise<Loaded> {
  const script = `
    const { loadBundle } = await import(${JSON.stringify(LOADER)});
    let status;
    const enabled = [];
    const fake = {
      enableCompileCache: (dir) => { enabled.push(dir); return { status: 1, directory: dir }; },
      constants: { compileCacheStatus: { FAILED: 0, ENABLED: 1, ALREADY_ENABLED: 2, DISABLED: 3 } },
    };
    const injected = ${options.fakeNode22 ? 'true' : 'false'} ? { moduleApi: fake, nodeVersion: '22.1.0' } : {};
    const exports = loadBundle(${JSON.stringify(file)}, { onCacheStatus: (s) => { status = s; }, ...injected });
    const value = exports === undefined ? 'no bundle' : await exports.value;
    process.stdout.write(JSON.stringify({ status, value, enabled: injected.moduleApi ? enabled : undefined }));
  `;
  const base: NodeJS.ProcessEnv = { ...process.env, PM_COMPILE_CACHE: '', PM_COMPILE_CACHE_DIR: '', NODE_COMPILE_CACHE: '' };
  return new Promise((resolve, reject) => {
    const child = spawn(options.node ?? process.execPath, ['--input-type=module', '-e', script], { env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => { stdout += d; });
    child.stderr.setEncoding('utf8').on('data', (d: string) => { stderr += d; });
    child.on('error', reject);
    child.on('close', (code) => {
      const parsed = stdout ? (JSON.parse(stdout) as { status?: string; value: unknown; enabled?: string[] }) : { value: undefined };
      resolve({ code, status: parsed.status, value: parsed.value, enabled: parsed.enabled, stderr });
    });
  });
}

/** A bundle that really imports: a builtin, a relative ES module and a package by its `import` condition. */
function writeImportingBundle(dir: string): string {
  writeFileSync(join(dir, 'dep.mjs'), 'export const answer = 42;\n');
  const pkg = join(dir, 'node_modules', 'fixture-pkg');
  mkdirSync(pkg, { recursive: true });
  writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'fixture-pkg', exports: { import: './esm.mjs', require: './cjs.cjs' } }));
  writeFileSync(join(pkg, 'esm.mjs'), "export const kind = 'esm';\n");
  writeFileSync(join(pkg, 'cjs.cjs'), "exports.kind = 'cjs';\n");
  const file = join(dir, 'importing.cjs');
  writeFileSync(
    file,
    [
      'exports.value = (async () => {',
      "  const path = await import('node:path');",
      "  const dep = await import('./dep.mjs');",
      "  const pkg = await import('fixture-pkg');",
      "  process.emitWarning('a warning of the bundle itself');",
      "  return [path.basename(__filename), dep.answer, pkg.kind].join(':');",
      '})();',
      '',
    ].join('\n'),
  );
  return file;
}

/**
 * Runs `bundle` as a vm.Script from cached data that another process wrote, without the loader's
 * guard (in one process V8's in-memory compilation cache would hand back the original script),
 * and tells how its import() calls fared.
 */
function importFromCachedData(node: string, bundle: string): string {
  const data = `${bundle}.cached-data`;
  const script = `
    const vm = require('node:vm');
    const fs = require('node:fs');
    const [file, data, mode] = process.argv.slice(1);
    const source = '(function (exports, require, module, __filename, __dirname) {' + fs.readFileSync(file, 'latin1') + '\\n})';
    const options = { filename: file, importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER };
    if (mode === 'write') fs.writeFileSync(data, new vm.Script(source, options).createCachedData());
    else {
      const script = new vm.Script(source, { ...options, cachedData: fs.readFileSync(data) });
      const exports = {};
      script.runInThisContext()(exports, require, { exports }, file, require('node:path').dirname(file));
      exports.value.then((v) => console.log('rejected:' + script.cachedDataRejected, 'ok', v), (e) => console.log('rejected:' + script.cachedDataRejected, 'failed', e.code));
    }
  `;
  const run = (mode: string) => spawnSync(node, ['--no-warnings', '-e', script, bundle, data, mode], { encoding: 'utf8' });
  const written = run('write');
  if (written.status !== 0) throw new Error(`writing cached data failed: ${written.stderr}`);
  return run('read').stdout.trim();
}

describe('bundle loader: which cache a start uses', () => {
  const node22Api = { enableCompileCache: () => ({ status: 1 }) };

  it('takes Node’s own cache only from a node:module with enableCompileCache and a version of at least 22.1', () => {
    expect(loader.hasNodeCompileCache(node22Api, '22.1.0')).toBe(true);
    expect(loader.hasNodeCompileCache(node22Api, '22.23.3')).toBe(true);
    expect(loader.hasNodeCompileCache(node22Api, '23.0.0')).toBe(true);
    expect(loader.hasNodeCompileCache(node22Api, '24.0.0-rc.1')).toBe(true);
    expect(loader.hasNodeCompileCache(node22Api, '22.0.0')).toBe(false);
    expect(loader.hasNodeCompileCache(node22Api, '21.9.0')).toBe(false);
    expect(loader.hasNodeCompileCache(node22Api, '20.20.2')).toBe(false);
    expect(loader.hasNodeCompileCache({}, '22.1.0')).toBe(false);
    expect(loader.hasNodeCompileCache({ enableCompileCache: true }, '22.1.0')).toBe(false);
    expect(loader.hasNodeCompileCache(undefined, '22.1.0')).toBe(false);
  });

  it('refuses versions that are not plainly major.minor.patch', () => {
    for (const version of ['v22.1.0', '22.1', '22', '22.1.0.1', ' 22.1.0', '22.1.0 ', '22.x.0', '', 'latest']) {
      expect(loader.hasNodeCompileCache(node22Api, version)).toBe(false);
    }
  });

  it('trusts a code cache with import() from Node 22 on (Node 20’s V8 drops the loader of a cached script)', () => {
    expect(loader.cacheKeepsDynamicImport('20.20.2')).toBe(false);
    expect(loader.cacheKeepsDynamicImport('21.7.3')).toBe(false);
    expect(loader.cacheKeepsDynamicImport('22.0.0')).toBe(true);
    expect(loader.cacheKeepsDynamicImport('22.23.3')).toBe(true);
    expect(loader.cacheKeepsDynamicImport('v22.0.0')).toBe(false);
  });

  it('PM_COMPILE_CACHE: 0, false or off turn the cache off; node asks for Node’s own where there is one; else the vm.Script cache', () => {
    for (const off of ['0', 'false', 'off']) expect(loader.compileCacheKind({ PM_COMPILE_CACHE: off }, node22Api, '22.1.0')).toBe('off');
    expect(loader.compileCacheKind({ PM_COMPILE_CACHE: 'node' }, node22Api, '22.1.0')).toBe('node');
    expect(loader.compileCacheKind({ PM_COMPILE_CACHE: 'node' }, node22Api, '20.20.2')).toBe('vm');
    expect(loader.compileCacheKind({ PM_COMPILE_CACHE: 'node' }, {}, '22.1.0')).toBe('vm');
    expect(loader.compileCacheKind({}, node22Api, '22.1.0')).toBe('vm');
    expect(loader.compileCacheKind({ PM_COMPILE_CACHE: '' }, node22Api, '22.1.0')).toBe('vm');
    expect(loader.compileCacheKind({ PM_COMPILE_CACHE: '1' }, node22Api, '22.1.0')).toBe('vm');
  });

  it('keeps its caches in PM_COMPILE_CACHE_DIR, else XDG_CACHE_HOME/pm/compile-cache, else ~/.cache/pm/compile-cache', () => {
    expect(loader.compileCacheDir({ PM_COMPILE_CACHE_DIR: '/x/cache', XDG_CACHE_HOME: '/xdg' })).toBe('/x/cache');
    expect(loader.compileCacheDir({ XDG_CACHE_HOME: '/xdg' })).toBe(join('/xdg', 'pm', 'compile-cache'));
    expect(loader.compileCacheDir({ PM_COMPILE_CACHE: 'node', XDG_CACHE_HOME: '/xdg' })).toBe(join('/xdg', 'pm', 'compile-cache'));
    expect(loader.compileCacheDir({})).toMatch(/[\\/]\.cache[\\/]pm[\\/]compile-cache$/);
    expect(loader.compileCacheDir({ PM_COMPILE_CACHE: 'off', PM_COMPILE_CACHE_DIR: '/x/cache' })).toBeUndefined();
  });

  it('names a cache after its engine: Node’s version under Node, Bun’s under Bun (which reports a Node version of its own)', () => {
    expect(loader.runtimeTag({ node: '20.20.2' })).toBe('v20.20.2');
    expect(loader.runtimeTag({ node: '26.3.0', bun: '1.4.5' })).toBe('bun1.4.5');
    expect(loader.runtimeTag(process.versions)).toBe(process.version);
  });
});

describe('bundle loader (V8 code cache)', () => {
  let dir: string;
  let cacheDir: string;
  let bundle: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pm-bundle-loader-'));
    cacheDir = join(dir, 'cache');
    bundle = join(dir, 'demo.cjs');
    writeFileSync(bundle, 'const path = require("node:path"); exports.value = [path.basename(__filename), 6 * 7].join(":");\n');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const caches = () => (existsSync(cacheDir) ? readdirSync(cacheDir).filter((f) => f.endsWith('.bin')) : []);

  it('runs the bundle, writes a cache at exit, and the next process accepts it', async () => {
    const first = await load(bundle, { PM_COMPILE_CACHE_DIR: cacheDir });
    expect(first).toMatchObject({ code: 0, status: 'absent', value: 'demo.cjs:42' });
    expect(caches()).toHaveLength(1);
    expect(statSync(cacheDir).mode & 0o777).toBe(0o700);
    const second = await load(bundle, { PM_COMPILE_CACHE_DIR: cacheDir });
    expect(second).toMatchObject({ code: 0, status: 'accepted', value: 'demo.cjs:42' });
    expect(caches()).toHaveLength(1);
  });

  it('survives a corrupt cache: rejected, the bundle still runs, and the cache is rewritten', async () => {
    await load(bundle, { PM_COMPILE_CACHE_DIR: cacheDir });
    const [file] = caches();
    writeFileSync(join(cacheDir, file!), Buffer.from('not a V8 code cache at all'));
    const broken = await load(bundle, { PM_COMPILE_CACHE_DIR: cacheDir });
    expect(broken).toMatchObject({ code: 0, status: 'rejected', value: 'demo.cjs:42' });
    expect(readFileSync(join(cacheDir, file!)).toString()).not.toBe('not a V8 code cache at all');
    expect(await load(bundle, { PM_COMPILE_CACHE_DIR: cacheDir })).toMatchObject({ status: 'accepted' });
  });

  it('replaces the cache of an earlier build of the same bundle', async () => {
    await load(bundle, { PM_COMPILE_CACHE_DIR: cacheDir });
    const [before] = caches();
    // A rebuild replaces the file by rename (new inode, size and mtime).
    writeFileSync(`${bundle}.tmp`, 'exports.value = "rebuilt";\n');
    renameSync(`${bundle}.tmp`, bundle);
    expect(await load(bundle, { PM_COMPILE_CACHE_DIR: cacheDir })).toMatchObject({ status: 'absent', value: 'rebuilt' });
    const after = caches();
    expect(after).toHaveLength(1);
    expect(after[0]).not.toBe(before);
  });

  it('decodes a bundle that is not ASCII as UTF-8', async () => {
    writeFileSync(bundle, 'exports.value = "pm \u2713 caf\u00e9";\n');
    expect(await load(bundle, { PM_COMPILE_CACHE_DIR: cacheDir })).toMatchObject({ code: 0, value: 'pm \u2713 caf\u00e9' });
  });

  it.each(['0', 'false', 'off'])('PM_COMPILE_CACHE=%s turns the cache off', async (off) => {
    const run = await load(bundle, { PM_COMPILE_CACHE_DIR: cacheDir, PM_COMPILE_CACHE: off });
    expect(run).toMatchObject({ code: 0, status: 'off', value: 'demo.cjs:42' });
    expect(existsSync(cacheDir)).toBe(false);
  });

  it('without PM_COMPILE_CACHE_DIR, caches under XDG_CACHE_HOME, else under HOME', async () => {
    const xdg = join(dir, 'xdg');
    expect(await load(bundle, { XDG_CACHE_HOME: xdg })).toMatchObject({ code: 0, status: 'absent' });
    expect(readdirSync(join(xdg, 'pm', 'compile-cache')).filter((f) => f.endsWith('.bin'))).toHaveLength(1);
    const home = join(dir, 'home');
    mkdirSync(home);
    expect(await load(bundle, { XDG_CACHE_HOME: '', HOME: home, USERPROFILE: home })).toMatchObject({ code: 0, status: 'absent' });
    expect(readdirSync(join(home, '.cache', 'pm', 'compile-cache')).filter((f) => f.endsWith('.bin'))).toHaveLength(1);
  });

  it('an unwritable cache directory costs nothing but the cache', async () => {
    writeFileSync(join(dir, 'a-file'), '');
    const run = await load(bundle, { PM_COMPILE_CACHE_DIR: join(dir, 'a-file', 'cache') });
    expect(run).toMatchObject({ code: 0, status: 'absent', value: 'demo.cjs:42', stderr: '' });
  });

  it('reports a missing bundle as undefined (the bins then run the unbundled sources)', async () => {
    expect(await load(join(dir, 'missing.cjs'), { PM_COMPILE_CACHE_DIR: cacheDir })).toMatchObject({ code: 0, value: 'no bundle' });
  });

  it('import() in a bundle loads builtins, relative modules and packages (import condition), and says nothing about it', async () => {
    const importing = writeImportingBundle(dir);
    // Where a cached script loses its import() loader (Node 20), such a bundle is never run from a cache.
    const statuses = loader.cacheKeepsDynamicImport(process.versions.node) ? ['absent', 'accepted'] : ['skipped', 'skipped'];
    for (const expected of statuses) {
      const run = await load(importing, { PM_COMPILE_CACHE_DIR: cacheDir });
      expect(run).toMatchObject({ code: 0, status: expected, value: 'importing.cjs:42:esm' });
      // The bundle's own warning is still printed; the loader's experimental-API notice is not.
      expect(run.stderr).toContain('a warning of the bundle itself');
      expect(run.stderr).not.toMatch(/USE_MAIN_CONTEXT_DEFAULT_LOADER|experimental/i);
    }
    expect(caches()).toHaveLength(statuses[0] === 'skipped' ? 0 : 1);
    expect(await load(importing, { PM_COMPILE_CACHE: 'off' })).toMatchObject({ code: 0, status: 'off', value: 'importing.cjs:42:esm' });
  });

  it('takes the build’s word for a bundle marked free of import() (no search at start)', async () => {
    // "import(" in a string: searched, it counts (Node 20 then skips the cache); marked, it does not.
    writeFileSync(bundle, 'exports.value = "no import( here";\n');
    const searched = loader.cacheKeepsDynamicImport(process.versions.node) ? 'absent' : 'skipped';
    expect(await load(bundle, { PM_COMPILE_CACHE_DIR: cacheDir })).toMatchObject({ code: 0, status: searched, value: 'no import( here' });
    writeFileSync(bundle, `${loader.NO_IMPORT_MARK}exports.value = "no import( here";\n`);
    expect(await load(bundle, { PM_COMPILE_CACHE_DIR: cacheDir })).toMatchObject({ code: 0, status: 'absent', value: 'no import( here' });
    expect(await load(bundle, { PM_COMPILE_CACHE_DIR: cacheDir })).toMatchObject({ code: 0, status: 'accepted', value: 'no import( here' });
  });

  it('a bundle that calls import() from a code cache fails where V8 drops the loader (which is why such a bundle skips the cache there)', () => {
    const keeps = loader.cacheKeepsDynamicImport(process.versions.node);
    expect(importFromCachedData(process.execPath, writeImportingBundle(dir))).toBe(keeps ? 'rejected:false ok importing.cjs:42:esm' : 'rejected:false failed ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING');
  });

  // Both starts set the bin's heap flags (pm's `--version` after them; pm-mcp finds no tracker at PM_ROOT, exit 3).
  it.each([
    ['pm.cjs', ['--version'], 0],
    ['pm-mcp.cjs', [], 3],
  ])('bin/%s keeps its code cache from one start to the next (V8 rejects a cache written under other heap flags than the start compiles under)', (bin, args, code) => {
    const env = { ...process.env, PM_COMPILE_CACHE: '', PM_COMPILE_CACHE_DIR: cacheDir, PM_ROOT: dir };
    const run = () => spawnSync(process.execPath, [fileURLToPath(new URL(`../../bin/${bin}`, import.meta.url)), ...args], { env, input: '', encoding: 'utf8' });
    expect(run().status).toBe(code);
    const [file] = caches();
    const written = statSync(join(cacheDir, file!));
    expect(run().status).toBe(code);
    expect(caches()).toEqual([file]);
    const after = statSync(join(cacheDir, file!));
    expect([after.ino, after.mtimeMs]).toEqual([written.ino, written.mtimeMs]);
  });

  it('the built pm-mcp bundle is ASCII (decoded as latin1), holds neither express nor jose, and is marked free of import()', () => {
    const bytes = readFileSync(PM_MCP_BUNDLE);
    expect(bytes.every((b) => b < 0x80)).toBe(true);
    const text = bytes.toString('latin1');
    expect(text).not.toMatch(/require\("express"\)|express\/lib\/|createLocalJWKSet|jwtVerify/);
    expect(text.startsWith(loader.NO_IMPORT_MARK)).toBe(true);
    expect(text).not.toContain('import(');
  });
});

describe('bundle loader with Node’s own compile cache (PM_COMPILE_CACHE=node), node:module stood in for', () => {
  let dir: string;
  let cacheDir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pm-bundle-loader-node-'));
    cacheDir = join(dir, 'cache');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('makes a private cache directory, hands it to enableCompileCache and requires the bundle (no vm.Script cache)', async () => {
    const bundle = join(dir, 'plain.cjs');
    writeFileSync(bundle, 'exports.value = [require("node:path").basename(__filename), module.constructor.name].join(":");\n');
    const run = await load(bundle, { PM_COMPILE_CACHE: 'node', PM_COMPILE_CACHE_DIR: cacheDir }, { fakeNode22: true });
    // module.constructor is node's Module only under a real require() (the vm.Script path hands the bundle a plain object).
    expect(run).toMatchObject({ code: 0, status: 'node', value: 'plain.cjs:Module', enabled: [cacheDir], stderr: '' });
    expect(statSync(cacheDir).mode & 0o777).toBe(0o700);
    expect(readdirSync(cacheDir)).toEqual([]);
  });

  it('import() works in a required bundle', async () => {
    const run = await load(writeImportingBundle(dir), { PM_COMPILE_CACHE: 'node', PM_COMPILE_CACHE_DIR: cacheDir }, { fakeNode22: true });
    expect(run).toMatchObject({ code: 0, status: 'node', value: 'importing.cjs:42:esm' });
  });

  it('never hands Node a directory others can write to, and still runs the bundle', async () => {
    if (typeof process.getuid !== 'function') return;
    const bundle = join(dir, 'plain.cjs');
    writeFileSync(bundle, 'exports.value = "ran";\n');
    mkdirSync(cacheDir);
    chmodSync(cacheDir, 0o777);
    const run = await load(bundle, { PM_COMPILE_CACHE: 'node', PM_COMPILE_CACHE_DIR: cacheDir }, { fakeNode22: true });
    expect(run).toMatchObject({ code: 0, status: 'unavailable', value: 'ran', enabled: [] });
  });

  it('a cache directory that cannot be made costs nothing but the cache', async () => {
    const bundle = join(dir, 'plain.cjs');
    writeFileSync(bundle, 'exports.value = "ran";\n');
    writeFileSync(join(dir, 'a-file'), '');
    const run = await load(bundle, { PM_COMPILE_CACHE: 'node', PM_COMPILE_CACHE_DIR: join(dir, 'a-file', 'cache') }, { fakeNode22: true });
    expect(run).toMatchObject({ code: 0, status: 'unavailable', value: 'ran', enabled: [], stderr: '' });
  });

  it('reports a missing bundle as undefined', async () => {
    expect(await load(join(dir, 'missing.cjs'), { PM_COMPILE_CACHE: 'node', PM_COMPILE_CACHE_DIR: cacheDir }, { fakeNode22: true })).toMatchObject({ code: 0, value: 'no bundle' });
  });

  it('a failure inside the bundle is the bundle’s, not a missing bundle', async () => {
    const bundle = join(dir, 'broken.cjs');
    writeFileSync(bundle, 'require("./not-there.cjs");\n');
    const run = await load(bundle, { PM_COMPILE_CACHE: 'node', PM_COMPILE_CACHE_DIR: cacheDir }, { fakeNode22: true });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/Cannot find module '\.\/not-there\.cjs'/);
  });
});

// The same loader under a real Node 22 (the test run provisions it into .tools/:
// scripts/provision.mjs, PM_TEST_NODE22), whatever Node runs the suite.
const NODE22 = toolNode(22);
describe('bundle loader under a real Node 22 (.tools)', () => {
  let dir: string;
  let cacheDir: string;
  let bundle: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pm-bundle-loader-22-'));
    cacheDir = join(dir, 'cache');
    bundle = join(dir, 'demo.cjs');
    writeFileSync(bundle, 'exports.value = [require("node:path").basename(__filename), 6 * 7].join(":");\n');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('by default uses the vm.Script cache there too, import() included', async () => {
    const importing = writeImportingBundle(dir);
    for (const expected of ['absent', 'accepted']) {
      const run = await load(importing, { PM_COMPILE_CACHE_DIR: cacheDir }, { node: NODE22! });
      expect(run).toMatchObject({ code: 0, status: expected, value: 'importing.cjs:42:esm' });
      expect(run.stderr).not.toMatch(/USE_MAIN_CONTEXT_DEFAULT_LOADER|experimental/i);
    }
  });

  it('keeps import() in a script run from cached data', () => {
    expect(importFromCachedData(NODE22!, writeImportingBundle(dir))).toBe('rejected:false ok importing.cjs:42:esm');
  });

  it('PM_COMPILE_CACHE=node: Node writes its cache into pm’s directory and the next process accepts it', async () => {
    const env = { PM_COMPILE_CACHE: 'node', PM_COMPILE_CACHE_DIR: cacheDir, NODE_DEBUG_NATIVE: 'COMPILE_CACHE' };
    const first = await load(bundle, env, { node: NODE22! });
    expect(first).toMatchObject({ code: 0, status: 'node', value: 'demo.cjs:42' });
    expect(statSync(cacheDir).mode & 0o777).toBe(0o700);
    // Node keeps a subdirectory per Node version, one entry per file; none of the loader's own .bin files.
    const [versionDir, ...others] = readdirSync(cacheDir);
    expect(others).toEqual([]);
    expect(readdirSync(join(cacheDir, versionDir!)).length).toBeGreaterThan(0);
    const second = await load(bundle, env, { node: NODE22! });
    expect(second).toMatchObject({ code: 0, status: 'node', value: 'demo.cjs:42' });
    expect(second.stderr).toMatch(/compile cache\].*demo\.cjs.*accepted|compile cache\].*accepted.*demo\.cjs/);
  });

  it('PM_COMPILE_CACHE=node: import() works', async () => {
    const run = await load(writeImportingBundle(dir), { PM_COMPILE_CACHE: 'node', PM_COMPILE_CACHE_DIR: cacheDir }, { node: NODE22! });
    expect(run).toMatchObject({ code: 0, status: 'node', value: 'importing.cjs:42:esm', stderr: expect.stringContaining('a warning of the bundle itself') });
  });

  it('PM_COMPILE_CACHE=off turns the cache off there too', async () => {
    expect(await load(bundle, { PM_COMPILE_CACHE: 'off', PM_COMPILE_CACHE_DIR: cacheDir }, { node: NODE22! })).toMatchObject({ code: 0, status: 'off', value: 'demo.cjs:42' });
    expect(existsSync(cacheDir)).toBe(false);
  });
});
