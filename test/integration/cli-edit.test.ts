import { jest } from '@jest/globals';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runToEnd, type Run } from '../support/child-processes.js';
import { useTempDir } from '../support/temp-dir.js';

// `pm edit` in real processes, with a fake editor: a node script named by $EDITOR / $VISUAL that
// rewrites the draft as FAKE_EDIT (JSON) says, or breaks it, or runs pm meanwhile.
jest.setTimeout(120_000);

const BIN = fileURLToPath(new URL('../../bin/pm.cjs', import.meta.url));

const FAKE_EDITOR = `
import { readFileSync, writeFileSync, appendFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
const draft = process.argv[2];
const plan = JSON.parse(process.env.FAKE_EDIT ?? '{}');
appendFileSync(process.env.FAKE_LOG, (plan.name ?? 'editor') + ' ' + draft + '\\n');
if (plan.meanwhile) execFileSync(process.execPath, [process.env.PM_BIN, ...plan.meanwhile], { stdio: 'ignore' });
let text = readFileSync(draft, 'utf8');
for (const [from, to] of plan.replace ?? []) {
  const next = text.replace(new RegExp(from, 'm'), to);
  if (next === text) { process.stderr.write('fake editor: no match for ' + from + '\\n'); process.exit(9); }
  text = next;
}
writeFileSync(draft, text);
process.exit(plan.exit ?? 0);
`;

