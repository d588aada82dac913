import { cliHarness } from '../../../support/cli-harness.js';

const binding = { method: 'tools/call', params: { name: 'pm_delete', arguments: { id: 'pm-a1' } }, principal: 'local:alice' };

describe('pm mcp rotate-key', () => {
  it('makes a fresh key current and reports how long the replaced one verifies', async () => {
    const cli = await cliHarness();
    const before = await cli.requestStates.seal({ consent: 'x' }, binding);
    const first = (await cli.requestStates.keys())[0]!;
    const out = await cli.json<{ current: { id: string; createdAt: string }; retired: { id: string; retiredAt: string; verifiesUntil: string }[] }>(['mcp', 'rotate-key']);
    expect(out.current.id).not.toBe(first.id);
    expect(out.current.createdAt).toBe(new Date(cli.clock.now()).toISOString());
    expect(out.retired).toEqual([{ id: first.id, retiredAt: new Date(cli.clock.now()).toISOString(), verifiesUntil: new Date(cli.clock.now() + 600_000).toISOString() }]);
    // state sealed before the rotation still opens; new state uses the new key
    expect(await cli.requestStates.open(before, binding)).toEqual({ consent: 'x' });
    expect((await cli.requestStates.seal({}, binding)).split('.')[1]).toBe(out.current.id);
  });

  it('prints one line per key for people', async () => {
    const cli = await cliHarness();
    const result = await cli.run(['mcp', 'rotate-key']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Rotated the requestState key: k2 seals from now on\.\n {2}k1 \(retired [^)]+\) still verifies until \S+\n$/);
  });

  it('is listed in the help', async () => {
    const cli = await cliHarness();
    const result = await cli.run(['help']);
    expect(result.stdout).toMatch(/mcp rotate-key/);
  });
});
