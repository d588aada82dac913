import { isValidPmSkillName, pmSkillNameProblem } from '../../../../src/domain/skills/index.js';

describe('skill names (Agent Skills rules)', () => {
  it.each(['a', 'pm', 'pm-triage', 'x1', '0', 'a-b-c', 'a'.repeat(64)])('accepts %j', (name) => {
    expect(isValidPmSkillName(name)).toBe(true);
  });

  it.each(['', '-a', 'a-', 'a--b', 'A', 'pm_triage', 'pm.triage', 'pm triage', 'é', 'a'.repeat(65), '.hidden', 'a/b'])('rejects %j', (name) => {
    expect(isValidPmSkillName(name)).toBe(false);
    expect(pmSkillNameProblem(name)).toEqual(expect.any(String));
  });

  it.each([[1, 'number'], [null, 'null'], [undefined, 'undefined'], [['a'], 'object']])('rejects the non-string %j', (name, kind) => {
    expect(pmSkillNameProblem(name)).toContain(kind);
  });
});