describe('pm edit (real process, fake editor)', () => {
  const temp = useTempDir('pm-edit-');

  async function setUp() {
    const dir = temp();
    const editor = join(dir, 'fake-editor.mjs');
    const log = join(dir, 'editor.log');
    await writeFile(editor, FAKE_EDITOR);
    await writeFile(log, '');
    const pm = (args: string[], plan: object = {}, env: NodeJS.ProcessEnv = {}, input?: string): Promise<Run> => {
      const base: NodeJS.ProcessEnv = { ...process.env, PM_ACTOR: 'editor-user', EDITOR: `'${process.execPath}' '${editor}'`, FAKE_EDIT: JSON.stringify(plan), FAKE_LOG: log, PM_BIN: BIN, TMPDIR: dir };
      for (const key of ['PM_ROOT', 'PM_DEBUG', 'VISUAL']) delete base[key];
      for (const [key, value] of Object.entries(env)) if (value === undefined) delete base[key];
      return runToEnd(process.execPath, [BIN, ...args], { cwd: dir, env: { ...base, ...env }, ...(input !== undefined ? { input } : {}) });
    };
    const json = async <T = any>(args: string[]): Promise<T> => { // eslint-disable-line @typescript-eslint/no-explicit-any
      const run = await pm([...args, '--json']);
      if (run.code !== 0) throw new Error(`pm ${args.join(' ')} exited ${run.code}: ${run.stderr}`);
      return JSON.parse(run.stdout) as T;
    };
    expect((await pm(['init'])).code).toBe(0);
    const item = (await json<{ item: { id: string } }>(['create', 'Original title', '--tag', 'old', '--ac', 'first', '--body', 'Old body'])).item;
    const history = async () => (await json<{ op: string; actor: string }[]>(['history', item.id]));
    const drafts = async () => (await readFile(log, 'utf8')).split('\n').filter(Boolean).map((l) => l.slice(l.indexOf(' ') + 1));
    return { dir, pm, json, id: item.id, history, drafts };
  }

  it('applies what the editor changed as one update (history line, index), and removes the draft', async () => {
    const s = await setUp();
    const edited = await s.pm(['edit', s.id], { replace: [['^title: .*$', 'title: Edited title'], ['^  - old$', '  - new'], ['done: false', 'done: true'], ['Old body', 'New body']] });
    expect(edited).toMatchObject({ code: 0, stderr: '' });
    expect(edited.stdout).toMatch(new RegExp(`^Edited ${s.id} "Edited title" \\(revision 2\\)`));
    const item = await s.json(['get', s.id]);
    expect(item).toMatchObject({ title: 'Edited title', tags: ['new'], acceptance: [{ text: 'first', done: true }], body: 'New body', revision: 2 });
    expect((await s.history()).map((e) => [e.op, e.actor])).toEqual([['create', 'editor-user'], ['update', 'editor-user']]);
    expect((await s.json<{ items: { id: string }[] }>(['list', '--tag', 'new'])).items.map((i) => i.id)).toEqual([s.id]);
    const [draft] = await s.drafts();
    expect(existsSync(draft!)).toBe(false);
  });

  it('prefers $VISUAL to $EDITOR, and says so when nothing changed (nothing written, draft removed)', async () => {
    const s = await setUp();
    const run = await s.pm(['edit', s.id], { name: 'visual' }, { EDITOR: 'false' , VISUAL: `'${process.execPath}' '${join(s.dir, 'fake-editor.mjs')}'` });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`No changes: ${s.id} "Original title" left as it was (revision 1).\n`);
    expect((await readFile(join(s.dir, 'editor.log'), 'utf8'))).toMatch(/^visual /);
    expect(await s.history()).toHaveLength(1);
    expect(existsSync((await s.drafts())[0]!)).toBe(false);
  });

  it('a draft that does not parse: line and column, item untouched, draft kept; --resume applies the fixed draft', async () => {
    const s = await setUp();
    const broken = await s.pm(['edit', s.id], { replace: [['^title: .*$', 'title: [unclosed']] });
    expect(broken.code).toBe(2);
    const [draft] = await s.drafts();
    expect(broken.stderr).toContain(`pm: your draft is kept in ${draft}; retry with: pm edit ${s.id} --resume ${draft}`);
    expect(broken.stderr).toMatch(new RegExp(`pm: the draft does not parse: ${draft!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+:\\d+: YAML error`));
    expect(existsSync(draft!)).toBe(true);
    expect((await s.json(['get', s.id])).title).toBe('Original title');
    expect(await s.history()).toHaveLength(1);
    const resumed = await s.pm(['edit', s.id, '--resume', draft!], { replace: [['^title: \\[unclosed$', 'title: Fixed title']] });
    expect(resumed.code).toBe(0);
    expect((await s.json(['get', s.id])).title).toBe('Fixed title');
    expect(existsSync(draft!)).toBe(false);
  });

  it('refuses a hand change to fields pm or other commands own, naming each and the command to use', async () => {
    const s = await setUp();
    const run = await s.pm(['edit', s.id], { replace: [['^revision: 1$', 'revision: 7'], ['^title: .*$', 'title: T\nblockedBy:\n  - pm-zzzzzz']] });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('pm: pm edit cannot change revision (pm records it); blockedBy (use pm deps add/remove --blocked-by)');
    expect((await s.json(['get', s.id])).revision).toBe(1);
    expect(existsSync((await s.drafts())[0]!)).toBe(true);
  });

  it('refuses when the item changed while the editor was open (exit 4), keeping the draft and the other change', async () => {
    const s = await setUp();
    const run = await s.pm(['edit', s.id], { meanwhile: ['update', s.id, '--priority', '0'], replace: [['^title: .*$', 'title: Mine']] });
    expect(run.code).toBe(4);
    expect(run.stderr).toMatch(/revision/);
    expect(await s.json(['get', s.id])).toMatchObject({ title: 'Original title', priority: 0, revision: 2 });
    const [draft] = await s.drafts();
    expect(existsSync(draft!)).toBe(true);
    // Resuming that draft is refused too: it was made from revision 1.
    const resumed = await s.pm(['edit', s.id, '--resume', draft!]);
    expect(resumed.code).toBe(4);
    expect(resumed.stderr).toContain(`${s.id} changed since this draft was made (revision 1, now 2)`);
  });

  it('an editor that fails changes nothing (exit 1) and keeps the draft', async () => {
    const s = await setUp();
    const run = await s.pm(['edit', s.id], { replace: [['^title: .*$', 'title: Lost']], exit: 3 });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('the editor exited with status 3; nothing was changed');
    expect((await s.json(['get', s.id])).title).toBe('Original title');
    expect(existsSync((await s.drafts())[0]!)).toBe(true);
  });

  it('an unknown item is exit 3 and opens no editor', async () => {
    const s = await setUp();
    const run = await s.pm(['edit', 'pm-zzzzzz']);
    expect(run.code).toBe(3);
    expect(await s.drafts()).toEqual([]);
  });

  it('without $VISUAL, $EDITOR and a terminal, refuses (exit 2) saying what to do instead, and starts no vi', async () => {
    const s = await setUp();
    const run = await s.pm(['edit', s.id], {}, { EDITOR: undefined });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe("pm: pm edit needs an editor: $VISUAL and $EDITOR are unset and there is no terminal to run vi on. Pass --editor CMD, or give the edited item file with --from-file FILE ('-' for stdin), or change fields with pm update (see 'pm edit --help')\n");
    expect(run.stdout).toBe('');
    expect(await s.drafts()).toEqual([]);
  });

  it('--editor CMD runs that editor, over $VISUAL and $EDITOR', async () => {
    const s = await setUp();
    const editor = `'${process.execPath}' '${join(s.dir, 'fake-editor.mjs')}'`;
    const run = await s.pm(['edit', s.id, '--editor', editor], { name: 'flag', replace: [['^title: .*$', 'title: By flag']] }, { EDITOR: 'false', VISUAL: 'false' });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^Edited ${s.id} "By flag" \\(revision 2\\)`));
    expect(await readFile(join(s.dir, 'editor.log'), 'utf8')).toMatch(/^flag /);
    const empty = await s.pm(['edit', s.id, '--editor', ' ']);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toBe("pm: --editor: the value is empty (expected CMD) (see 'pm edit --help')\n");
  });

  it('--from-file FILE and --from-file - apply an edited item file without an editor, with the same checks', async () => {
    const s = await setUp();
    const file = join(s.dir, '.agents', 'pm', 'items', `${s.id}.md`);
    const text = await readFile(file, 'utf8');
    const edited = join(s.dir, 'edited.md');
    await writeFile(edited, text.replace(/^title: .*$/m, 'title: From a file'));
    const run = await s.pm(['edit', s.id, '--from-file', edited], {}, { EDITOR: undefined });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^Edited ${s.id} "From a file" \\(revision 2\\)`));
    expect(await s.drafts()).toEqual([]);
    // From stdin, made from the current revision.
    const current = await readFile(file, 'utf8');
    const piped = await s.pm(['edit', s.id, '--from-file', '-'], {}, { EDITOR: undefined }, current.replace(/^priority: .*$/m, 'priority: 0'));
    expect(piped.code).toBe(0);
    expect(await s.json(['get', s.id])).toMatchObject({ title: 'From a file', priority: 0, revision: 3 });
    // The same text again was made from revision 1: refused (exit 4), nothing written.
    const stale = await s.pm(['edit', s.id, '--from-file', edited]);
    expect(stale.code).toBe(4);
    expect(stale.stderr).toContain(`${s.id} changed since this file was made (revision 1, now 3): start again from the current item file`);
    // A field another command owns, a file that does not parse, a missing file: exit 2.
    const owned = await s.pm(['edit', s.id, '--from-file', '-'], {}, {}, (await readFile(file, 'utf8')).replace(/^title: .*$/m, 'title: T\nblockedBy:\n  - pm-zzzzzz'));
    expect(owned.code).toBe(2);
    expect(owned.stderr).toContain('pm edit cannot change blockedBy');
    const broken = await s.pm(['edit', s.id, '--from-file', '-'], {}, {}, '---\ntitle: [\n---\n');
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain('the file does not parse');
    const missing = await s.pm(['edit', s.id, '--from-file', 'nope.md']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--from-file: cannot read nope.md: no such file');
    expect((await s.pm(['edit', s.id, '--from-file', edited, '--resume', edited])).stderr).toContain('give --from-file, or --editor / --resume, not both');
    expect((await s.json(['get', s.id])).revision).toBe(3);
  });
});
