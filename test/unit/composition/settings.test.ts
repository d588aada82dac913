import { SettingsError, settingsFromEnv } from '../../../src/composition/settings.js';

describe('settingsFromEnv', () => {
  it('reads PM_MCP_TASK_TTL_MS (default one hour)', () => {
    expect(settingsFromEnv({}, '/p', 'u').taskTtlMs).toBe(3_600_000);
    expect(settingsFromEnv({ PM_MCP_TASK_TTL_MS: '5000' }, '/p', 'u').taskTtlMs).toBe(5_000);
  });

  it('selects the task store by PM_MCP_TASK_STORE (file by default), with its schema and lease heartbeat', () => {
    const plain = settingsFromEnv({}, '/p', 'u');
    expect([plain.taskStore, plain.pgSchema, plain.taskHeartbeatMs]).toEqual(['file', 'pm', 10_000]);
    const shared = settingsFromEnv({ PM_MCP_TASK_STORE: 'postgres://pm@db:5432/pm', PM_MCP_PG_SCHEMA: 'team_a', PM_MCP_TASK_HEARTBEAT_MS: '500' }, '/p', 'u');
    expect([shared.taskStore, shared.pgSchema, shared.taskHeartbeatMs]).toEqual(['postgres://pm@db:5432/pm', 'team_a', 500]);
  });

  it('reads PM_INDEX_DRIVER (auto by default)', () => {
    expect(settingsFromEnv({}, '/p', 'u').indexDriver).toBe('auto');
    for (const driver of ['node:sqlite', 'better-sqlite3', 'bun:sqlite', 'memory', 'auto']) expect(settingsFromEnv({ PM_INDEX_DRIVER: driver }, '/p', 'u').indexDriver).toBe(driver);
  });

  it('reads PM_CACHES (on by default)', () => {
    expect(settingsFromEnv({}, '/p', 'u').caches).toBe('on');
    expect(settingsFromEnv({ PM_CACHES: 'off' }, '/p', 'u').caches).toBe('off');
    expect(settingsFromEnv({ PM_CACHES: 'on' }, '/p', 'u').caches).toBe('on');
  });

  it.each([
    [{ PM_CACHES: 'no' }, /^invalid configuration: PM_CACHES \(caches\): /],
    [{ PM_INDEX_DRIVER: 'sqlite3' }, /^invalid configuration: PM_INDEX_DRIVER \(indexDriver\): /],
    [{ PM_MCP_TASK_STORE: 'mysql://db/pm' }, /^invalid configuration: PM_MCP_TASK_STORE \(taskStore\): must be "file" or a postgres:\/\/ URL/],
    [{ PM_MCP_PG_SCHEMA: 'Team-A' }, /^invalid configuration: PM_MCP_PG_SCHEMA \(pgSchema\): must be a lower-case SQL identifier/],
    [{ PM_MCP_TASK_HEARTBEAT_MS: '5' }, /^invalid configuration: PM_MCP_TASK_HEARTBEAT_MS \(taskHeartbeatMs\): Too small/],
    [{ PM_MCP_TASK_TTL_MS: 'soon' }, /^invalid configuration: PM_MCP_TASK_TTL_MS \(taskTtlMs\): /],
    [{ PM_MCP_TASK_TTL_MS: '10' }, /^invalid configuration: PM_MCP_TASK_TTL_MS \(taskTtlMs\): Too small/],
    [{ PM_LOCK_TIMEOUT_MS: '-1' }, /^invalid configuration: PM_LOCK_TIMEOUT_MS \(lockTimeoutMs\): /],
    [{ PM_MCP_SKILLS_DECLARATION: 'maybe' }, /^invalid configuration: PM_MCP_SKILLS_DECLARATION \(skillsDeclaration\): /],
  ])('names the environment variable of a bad value: %j', (env, message) => {
    expect(() => settingsFromEnv(env, '/p', 'u')).toThrow(SettingsError);
    expect(() => settingsFromEnv(env, '/p', 'u')).toThrow(message);
  });
});
