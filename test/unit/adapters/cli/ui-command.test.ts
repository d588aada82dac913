import { UsageError } from '../../../../src/adapters/cli/usage-error.js';
import { cliHarness } from '../../../support/cli-harness.js';

describe('pm ui', () => {
  it('starts the board server, prints its URL and opens it; a second run reuses it', async () => {
    const cli = await cliHarness();
    const first = await cli.run(['ui']);
    expect(first.code).toBe(0);
    expect(first.stdout).toBe('live board (started, pid 4242): http://127.0.0.1:4545/\n');
    expect(await cli.json(['ui'])).toEqual({ url: 'http://127.0.0.1:4545/', reused: true, pid: 4242, opened: true });
  });

  it('--no-open prints the URL and opens nothing', async () => {
    const cli = await cliHarness();
    expect(await cli.json(['ui', '--no-open'])).toEqual({ url: 'http://127.0.0.1:4545/', reused: false, pid: 4242, opened: false });
  });

  it('prints the URL and warns when no browser can be opened', async () => {
    const cli = await cliHarness({ browserFails: true });
    const result = await cli.run(['ui']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('live board (started, pid 4242): http://127.0.0.1:4545/\n');
    expect(result.io.stderr).toMatch(/warning: could not open a browser \(could not run xdg-open: spawn xdg-open ENOENT\); open the URL yourself/);
  });

  it('--stop ends a running board server and says when none runs', async () => {
    const cli = await cliHarness();
    await cli.run(['ui', '--no-open']);
    expect(await cli.json(['ui', '--stop'])).toEqual({ stopped: 4242 });
    expect((await cli.run(['ui', '--stop'])).stdout).toBe('no board server running\n');
  });

  it('refuses an unknown option', async () => {
    const cli = await cliHarness();
    const result = await cli.run(['ui', '--port', '9']);
    expect(result.error).toBeInstanceOf(UsageError);
    expect((result.error as Error).message).toMatch(/--port/);
  });
});
