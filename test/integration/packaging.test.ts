/**
 * What the published package carries and what installing or packing it prints: a LICENSE
 * matching package.json, a `prepare` script that does nothing (and says nothing) where the
 * build script is not shipped, a build that keeps stdout clean (so `npm pack --json` prints
 * JSON only), and package-lock.json's bin entries equal to package.json's.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { useTempDir } from '../support/temp-dir.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { license: string; bin: Record<string, string>; scripts: Record<string, string>; files: string[] };

function run(command: string, args: readonly string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(command, [...args], { cwd, env: { ...process.env, PM_COMPILE_CACHE: '0' } }, (error, stdout, stderr) => resolve({ code: error ? Number((error as { code?: unknown }).code ?? 1) : 0, stdout, stderr }));
  });
}

describe('the published package', () => {
  const temp = useTempDir('pm-packaging-');

  test('ships a LICENSE with the MIT text package.json names', () => {
    expect(pkg.license).toBe('MIT');
    const license = readFileSync(join(ROOT, 'LICENSE'), 'utf8');
    expect(license).toMatch(/^MIT License\n\nCopyright \(c\) \d{4}/);
    expect(license).toContain('THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND');
  });

  test('`prepare` is a silent no-op where scripts/build.mjs is not shipped (an installed tarball)', async () => {
    expect(pkg.files).not.toContain('scripts');
    const dir = temp();
    copyFileSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
    const prepared = await run('npm', ['run', '--silent', 'prepare'], dir);
    expect(prepared).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  test('the build writes its summary to stderr: stdout stays clean for `npm pack --json`', async () => {
    const built = await run(process.execPath, ['scripts/build.mjs'], ROOT);
    expect(built.code).toBe(0);
    expect(built.stdout).toBe('');
    expect(built.stderr).toMatch(/built \d+ files into dist\//);
  });

  test("package-lock.json's bin entries match package.json", () => {
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { bin?: Record<string, string>; license?: string }> };
    expect(lock.packages['']!.bin).toEqual(pkg.bin);
    expect(lock.packages['']!.license).toBe(pkg.license);
  });
});
