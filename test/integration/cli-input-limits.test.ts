import { jest } from '@jest/globals';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runToEnd, type Run } from '../support/child-processes.js';
import { useTempDir } from '../support/temp-dir.js';

// The real `pm` process over dist/: what it refuses to write, and how it reports an item file
// too deeply nested to parse (docs/TRACKER.md "Field limits", docs/CLI.md "Exit codes").
jest.setTimeout(90_000);

const BIN = fileURLToPath(new URL('../../bin/pm.cjs', import.meta.url));
const temp = useTempDir('pm-limits-');

function pm(cwd: string, args: string[]): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...process.env, PM_ACTOR: 'tester' };
  delete env.PM_ROOT;
  delete env.PM_DEBUG;
  return runToEnd(process.execPath, [BIN, ...args], { cwd, env, input: '' });
}

describe('pm refuses what it could not read back', () => {
  it('a 501-character title exits 2 and writes nothing; a title with ESC too', async () => {
    const dir = temp();
    expect((await pm(dir, ['init'])).code).toBe(0);
    const long = await pm(dir, ['create', 'x'.repeat(501)]);
    expect({ code: long.code, stderr: long.stderr }).toEqual({ code: 2, stderr: 'pm: title is 501 characters long; at most 500 are allowed\n' });
    const escape = await pm(dir, ['create', 'evil \u001b[31mred']);
    expect(escape.code).toBe(2);
    expect(escape.stderr).toMatch(/^pm: title holds the control character U\+001B at position 6;/);
    expect(JSON.parse((await pm(dir, ['list', '--all', '--json'])).stdout)).toMatchObject({ total: 0 });
  });

  it('front matter nested 3,000 levels deep: get exits 7, validate names the line', async () => {
    const dir = temp();
    expect((await pm(dir, ['init'])).code).toBe(0);
    const created = JSON.parse((await pm(dir, ['create', 'deep', '--json'])).stdout) as { item: { id: string } };
    const file = join(dir, '.agents/pm/items', `${created.item.id}.md`);
    const lines = Array.from({ length: 3000 }, (_, i) => `${' '.repeat(2 * (i + 1))}k:`);
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace('title: deep\n', `title: deep\ncustom:\n${lines.join('\n')} 1\n`));
    const get = await pm(dir, ['get', created.item.id]);
    expect(get.code).toBe(7);
    expect(get.stderr).toMatch(/:\d+:1: YAML error: nested more than 256 levels deep\n$/);
    const validate = await pm(dir, ['validate', '--json']);
    expect(validate.code).toBe(5);
    const report = JSON.parse(validate.stdout) as { findings: { code: string; line?: number }[] };
    expect(report.findings).toContainEqual(expect.objectContaining({ code: 'corrupt_item', line: expect.any(Number) }));
    const list = await pm(dir, ['list']);
    expect(list.code).toBe(0);
    expect(list.stderr).toContain('1 item could not be read and is left out');
  });
});
