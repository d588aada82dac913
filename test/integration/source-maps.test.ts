import { jest } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { useTempDir } from '../support/temp-dir.js';

// PM_DEBUG=1 stack traces of real processes name src/*.ts lines (scripts/build.mjs writes the
// maps, bin/bundle-loader.cjs turns them on), and the package ships the maps.
jest.setTimeout(90_000);

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PM = join(ROOT, 'bin', 'pm.cjs');
const CLI_MAIN = join(ROOT, 'dist', 'composition', 'cli-main.js');

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

function run(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<Run> {
  const base: NodeJS.ProcessEnv = { ...process.env, PM_ACTOR: 'tester', PM_COMPILE_CACHE: '0' };
  for (const key of ['PM_ROOT', 'PM_DEBUG', 'NODE_OPTIONS']) delete base[key];
  return new Promise((resolve) => {
    execFile(args[0]!, args.slice(1), { cwd, env: { ...base, ...env }, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: unknown }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/**
 * A tracker whose one item's history file is a directory: pm refuses to read it
 * (RefusedFileError, exit 7), and with PM_DEBUG=1 prints the refusal's stack.
 */
async function brokenTracker(dir: string): Promise<string> {
  expect((await run([process.execPath, PM, 'init'], dir)).code).toBe(0);
  const created = await run([process.execPath, PM, 'create', '--title', 'x', '--json'], dir);
  expect(created.code).toBe(0);
  const id = (JSON.parse(created.stdout) as { item: { id: string } }).item.id;
  const history = join(dir, '.agents', 'pm', 'history', `${id}.jsonl`);
  rmSync(history);
  mkdirSync(history);
  return id;
}

/** `file:line:column` frames of a stack that name a src/*.ts file. */
function sourceFrames(stack: string): { file: string; line: number }[] {
  return [...stack.matchAll(/\((\/[^()]*?\/src\/[^():]+\.ts):(\d+):\d+\)/g)].map((m) => ({ file: m[1]!, line: Number(m[2]) }));
}

describe('PM_DEBUG=1 stack traces', () => {
  const temp = useTempDir('pm-source-maps-');

  test('the bundled CLI names src/*.ts lines, each the line that made the call', async () => {
    const dir = temp();
    const id = await brokenTracker(dir);
    const failed = await run([process.execPath, PM, 'history', id], dir, { PM_DEBUG: '1' });
    expect(failed.code).toBe(7);
    expect(failed.stderr).toMatch(/is a directory, not a regular file/);
    expect(failed.stderr).not.toMatch(/pm\.cjs:\d+:\d+/);
    const frames = sourceFrames(failed.stderr);
    expect(frames.map((f) => f.file.slice(f.file.lastIndexOf('/src/') + 1))).toEqual(expect.arrayContaining(['src/domain/tracker/file-caps.ts', 'src/domain/tracker/history-log.ts', 'src/composition/cli-main.ts']));
    // Each frame's line is a real line of that source; the deepest one throws the refusal.
    for (const frame of frames) expect(readFileSync(frame.file, 'utf8').split('\n').length).toBeGreaterThanOrEqual(frame.line);
    const deepest = frames[0]!;
    expect(deepest.file).toMatch(/src\/domain\/tracker\/file-caps\.ts$/);
    expect(readFileSync(deepest.file, 'utf8').split('\n')[deepest.line - 1]).toMatch(/throw new RefusedFileError/);
    const main = frames.find((f) => f.file.endsWith('src/composition/cli-main.ts'))!;
    expect(readFileSync(main.file, 'utf8').split('\n')[main.line - 1]).toContain('runCli(');
  });

  test('without PM_DEBUG the same failure prints one line and no stack', async () => {
    const dir = temp();
    const id = await brokenTracker(dir);
    const failed = await run([process.execPath, PM, 'history', id], dir);
    expect(failed.code).toBe(7);
    expect(failed.stderr).toMatch(/^pm: [^\n]*is a directory, not a regular file[^\n]*\n$/);
  });

  test('the unbundled modules in dist/ carry maps too (the fallback when there is no bundle)', async () => {
    const dir = temp();
    const id = await brokenTracker(dir);
    const script = `process.setSourceMapsEnabled(true); const { main } = await import(${JSON.stringify(CLI_MAIN)}); process.exitCode = await main(${JSON.stringify(['history', id])});`;
    const failed = await run([process.execPath, '--input-type=module', '-e', script], dir, { PM_DEBUG: '1' });
    expect(failed.code).toBe(7);
    expect(failed.stderr).not.toMatch(/dist\/[^\s:]+\.js:\d+/);
    expect(sourceFrames(failed.stderr).map((f) => f.file)).toEqual(expect.arrayContaining([expect.stringMatching(/src\/composition\/cli-main\.ts$/)]));
  });
});

describe('the maps in the package', () => {
  test('`npm pack` ships every bundle and module map, and each map names sources under src/ without their text', async () => {
    const packed = await run(['npm', 'pack', '--dry-run', '--json', '--ignore-scripts'], ROOT);
    expect(packed.code).toBe(0);
    const files = new Set((JSON.parse(packed.stdout) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path));
    for (const bundle of ['pm.cjs', 'pm-mcp.cjs']) expect(files).toContain(`dist/bundle/${bundle}.map`);
    const modules = readdirSync(join(ROOT, 'dist', 'composition')).filter((f) => f.endsWith('.js'));
    for (const module of modules) expect(files).toContain(`dist/composition/${module}.map`);
    const map = JSON.parse(readFileSync(join(ROOT, 'dist', 'bundle', 'pm.cjs.map'), 'utf8')) as { sources: string[]; sourcesContent?: unknown };
    expect(map.sourcesContent).toBeUndefined();
    expect(map.sources).toContain('../../src/composition/cli-main.ts');
    expect(readFileSync(join(ROOT, 'dist', 'bundle', 'pm.cjs'), 'latin1')).toMatch(/\n\/\/# sourceMappingURL=pm\.cjs\.map\n?$/);
  });
});
