import { MemoryFileSystem } from '../../../../src/adapters/memory/memory-file-system.js';
import { formatPmSkillDiagnostic } from '../../../../src/domain/skills/index.js';
import type { FileSystem, RawFileRead, RawReadExpectation } from '../../../../src/ports/file-system.js';
import { load, names, newFs, PACKAGE_DIR, REPO, rules, skillMd, WORKSPACE_DIR, writeSkill } from '../../../support/skill-fixtures.js';

const encode = (text: string) => new TextEncoder().encode(text);

describe('PmMcpSkillRegistry rejections', () => {
  describe('symbolic links, at any depth', () => {
    it.each([
      ['the skill directory itself', (fs: MemoryFileSystem) => fs.symlink('/elsewhere/evil', `${WORKSPACE_DIR}/evil`), ''],
      ['SKILL.md', (fs: MemoryFileSystem) => fs.symlink('/etc/passwd', `${WORKSPACE_DIR}/evil/SKILL.md`), 'SKILL.md'],
      ['a file in the skill root', (fs: MemoryFileSystem) => fs.symlink('/etc/passwd', `${WORKSPACE_DIR}/evil/notes.md`), 'notes.md'],
      ['a subdirectory', (fs: MemoryFileSystem) => fs.symlink('/etc', `${WORKSPACE_DIR}/evil/refs`), 'refs'],
      ['a file three levels down', (fs: MemoryFileSystem) => fs.symlink('/etc/passwd', `${WORKSPACE_DIR}/evil/a/b/c/x.md`), 'a/b/c/x.md'],
      ['a dangling link', (fs: MemoryFileSystem) => fs.symlink('/nowhere', `${WORKSPACE_DIR}/evil/gone.md`), 'gone.md'],
      ['a relative link that stays inside the skill', (fs: MemoryFileSystem) => fs.symlink('SKILL.md', `${WORKSPACE_DIR}/evil/alias.md`), 'alias.md'],
    ])('rejects a link as %s and reads none of that skill', async (_label, plant, path) => {
      const fs = newFs();
      fs.writeBytes('/elsewhere/evil/SKILL.md', encode(skillMd('evil')));
      if (path !== '') writeSkill(fs, WORKSPACE_DIR, 'evil', { 'a/b/c/keep.md': 'k' });
      plant(fs);
      writeSkill(fs, WORKSPACE_DIR, 'good');
      const registry = await load(fs, { packageSkillsDir: undefined });
      expect(names(registry)).toEqual(['good']);
      expect(registry.diagnostics).toEqual([expect.objectContaining({ origin: 'workspace', name: 'evil', rule: 'symlink', path })]);
      expect(fs.bodyReads).toBe(1);
    });

    it.each([
      ['.agents', () => ['/elsewhere/agents', `${REPO}/.agents`], '.agents'],
      ['.agents/skills', () => ['/elsewhere/skills', `${REPO}/.agents/skills`], '.agents/skills'],
    ])('refuses the whole workspace when %s is a link', async (_label, link, path) => {
      const fs = newFs();
      writeSkill(fs, '/elsewhere/agents/skills', 'evil');
      writeSkill(fs, '/elsewhere/skills', 'evil');
      await fs.ensureDir(REPO);
      const [target, at] = link();
      fs.symlink(target!, at!);
      writeSkill(fs, PACKAGE_DIR, 'pm-core');
      const registry = await load(fs);
      expect(names(registry)).toEqual(['pm-core']);
      expect(registry.diagnostics).toEqual([expect.objectContaining({ origin: 'workspace', name: undefined, rule: 'symlink', path })]);
    });

    it('refuses a package skills directory that is a link', async () => {
      const fs = newFs();
      writeSkill(fs, '/elsewhere', 'pm-core');
      fs.symlink('/elsewhere', PACKAGE_DIR);
      const registry = await load(fs, { workspaceRoot: undefined });
      expect(rules(registry)).toEqual(['package:*:symlink']);
    });

    it('rejects special files (a FIFO or socket) in a skill', async () => {
      const fs = newFs();
      writeSkill(fs, WORKSPACE_DIR, 'odd');
      fs.makeSpecial(`${WORKSPACE_DIR}/odd/pipe`);
      const registry = await load(fs, { packageSkillsDir: undefined });
      expect(registry.diagnostics).toEqual([expect.objectContaining({ name: 'odd', rule: 'special-file', path: 'pipe' })]);
      expect(fs.bodyReads).toBe(0);
    });
  });

  describe('SKILL.md', () => {
    const cases: [string, string, string][] = [
      ['anchors', skillMd('bad', 'd', 'meta: &m {a: 1}\n'), 'front-matter-anchor'],
      ['aliases', skillMd('bad', 'd', 'meta: *m\n'), 'front-matter-alias'],
      ['duplicate keys', skillMd('bad', 'd', 'name: bad\n'), 'front-matter-duplicate-key'],
      ['malformed YAML', skillMd('bad', 'd', 'meta: [unclosed\n'), 'front-matter-malformed'],
      ['no front matter', '# bad\n', 'front-matter-missing'],
      ['a name that differs from the directory', skillMd('other'), 'name-mismatch'],
      ['a name that differs only by case or spaces', skillMd('Bad'), 'skill-name'],
      ['a missing name', '---\ndescription: d\n---\n', 'skill-name'],
      ['a missing description', '---\nname: bad\n---\n', 'description'],
      ['an empty description', skillMd('bad', '""'), 'description'],
      ['a description over 1024 characters', skillMd('bad', 'x'.repeat(1025)), 'description'],
      ['a compatibility over 500 characters', skillMd('bad', 'd', `compatibility: ${'c'.repeat(501)}\n`), 'compatibility'],
    ];

    it.each(cases)('rejects %s, reading SKILL.md only', async (_label, md, rule) => {
      const fs = newFs();
      writeSkill(fs, WORKSPACE_DIR, 'bad', { 'SKILL.md': md, 'refs/a.md': 'never read' });
      writeSkill(fs, WORKSPACE_DIR, 'good');
      const registry = await load(fs, { packageSkillsDir: undefined });
      expect(names(registry)).toEqual(['good']);
      expect(registry.diagnostics).toEqual([expect.objectContaining({ origin: 'workspace', name: 'bad', rule })]);
      expect(fs.bodyReads).toBe(2);
    });

    it('reports a name mismatch, naming both in the message', async () => {
      const fs = newFs();
      writeSkill(fs, WORKSPACE_DIR, 'dir-name', { 'SKILL.md': skillMd('front-name') });
      const [d] = (await load(fs, { packageSkillsDir: undefined })).diagnostics;
      expect(d).toMatchObject({ rule: 'name-mismatch' });
      expect(d).not.toHaveProperty('limit');
      expect(formatPmSkillDiagnostic(d!)).toBe('workspace skill "dir-name" rejected (name-mismatch) at SKILL.md: front matter name "front-name" differs from the directory name "dir-name"');
    });

    it('rejects a SKILL.md that is not UTF-8', async () => {
      const fs = newFs();
      writeSkill(fs, WORKSPACE_DIR, 'latin', { 'SKILL.md': new Uint8Array([...encode('---\nname: latin\ndescription: caf'), 0xe9, ...encode('\n---\n')]) });
      expect(rules(await load(fs, { packageSkillsDir: undefined }))).toEqual(['workspace:latin:skill-md-encoding']);
    });

    it('rejects a front matter block over the parser bound', async () => {
      const fs = newFs();
      writeSkill(fs, WORKSPACE_DIR, 'wordy', { 'SKILL.md': skillMd('wordy', 'd', `notes: ${'n'.repeat(70 * 1024)}\n`) });
      expect(rules(await load(fs, { packageSkillsDir: undefined }))).toEqual(['workspace:wordy:front-matter-too-large']);
    });

    it.each([
      ['a directory without SKILL.md', (fs: MemoryFileSystem) => fs.writeBytes(`${WORKSPACE_DIR}/empty/README.md`, encode('x')), 'empty', 'missing-skill-md'],
      ['a lowercase skill.md', (fs: MemoryFileSystem) => fs.writeBytes(`${WORKSPACE_DIR}/lower/skill.md`, encode(skillMd('lower'))), 'lower', 'missing-skill-md'],
      ['SKILL.md as a directory', (fs: MemoryFileSystem) => fs.writeBytes(`${WORKSPACE_DIR}/dir/SKILL.md/x`, encode('x')), 'dir', 'missing-skill-md'],
      ['an invalid directory name', (fs: MemoryFileSystem) => writeSkill(fs, WORKSPACE_DIR, 'Bad_Name'), 'Bad_Name', 'skill-name'],
    ])('rejects %s', async (_label, plant, name, rule) => {
      const fs = newFs();
      plant(fs);
      const registry = await load(fs, { packageSkillsDir: undefined });
      expect(registry.diagnostics).toEqual([expect.objectContaining({ name, rule })]);
    });
  });

  it('keeps serving every good skill whatever else is rejected', async () => {
    const fs = newFs();
    writeSkill(fs, WORKSPACE_DIR, 'alpha');
    writeSkill(fs, WORKSPACE_DIR, 'bad-yaml', { 'SKILL.md': skillMd('bad-yaml', 'd', 'a: [\n') });
    writeSkill(fs, WORKSPACE_DIR, 'beta', { 'refs/x.md': 'x' });
    fs.symlink('/etc', `${WORKSPACE_DIR}/linked`);
    writeSkill(fs, WORKSPACE_DIR, 'mismatch', { 'SKILL.md': skillMd('zeta') });
    writeSkill(fs, WORKSPACE_DIR, 'omega');
    writeSkill(fs, PACKAGE_DIR, 'pm-core');
    const registry = await load(fs);
    expect(names(registry)).toEqual(['alpha', 'beta', 'omega', 'pm-core']);
    expect(rules(registry)).toEqual(['workspace:bad-yaml:front-matter-malformed', 'workspace:linked:symlink', 'workspace:mismatch:name-mismatch']);
  });

  it('treats a missing skills directory as no skills, without a diagnostic', async () => {
    const registry = await load(newFs());
    expect(registry.size).toBe(0);
    expect(registry.diagnostics).toEqual([]);
  });

  describe('the tree changing between metadata and bodies', () => {
    /** Runs `change` once, right after SKILL.md's body is read. */
    class ChangingFs extends MemoryFileSystem {
      constructor(private readonly change: (fs: MemoryFileSystem) => void) {
        super();
      }
      override async readBytes(path: string, expect: RawReadExpectation): Promise<RawFileRead> {
        const read = await super.readBytes(path, expect);
        if (path.endsWith('/SKILL.md')) this.change(this);
        return read;
      }
    }

    it.each([
      ['a file replaced by a link', (fs: MemoryFileSystem) => fs.symlink('/etc/passwd', `${WORKSPACE_DIR}/racy/refs/a.md`), 'symlink'],
      ['a file replaced by another node', (fs: MemoryFileSystem) => fs.writeBytes(`${WORKSPACE_DIR}/racy/refs/a.md`, encode('A')), 'changed'],
      ['a file grown past its reservation', (fs: MemoryFileSystem) => void fs.append(`${WORKSPACE_DIR}/racy/refs/a.md`, 'more'), 'changed'],
      ['a file removed', (fs: MemoryFileSystem) => void fs.remove(`${WORKSPACE_DIR}/racy/refs/a.md`), 'changed'],
    ])('rejects the skill when %s', async (_label, change, rule) => {
      const fs = new ChangingFs(change);
      writeSkill(fs, WORKSPACE_DIR, 'racy', { 'refs/a.md': 'a' });
      const registry = await load(fs, { packageSkillsDir: undefined });
      expect(registry.size).toBe(0);
      expect(registry.diagnostics).toEqual([expect.objectContaining({ name: 'racy', rule, path: 'refs/a.md' })]);
    });

    it('reports a failing file system as unreadable and keeps the other skills', async () => {
      const inner = newFs();
      writeSkill(inner, WORKSPACE_DIR, 'locked');
      writeSkill(inner, WORKSPACE_DIR, 'open');
      const fs: FileSystem = Object.assign(Object.create(inner) as MemoryFileSystem, {
        listEntries: (dir: string, options: { limit: number }) => (dir.endsWith('/locked') ? Promise.reject(new Error('EACCES: permission denied')) : inner.listEntries(dir, options)),
      });
      const registry = await load(fs as MemoryFileSystem, { packageSkillsDir: undefined });
      expect(names(registry)).toEqual(['open']);
      expect(registry.diagnostics).toEqual([expect.objectContaining({ name: 'locked', rule: 'unreadable', message: expect.stringContaining('EACCES') })]);
    });
  });
});
