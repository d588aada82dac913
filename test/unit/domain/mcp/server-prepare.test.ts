import { McpHarness } from '../../../support/mcp-fake-server.js';
import { CorruptDataError } from '../../../../src/domain/errors/index.js';

/** A prepare hook the test settles by hand, counting its calls. */
function manualPrepare() {
  const state = { calls: 0, settle: { resolve: () => {}, reject: (_error: unknown) => {} } };
  const prepare = () => {
    state.calls++;
    return new Promise<void>((resolve, reject) => {
      state.settle = { resolve, reject };
    });
  };
  return { state, prepare };
}

describe('PmMcpServerOptions.prepare', () => {
  test('server/discover answers at once; other requests wait for it, and it runs once', async () => {
    const { state, prepare } = manualPrepare();
    const h = new McpHarness({ prepare });
    expect((await h.modern(1, 'server/discover')).result).toMatchObject({ resultType: 'complete' });
    expect(state.calls).toBe(0);

    let listed = false;
    const list = h.modern(2, 'tools/list').then((out) => {
      listed = true;
      return out;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(listed).toBe(false);
    expect(state.calls).toBe(1);
    state.settle.resolve();
    expect((await list).result).toMatchObject({ resultType: 'complete' });

    await h.modern(3, 'tools/call', { name: 'echo', arguments: { text: 'after' } });
    expect(state.calls).toBe(1);
    expect(h.problems).toEqual([]);
  });

  test('a failure is the waiting request\'s error, and the next request tries again', async () => {
    const { state, prepare } = manualPrepare();
    const h = new McpHarness({ prepare });
    const first = h.modern(1, 'tools/list');
    await new Promise((resolve) => setImmediate(resolve));
    state.settle.reject(new CorruptDataError('config.yaml: YAML error: bad', { file: 'config.yaml' }));
    expect((await first).error).toMatchObject({ code: -31053, message: 'config.yaml: YAML error: bad' });

    const second = h.modern(2, 'tools/list');
    await new Promise((resolve) => setImmediate(resolve));
    expect(state.calls).toBe(2);
    state.settle.resolve();
    expect((await second).result).toMatchObject({ resultType: 'complete' });
    expect(h.problems).toEqual([]);
  });
});
