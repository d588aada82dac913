import { load, names, newFs, PACKAGE_DIR, rules, skillMd, WORKSPACE_DIR, writeSkill } from '../../../support/skill-fixtures.js';

const facts = (entry: { _meta: Record<string, unknown> }) => entry._meta['dev.unbrained.pm/skill'] as Record<string, unknown>;

describe('workspace overrides of package skills', () => {
  it('serves the workspace skill of the same name, with origin workspace and only its own content', async () => {
    const fs = newFs();
    writeSkill(fs, PACKAGE_DIR, 'pm-triage', { 'SKILL.md': skillMd('pm-triage', 'Package triage.', 'license: MIT\n'), 'references/package-only.md': 'p' });
    writeSkill(fs, PACKAGE_DIR, 'pm-sdk');
    writeSkill(fs, WORKSPACE_DIR, 'pm-triage', { 'SKILL.md': skillMd('pm-triage', 'Our own triage.'), 'local.md': 'l' });
    const registry = await load(fs);
    expect(names(registry)).toEqual(['pm-sdk', 'pm-triage']);
    const { skill } = registry.get('skill://pm-triage/SKILL.md');
    expect(skill.frontmatter).toEqual({ name: 'pm-triage', description: 'Our own triage.' });
    expect(skill.resources.map((r) => r.uri)).toEqual(['skill://pm-triage/SKILL.md', 'skill://pm-triage/local.md']);
    expect(facts(skill)).toMatchObject({ origin: 'workspace', overridesPackage: true, trust: 'untrusted' });
    expect(registry.read('skill://pm-triage/SKILL.md').contents[0]).toMatchObject({ text: skillMd('pm-triage', 'Our own triage.') });
    expect(() => registry.read('skill://pm-triage/references/package-only.md')).toThrow(/Resource not found/);
    expect(registry.resources().find((r) => r.name === 'pm-triage')).toMatchObject({ description: 'Our own triage.' });
    expect(facts(registry.get('skill://pm-sdk/SKILL.md').skill)).toMatchObject({ origin: 'package', overridesPackage: false, trust: 'untrusted' });
  });

  it('changes origin even when the override is byte-identical to the package skill, so the digest changes too', async () => {
    const fs = newFs();
    writeSkill(fs, PACKAGE_DIR, 'pm-triage');
    const packageOnly = await load(fs);
    writeSkill(fs, WORKSPACE_DIR, 'pm-triage');
    const overridden = await load(fs);
    expect(overridden.entries()[0]!.resources).toEqual(packageOnly.entries()[0]!.resources);
    expect(facts(overridden.entries()[0]!).origin).toBe('workspace');
    expect(overridden.digest).not.toBe(packageOnly.digest);
  });

  it('serves workspace skills with new names next to the package ones', async () => {
    const fs = newFs();
    writeSkill(fs, PACKAGE_DIR, 'pm-sdk');
    writeSkill(fs, WORKSPACE_DIR, 'deploy');
    const registry = await load(fs);
    expect(names(registry)).toEqual(['deploy', 'pm-sdk']);
    expect(facts(registry.entries()[0]!)).toMatchObject({ origin: 'workspace', overridesPackage: false, trust: 'untrusted' });
  });

  it('keeps the package skill when its override is rejected, and says so', async () => {
    const fs = newFs();
    writeSkill(fs, PACKAGE_DIR, 'pm-triage');
    writeSkill(fs, WORKSPACE_DIR, 'pm-triage', { 'SKILL.md': skillMd('pm-triage', 'd', 'x: &a 1\n') });
    const registry = await load(fs);
    expect(names(registry)).toEqual(['pm-triage']);
    expect(facts(registry.entries()[0]!).origin).toBe('package');
    expect(rules(registry)).toEqual(['workspace:pm-triage:front-matter-anchor']);
    expect(registry.diagnostics[0]!.message).toMatch(/the package skill "pm-triage" is served instead/);
  });

  it('does not let a symlinked override point back at the package skill', async () => {
    const fs = newFs();
    writeSkill(fs, PACKAGE_DIR, 'pm-triage');
    fs.symlink(`${PACKAGE_DIR}/pm-triage`, `${WORKSPACE_DIR}/pm-triage`);
    const registry = await load(fs);
    expect(facts(registry.entries()[0]!).origin).toBe('package');
    expect(rules(registry)).toEqual(['workspace:pm-triage:symlink']);
  });
});
