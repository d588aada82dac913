import {
  createPmMcpMethodRegistry,
  definePmMcpServer,
  expandMcpScopes,
  MCP_TASKS_METHOD_SPECS,
  missingMcpScopes,
  PM_MCP_DEFAULT_SCOPES,
  PmMcpToolRegistry,
  pmMcpRequiredScopes,
  pmMcpScopeHierarchy,
  readMcpScopeClaim,
} from '../../../../../src/domain/mcp/index.js';
import { z } from 'zod';

const tool = (name: string, annotations?: Record<string, boolean>) => ({
  name,
  description: name,
  inputSchema: { type: 'object' as const },
  args: z.object({}),
  ...(annotations ? { annotations } : {}),
  handler: () => ({ structuredContent: {} }),
});
const server = definePmMcpServer({
  serverInfo: { name: 'scopes', version: '1' },
  tools: new PmMcpToolRegistry([
    tool('pm_get', { readOnlyHint: true }),
    tool('pm_update', { readOnlyHint: false, destructiveHint: false }),
    tool('pm_delete', { destructiveHint: true }),
    tool('pm_plain'),
  ]),
});
/** The server's method registry, with the tasks extension's methods registered from their declarations. */
const tools = createPmMcpMethodRegistry(server);
for (const spec of MCP_TASKS_METHOD_SPECS) tools.register({ ...spec, params: z.object({}), handle: () => ({ body: {} }) });
const noTools = createPmMcpMethodRegistry(definePmMcpServer({ serverInfo: { name: 'none', version: '1' } }));
const call = (name: unknown) => ({ method: 'tools/call', params: { name, arguments: {} } });

describe('pmMcpRequiredScopes (per-operation scopes)', () => {
  test('read-only tools need read; tools without readOnlyHint (mutating, destructive, unannotated) need write', () => {
    expect(pmMcpRequiredScopes(call('pm_get'), tools)).toEqual(['pm:read']);
    expect(pmMcpRequiredScopes(call('pm_update'), tools)).toEqual(['pm:write']);
    expect(pmMcpRequiredScopes(call('pm_delete'), tools)).toEqual(['pm:write']);
    expect(pmMcpRequiredScopes(call('pm_plain'), tools)).toEqual(['pm:write']);
  });

  test('unknown or malformed tool calls need read (they are refused by the dispatcher afterwards)', () => {
    expect(pmMcpRequiredScopes(call('nope'), tools)).toEqual(['pm:read']);
    expect(pmMcpRequiredScopes(call(42), tools)).toEqual(['pm:read']);
    expect(pmMcpRequiredScopes({ method: 'tools/call' }, tools)).toEqual(['pm:read']);
    expect(pmMcpRequiredScopes({ method: 'tools/call', params: [] as unknown as Record<string, unknown> }, tools)).toEqual(['pm:read']);
    expect(pmMcpRequiredScopes(call('pm_update'), noTools)).toEqual(['pm:read']);
  });

  test.each([
    'server/discover', 'tools/list', 'resources/list', 'resources/templates/list', 'resources/read', 'prompts/list', 'prompts/get',
    'completion/complete', 'subscriptions/listen', 'tasks/get', 'initialize', 'ping', 'notifications/initialized', 'no/such-method',
  ])('%s needs read', (method) => {
    expect(pmMcpRequiredScopes({ method, params: {} }, tools)).toEqual(['pm:read']);
  });

  test('tasks/update and tasks/cancel steer an operation and need write (their declarations say so)', () => {
    expect(pmMcpRequiredScopes({ method: 'tasks/update' }, tools)).toEqual(['pm:write']);
    expect(pmMcpRequiredScopes({ method: 'tasks/cancel' }, tools)).toEqual(['pm:write']);
    expect(pmMcpRequiredScopes({ method: 'tasks/get' }, tools)).toEqual(['pm:read']);
  });

  test('a registered method declaring the write scope needs write, with no edit anywhere else', () => {
    const methods = createPmMcpMethodRegistry(server);
    expect(pmMcpRequiredScopes({ method: 'widgets/tune' }, methods)).toEqual(['pm:read']);
    methods.register({ method: 'widgets/tune', eras: ['modern'], scope: 'write', params: z.object({}), handle: () => ({ body: {} }) });
    expect(pmMcpRequiredScopes({ method: 'widgets/tune' }, methods)).toEqual(['pm:write']);
  });

  test('scope names are configurable', () => {
    const names = { read: 'tracker.read', write: 'tracker.write' };
    expect(pmMcpRequiredScopes(call('pm_update'), tools, names)).toEqual(['tracker.write']);
    expect(pmMcpRequiredScopes({ method: 'tools/list' }, tools, names)).toEqual(['tracker.read']);
  });
});

describe('scope hierarchy', () => {
  const hierarchy = pmMcpScopeHierarchy(PM_MCP_DEFAULT_SCOPES);

  test('write implies read; read does not imply write', () => {
    expect(missingMcpScopes(['pm:write'], ['pm:read'], hierarchy)).toEqual([]);
    expect(missingMcpScopes(['pm:read'], ['pm:write'], hierarchy)).toEqual(['pm:write']);
    expect(missingMcpScopes([], ['pm:read'], hierarchy)).toEqual(['pm:read']);
    expect(missingMcpScopes(['other'], [], hierarchy)).toEqual([]);
  });

  test('without a hierarchy scopes are matched exactly', () => {
    expect(missingMcpScopes(['pm:write'], ['pm:read'])).toEqual(['pm:read']);
  });

  test('implication is transitive and cycle-safe', () => {
    const chain = { admin: ['write'], write: ['read'], read: ['admin'] };
    expect([...expandMcpScopes(['admin'], chain)].sort()).toEqual(['admin', 'read', 'write']);
    expect(missingMcpScopes(['admin'], ['read', 'write'], { admin: ['write'], write: ['read'] })).toEqual([]);
  });

  test('a hierarchy key inherited from Object.prototype is not a scope', () => {
    expect([...expandMcpScopes(['toString'], {})]).toEqual(['toString']);
  });
});

describe('readMcpScopeClaim', () => {
  test('scope as a space-separated string, scp as an array or string', () => {
    expect(readMcpScopeClaim({ scope: 'pm:read  pm:write' })).toEqual(['pm:read', 'pm:write']);
    expect(readMcpScopeClaim({ scp: ['pm:read'] })).toEqual(['pm:read']);
    expect(readMcpScopeClaim({ scp: 'pm:read pm:write' })).toEqual(['pm:read', 'pm:write']);
    expect(readMcpScopeClaim({ scope: 'pm:read', scp: ['pm:write'] })).toEqual(['pm:read']);
  });

  test('absent → undefined, malformed → null', () => {
    expect(readMcpScopeClaim({})).toBeUndefined();
    expect(readMcpScopeClaim({ scope: ['pm:read'] })).toBeNull();
    expect(readMcpScopeClaim({ scp: [1] })).toBeNull();
    expect(readMcpScopeClaim({ scp: { a: 1 } })).toBeNull();
  });
});
