import { PM_SKILL_LIMITS } from '../../../../src/domain/skills/index.js';
import { load, names, newFs, PACKAGE_DIR, rules, skillMd, WORKSPACE_DIR, writeSkill, zeros } from '../../../support/skill-fixtures.js';

const MIB = 1024 * 1024;

/**
 * The declared memory envelope: every limit is enforced from metadata, so a skill or origin
 * over it is rejected without one of its bodies being read (the memory file system counts
 * every body read).
 */
describe('PmMcpSkillRegistry limits', () => {
  it('declares the seed limits', () => {
    expect(PM_SKILL_LIMITS).toMatchObject({ maxResourcesPerSkill: 512, maxSkillBytes: 16 * MIB, maxResourceBytes: 16 * MIB, maxCandidatesPerOrigin: 100, maxOriginBytes: 32 * MIB });
  });

  it('rejects a file over 16 MiB from its size alone, and serves the other skills', async () => {
    const fs = newFs();
    writeSkill(fs, WORKSPACE_DIR, 'big', { 'assets/huge.bin': zeros(16 * MIB + 1) });
    writeSkill(fs, WORKSPACE_DIR, 'good');
    const registry = await load(fs, { packageSkillsDir: undefined });
    expect(names(registry)).toEqual(['good']);
    expect(registry.diagnostics).toEqual([
      expect.objectContaining({ origin: 'workspace', name: 'big', rule: 'resource-bytes', path: 'assets/huge.bin', limit: 16 * MIB, actual: 16 * MIB + 1 }),
    ]);
    expect(fs.bodyReads).toBe(1); // good/SKILL.md only
  });

  it('serves a skill of exactly 16 MiB in total', async () => {
    const fs = newFs();
    const md = skillMd('edge');
    writeSkill(fs, WORKSPACE_DIR, 'edge', { 'SKILL.md': md, 'data.bin': zeros(16 * MIB - new TextEncoder().encode(md).length) });
    const registry = await load(fs, { packageSkillsDir: undefined });
    expect(rules(registry)).toEqual([]);
    expect(registry.entries()[0]!._meta['dev.unbrained.pm/skill'].totalBytes).toBe(16 * MIB);
  });

  it('rejects a skill over 16 MiB in total (every file under the per-file bound) without reading it', async () => {
    const fs = newFs();
    writeSkill(fs, WORKSPACE_DIR, 'fat', { 'a.bin': zeros(8 * MIB), 'b.bin': zeros(8 * MIB) });
    const registry = await load(fs, { packageSkillsDir: undefined });
    expect(registry.size).toBe(0);
    expect(registry.diagnostics).toEqual([expect.objectContaining({ name: 'fat', rule: 'skill-bytes', limit: 16 * MIB, actual: expect.any(Number) })]);
    expect(registry.diagnostics[0]!.actual as number).toBeGreaterThan(16 * MIB);
    expect(fs.bodyReads).toBe(0);
  });

  it('serves 512 files and rejects 513 without reading one', async () => {
    const fs = newFs();
    const files = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`refs/f${String(i).padStart(3, '0')}.md`, `${i}`]));
    writeSkill(fs, WORKSPACE_DIR, 'full', files(511));
    writeSkill(fs, WORKSPACE_DIR, 'over', files(512));
    const registry = await load(fs, { packageSkillsDir: undefined });
    expect(names(registry)).toEqual(['full']);
    expect(registry.entries()[0]!.resources).toHaveLength(512);
    expect(registry.diagnostics).toEqual([expect.objectContaining({ name: 'over', rule: 'resource-count', limit: 512, actual: 513 })]);
    expect(fs.bodyReads).toBe(512);
  });

  it('refuses an origin of 101 candidate directories as a whole, without one body read', async () => {
    const fs = newFs();
    for (let i = 0; i < 101; i++) writeSkill(fs, WORKSPACE_DIR, `s${i}`);
    writeSkill(fs, PACKAGE_DIR, 'pm-core');
    const registry = await load(fs);
    expect(names(registry)).toEqual(['pm-core']);
    expect(registry.diagnostics).toEqual([expect.objectContaining({ origin: 'workspace', name: undefined, rule: 'origin-candidates', limit: 100, actual: 101 })]);
    expect(fs.bodyReads).toBe(1); // the package skill's SKILL.md
  });

  it('serves an origin of exactly 100 candidate directories', async () => {
    const fs = newFs();
    for (let i = 0; i < 100; i++) writeSkill(fs, WORKSPACE_DIR, `s${String(i).padStart(3, '0')}`);
    const registry = await load(fs, { packageSkillsDir: undefined });
    expect(registry.size).toBe(100);
    expect(rules(registry)).toEqual([]);
  });

  it('counts links among the candidates, and ignores plain files in the skills directory', async () => {
    const fs = newFs();
    for (let i = 0; i < 99; i++) writeSkill(fs, WORKSPACE_DIR, `s${i}`);
    fs.writeBytes(`${WORKSPACE_DIR}/README.md`, new TextEncoder().encode('not a skill'));
    fs.symlink('/elsewhere', `${WORKSPACE_DIR}/linked`);
    fs.symlink('/elsewhere2', `${WORKSPACE_DIR}/linked2`);
    const registry = await load(fs, { packageSkillsDir: undefined });
    expect(rules(registry)).toEqual(['workspace:*:origin-candidates']);
    expect(fs.bodyReads).toBe(0);
  });

  it('refuses an origin whose acceptable skills exceed 32 MiB together, before reading any body', async () => {
    const fs = newFs();
    for (const name of ['a', 'b', 'c']) writeSkill(fs, WORKSPACE_DIR, name, { 'data.bin': zeros(11 * MIB) });
    writeSkill(fs, WORKSPACE_DIR, 'too-big', { 'data.bin': zeros(16 * MIB + 1) });
    writeSkill(fs, PACKAGE_DIR, 'pm-core');
    const registry = await load(fs);
    expect(names(registry)).toEqual(['pm-core']);
    expect(rules(registry)).toEqual(['workspace:*:origin-bytes', 'workspace:too-big:resource-bytes']);
    const origin = registry.diagnostics.find((d) => d.rule === 'origin-bytes')!;
    expect(origin.limit).toBe(32 * MIB);
    expect(origin.actual as number).toBeGreaterThan(33 * MIB);
    expect(fs.bodyReads).toBe(1);
  });

  // Scaled-down limits from here on: these test how budgets combine, not their values.
  const small = { maxResourceBytes: 1000, maxSkillBytes: 1000, maxOriginBytes: 2000 };

  it('does not count a rejected skill against the origin budget', async () => {
    const fs = newFs();
    for (const name of ['a', 'b']) writeSkill(fs, WORKSPACE_DIR, name, { 'data.bin': zeros(900) });
    writeSkill(fs, WORKSPACE_DIR, 'c', { 'data.bin': zeros(1001) });
    const registry = await load(fs, { packageSkillsDir: undefined, limits: small });
    expect(names(registry)).toEqual(['a', 'b']);
    expect(rules(registry)).toEqual(['workspace:c:resource-bytes']);
  });

  it('gives each origin its own budget', async () => {
    const fs = newFs();
    for (const name of ['a', 'b']) writeSkill(fs, PACKAGE_DIR, name, { 'data.bin': zeros(900) });
    for (const name of ['c', 'd']) writeSkill(fs, WORKSPACE_DIR, name, { 'data.bin': zeros(900) });
    const registry = await load(fs, { limits: small });
    expect(names(registry)).toEqual(['a', 'b', 'c', 'd']);
    writeSkill(fs, WORKSPACE_DIR, 'e', { 'data.bin': zeros(300) });
    expect(names(await load(fs, { limits: small }))).toEqual(['a', 'b']);
  });

  it('refuses a skills directory listing more than 1024 entries, without reading anything', async () => {
    const fs = newFs();
    for (let i = 0; i < 1025; i++) fs.writeBytes(`${WORKSPACE_DIR}/note-${i}.txt`, zeros(1));
    const registry = await load(fs, { packageSkillsDir: undefined });
    expect(registry.diagnostics).toEqual([expect.objectContaining({ rule: 'origin-entries', limit: 1024, actual: '>1024' })]);
    expect(fs.bodyReads).toBe(0);
  });

  it('bounds the walk of one skill: entries per directory, directory count and depth', async () => {
    const fs = newFs();
    writeSkill(fs, WORKSPACE_DIR, 'wide');
    for (let i = 0; i < 1025; i++) await fs.ensureDir(`${WORKSPACE_DIR}/wide/d/${i}`);
    writeSkill(fs, WORKSPACE_DIR, 'many-dirs');
    for (let i = 0; i < 513; i++) await fs.ensureDir(`${WORKSPACE_DIR}/many-dirs/d${i}`);
    writeSkill(fs, WORKSPACE_DIR, 'deep');
    await fs.ensureDir(`${WORKSPACE_DIR}/deep/${Array.from({ length: 17 }, (_, i) => `l${i}`).join('/')}`);
    writeSkill(fs, WORKSPACE_DIR, 'deep-ok');
    await fs.ensureDir(`${WORKSPACE_DIR}/deep-ok/${Array.from({ length: 16 }, (_, i) => `l${i}`).join('/')}`);
    const registry = await load(fs, { packageSkillsDir: undefined });
    expect(names(registry)).toEqual(['deep-ok']);
    expect(registry.diagnostics).toEqual([
      expect.objectContaining({ name: 'deep', rule: 'depth', limit: 16, actual: 17 }),
      expect.objectContaining({ name: 'many-dirs', rule: 'directory-count', limit: 512, actual: 513 }),
      expect.objectContaining({ name: 'wide', rule: 'directory-entries', path: 'd', limit: 1024 }),
    ]);
    expect(fs.bodyReads).toBe(1);
  });

  it.each([
    ['a file over 16 MiB', (fs: ReturnType<typeof newFs>) => writeSkill(fs, WORKSPACE_DIR, 'a', { 'f.bin': zeros(16 * MIB + 1) }), 'resource-bytes'],
    ['a skill over 16 MiB', (fs: ReturnType<typeof newFs>) => writeSkill(fs, WORKSPACE_DIR, 'a', { 'f.bin': zeros(9 * MIB), 'g.bin': zeros(9 * MIB) }), 'skill-bytes'],
    ['513 files', (fs: ReturnType<typeof newFs>) => writeSkill(fs, WORKSPACE_DIR, 'a', Object.fromEntries(Array.from({ length: 512 }, (_, i) => [`f${i}`, 'x']))), 'resource-count'],
    ['101 candidates', (fs: ReturnType<typeof newFs>) => Array.from({ length: 101 }, (_, i) => writeSkill(fs, WORKSPACE_DIR, `s${i}`)), 'origin-candidates'],
    ['skills over 32 MiB together', (fs: ReturnType<typeof newFs>) => ['a', 'b', 'c'].forEach((n) => writeSkill(fs, WORKSPACE_DIR, n, { 'f.bin': zeros(11 * MIB) })), 'origin-bytes'],
  ])('rejects a workspace with %s without a single body read', async (_label, plant, rule) => {
    const fs = newFs();
    plant(fs);
    const registry = await load(fs, { packageSkillsDir: undefined });
    expect(registry.size).toBe(0);
    expect(registry.diagnostics.map((d) => d.rule)).toEqual([rule]);
    expect(fs.bodyReads).toBe(0);
  });

  it('lets a host tighten the limits', async () => {
    const fs = newFs();
    writeSkill(fs, WORKSPACE_DIR, 'three', { 'a.md': 'a', 'b.md': 'b' });
    const registry = await load(fs, { packageSkillsDir: undefined, limits: { maxResourcesPerSkill: 2 } });
    expect(registry.diagnostics).toEqual([expect.objectContaining({ rule: 'resource-count', limit: 2, actual: 3 })]);
  });
});
