import { assertPmMcpSkillsCapability, PM_SKILLS_EXTENSION_ID, PM_SKILLS_EXTENSION_REVISION, type PmSkillsDeclarationMode } from '../../../../src/domain/skills/index.js';
import { PmMcpMissingClientCapabilityError } from '../../../../src/domain/errors/index.js';

const ctx = (declared?: unknown) => ({ clientCapabilities: declared === undefined ? {} : { extensions: { [PM_SKILLS_EXTENSION_ID]: declared } } }) as never;
const outcome = (mode: PmSkillsDeclarationMode, declared: unknown, directoryRead = false): string => {
  try {
    assertPmMcpSkillsCapability(ctx(declared), { method: 'skills/list', mode, directoryRead });
    return 'served';
  } catch (error) {
    expect(error).toBeInstanceOf(PmMcpMissingClientCapabilityError);
    const data = (error as PmMcpMissingClientCapabilityError).data as { requiredCapabilities: unknown };
    expect(data.requiredCapabilities).toEqual({ extensions: { [PM_SKILLS_EXTENSION_ID]: { revision: PM_SKILLS_EXTENSION_REVISION, ...(directoryRead ? { directoryRead: true } : {}) } } });
    return 'refused';
  }
};

const exact = { revision: PM_SKILLS_EXTENSION_REVISION };
const exactDir = { revision: PM_SKILLS_EXTENSION_REVISION, directoryRead: true };

describe('assertPmMcpSkillsCapability', () => {
  test.each([
    // mode, declaration, directory read?, outcome
    ['required', undefined, false, 'refused'],
    ['required', {}, false, 'refused'],
    ['required', exact, false, 'served'],
    ['required', { revision: 'SEP-2640@other' }, false, 'refused'],
    ['required', exact, true, 'refused'],
    ['required', exactDir, true, 'served'],
    ['required', true, false, 'refused'],
    ['optional', undefined, false, 'served'],
    ['optional', undefined, true, 'served'],
    ['optional', {}, false, 'served'],
    ['optional', exact, true, 'served'],
    ['optional', { revision: 'SEP-2640@other' }, false, 'refused'],
    ['optional', { directoryRead: false }, true, 'refused'],
    ['optional', [], false, 'refused'],
  ] as const)('%s mode, declared %j, directory read %s → %s', (mode, declared, directoryRead, expected) => {
    expect(outcome(mode, declared, directoryRead)).toBe(expected);
  });
});
