import { SettingsError, settingsFromEnv } from '../../../src/composition/settings.js';

describe('settingsFromEnv', () => {
  it('reads PM_MCP_TASK_TTL_MS (default one hour)', () => {
    expect(settingsFromEnv({}, '/p', 'u').taskTtlMs).toBe(3_600_000);
    expect(settingsFromEnv({ PM_MCP_TASK_TTL_MS: '5000' }, '/p', 'u').taskTtlMs).toBe(5_000);
  });

  it.each([
    [{ PM_MCP_TASK_TTL_MS: 'soon' }, /^invalid configuration: PM_MCP_TASK_TTL_MS \(taskTtlMs\): /],
    [{ PM_MCP_TASK_TTL_MS: '10' }, /^invalid configuration: PM_MCP_TASK_TTL_MS \(taskTtlMs\): Too small/],
    [{ PM_LOCK_TIMEOUT_MS: '-1' }, /^invalid configuration: PM_LOCK_TIMEOUT_MS \(lockTimeoutMs\): /],
    [{ PM_MCP_SKILLS_DECLARATION: 'maybe' }, /^invalid configuration: PM_MCP_SKILLS_DECLARATION \(skillsDeclaration\): /],
  ])('names the environment variable of a bad value: %j', (env, message) => {
    expect(() => settingsFromEnv(env, '/p', 'u')).toThrow(SettingsError);
    expect(() => settingsFromEnv(env, '/p', 'u')).toThrow(message);
  });
});
