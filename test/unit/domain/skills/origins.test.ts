import { formatPmSkillDiagnostic, PM_WORKSPACE_SKILLS_DIR, pmSkillOrigins } from '../../../../src/domain/skills/index.js';
import { planPmSkillOrigin } from '../../../../src/domain/skills/origin-plan.js';
import { PM_SKILL_LIMITS } from '../../../../src/domain/skills/limits.js';
import { newFs } from '../../../support/skill-fixtures.js';

describe('skill origins', () => {
  it('loads the package directory, then the repository .agents/skills anchored at the repository root', () => {
    expect(PM_WORKSPACE_SKILLS_DIR).toBe('.agents/skills');
    expect(pmSkillOrigins({ packageSkillsDir: '/pkg/skills', workspaceRoot: '/repo/' })).toEqual([
      { kind: 'package', root: '/pkg/skills' },
      { kind: 'workspace', root: '/repo/.agents/skills', anchor: '/repo' },
    ]);
    expect(pmSkillOrigins({ workspaceRoot: '/' })).toEqual([{ kind: 'workspace', root: '/.agents/skills', anchor: '/' }]);
    expect(pmSkillOrigins({})).toEqual([]);
  });

  it('refuses an origin that is not below its anchor (a programming error, not content)', async () => {
    await expect(planPmSkillOrigin(newFs(), { kind: 'workspace', root: '/elsewhere/skills', anchor: '/repo' }, PM_SKILL_LIMITS)).rejects.toThrow(/not below its anchor/);
  });

  it('reports a skills path that is a file as unreadable', async () => {
    const fs = newFs();
    fs.writeBytes('/repo/.agents', new Uint8Array([1]));
    const plan = await planPmSkillOrigin(fs, { kind: 'workspace', root: '/repo/.agents/skills', anchor: '/repo' }, PM_SKILL_LIMITS);
    expect(plan.diagnostics).toEqual([expect.objectContaining({ rule: 'unreadable', path: '.agents' })]);
  });

  it('formats an origin-wide diagnostic for stderr', () => {
    expect(formatPmSkillDiagnostic({ origin: 'workspace', name: undefined, rule: 'origin-candidates', path: '', message: 'too many', limit: 100, actual: 101 })).toBe(
      'workspace skills rejected (origin-candidates, limit 100, actual 101): too many',
    );
  });
});
