/**
 * Tests write nothing outside temp dirs: a `pm` spawned the ordinary way (inheriting the test
 * process's environment, no override) keeps its V8 code cache (bin/bundle-loader.cjs) in the
 * run's temp dir that test/support/global-setup.js made, and leaves the real ~/.cache/pm alone.
 */
import { readdirSync, rmSync, statSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ChildProcesses } from '../support/child-processes.js';

const PM_BIN = fileURLToPath(new URL('../../bin/pm.cjs', import.meta.url));
/** The code cache of the `pm` bundle: `pm-<path hash>-<node version>-<arch>-<size>-<mtime>-<ino>.bin` (not pm-mcp's). */
const PM_CACHE_FILE = new RegExp(`^pm-[0-9a-z]+-${process.version.replace(/\./g, '\\.')}-${process.arch}-\\d+-\\d+-\\d+\\.bin$`);

const inside = (dir: string, parent: string) => {
  const path = relative(resolve(parent), resolve(dir));
  return path !== '' && !path.startsWith('..') && !path.startsWith(sep);
};

/** Entries of `dir` whose name matches, with their mtimes (none when the directory does not exist). */
function cacheFiles(dir: string, match: (name: string) => boolean): Map<string, number> {
  const out = new Map<string, number>();
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of names) if (match(name)) out.set(name, statSync(join(dir, name)).mtimeMs);
  return out;
}

describe('the test run writes its code caches under a temp dir', () => {
  const children = new ChildProcesses();
  afterAll(() => children.killAll());

  test('the run has its own cache dirs, under the OS temp dir and not under the home directory', () => {
    const runDir = process.env.PM_TEST_RUN_DIR!;
    expect(runDir).toBeDefined();
    expect(inside(runDir, tmpdir())).toBe(true);
    expect(inside(runDir, homedir())).toBe(false);
    expect(process.env.PM_COMPILE_CACHE_DIR).toBe(join(runDir, 'compile-cache'));
    expect(process.env.XDG_CACHE_HOME).toBe(join(runDir, 'xdg-cache'));
  });

  test('a spawned pm writes its code cache there, and nothing under ~/.cache/pm', async () => {
    const cacheDir = process.env.PM_COMPILE_CACHE_DIR!;
    const homeCache = join(homedir(), '.cache', 'pm', 'compile-cache');
    // Without a cache of the pm bundle, the next start must write one (at its exit).
    for (const name of cacheFiles(cacheDir, (n) => PM_CACHE_FILE.test(n)).keys()) rmSync(join(cacheDir, name), { force: true });
    // Every entry, whatever its runtime (Bun's caches are named bun<version>): compared below by path hash.
    const homeBefore = cacheFiles(homeCache, () => true);
    const started = Date.now();

    const child = children.startNode(PM_BIN, ['--version']);
    expect(await child.exited).toEqual({ code: 0, signal: null });
    expect(child.lines[0]).toMatch(/^\d+\.\d+\.\d+/);

    const written = [...cacheFiles(cacheDir, (n) => PM_CACHE_FILE.test(n))];
    expect(written).toHaveLength(1);
    const [name, mtimeMs] = written[0]!;
    expect(mtimeMs).toBeGreaterThanOrEqual(started - 1000);
    // The home cache holds nothing new for this bundle (same path hash: this checkout's pm).
    const prefix = name.slice(0, name.indexOf(`-${process.version}-`));
    const homeAfter = [...cacheFiles(homeCache, (n) => n.startsWith(prefix))].filter(([n, mtime]) => homeBefore.get(n) !== mtime);
    expect(homeAfter).toEqual([]);
  });
});
