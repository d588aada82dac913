/**
 * The live board of pm-mcp-http (docs/APPS.md "The board in the browser") over real processes:
 * `GET /` and its assets with their security headers, the page's policy naming exactly the
 * views' inline code that `resources/read` serves, and `pm ui` starting, reusing, opening and
 * stopping a loopback server.
 */
import { createHash } from 'node:crypto';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runToEnd, testRunCacheEnv } from '../support/child-processes.js';
import { httpPost, McpHttpProcesses, modernRequest } from '../support/mcp-http.js';
import { makeTempTracker } from '../support/mcp-stdio.js';

const PM_BIN = fileURLToPath(new URL('../../bin/pm.cjs', import.meta.url));
const APPS = { 'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } } };
const get = (url: string, headers: Record<string, string> = {}) => httpPost(url, undefined, headers, { method: 'GET', defaults: false });
const sha256 = (text: string) => `sha256-${createHash('sha256').update(text).digest('base64')}`;

describe('GET / on pm-mcp-http', () => {
  const processes = new McpHttpProcesses();
  afterAll(() => processes.killAll());

  it('serves the board page and its assets under a strict same-origin policy that allows exactly the views’ inline code', async () => {
    const project = await makeTempTracker('pm-board-page-');
    try {
      const server = await processes.start(project.dir, { PM_MCP_PROFILE: 'full' });
      const origin = new URL(server.url).origin;
      const page = await get(`${origin}/`);
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.headers['x-content-type-options']).toBe('nosniff');
      expect(page.headers['x-frame-options']).toBe('DENY');
      expect(page.headers['referrer-policy']).toBe('no-referrer');
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.text).toContain('<script src="/_pm/board.js" defer></script>');
      expect(page.text).toContain('data-mcp-path="/mcp"');
      const csp = String(page.headers['content-security-policy']);
      const directives = Object.fromEntries(csp.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)]));
      expect(directives['default-src']).toEqual(["'none'"]);
      expect(directives['connect-src']).toEqual(["'self'"]);
      expect(directives['frame-ancestors']).toEqual(["'none'"]);
      expect(directives['form-action']).toEqual(["'none'"]);
      // Every view's inline script, read as a host reads it, is allowed by its hash, and nothing else inline.
      const hashes = new Set<string>();
      for (const view of ['context', 'board', 'item', 'graph', 'history']) {
        const request = modernRequest(1, 'resources/read', { uri: `ui://pm/${view}.html` }, { meta: APPS });
        const html = (await httpPost(server.url, request.body, request.headers)).body!.result.contents[0].text as string;
        hashes.add(`'${sha256(/<script>([\s\S]*?)<\/script>/.exec(html)![1]!)}'`);
      }
      expect(directives['script-src']).toEqual(["'self'", ...hashes]);
      expect(csp).not.toMatch(/script-src[^;]*unsafe/);

      const script = await get(`${origin}/_pm/board.js`);
      expect(script.status).toBe(200);
      expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(script.text).toContain('subscriptions/listen');
      expect((await get(`${origin}/_pm/board.css`)).headers['content-type']).toBe('text/css; charset=utf-8');
      expect((await httpPost(`${origin}/`, '{}')).status).toBe(404);
      expect((await get(`${origin}/`, { Host: 'evil.example:80' })).status).toBe(421);
      expect((await get(`${origin}/elsewhere`)).status).toBe(404);
      expect(server.proc.stderr()).toContain(`live board in the browser (read-only): ${origin}/`);
    } finally {
      await project.remove();
    }
  });
});

describe('pm ui', () => {
  let project: Awaited<ReturnType<typeof makeTempTracker>>;
  let pid: number | undefined;
  afterAll(async () => {
    if (pid) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    await project?.remove();
  });

  const pm = (args: string[], env: NodeJS.ProcessEnv = {}) => runToEnd(process.execPath, [PM_BIN, ...args], { cwd: project.dir, env: { PATH: process.env.PATH, HOME: project.dir, ...testRunCacheEnv(), ...env } });

  it('starts a loopback server, prints its URL, reuses it on the next run, opens the browser, and stops it', async () => {
    project = await makeTempTracker('pm-ui-');
    const first = await pm(['ui', '--no-open']);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const [, state, firstPid, url] = /^live board \((started|already running), pid (\d+)\): (http:\/\/127\.0\.0\.1:\d+\/)\n$/.exec(first.stdout)!;
    expect(state).toBe('started');
    pid = Number(firstPid);
    const page = await get(url!);
    expect(page.status).toBe(200);
    expect(page.text).toContain('pm · live board');

    const second = JSON.parse((await pm(['ui', '--no-open', '--json'])).stdout) as Record<string, unknown>;
    expect(second).toEqual({ url, reused: true, pid, opened: false });

    // The browser command gets the URL ($BROWSER here; xdg-open, open or start otherwise).
    const opened = join(project.dir, 'opened.txt');
    const browser = join(project.dir, 'fake-browser.sh');
    await writeFile(browser, `#!/bin/sh\nprintf '%s' "$1" > '${opened}'\n`);
    await chmod(browser, 0o755);
    const third = JSON.parse((await pm(['ui', '--json'], { BROWSER: browser })).stdout) as Record<string, unknown>;
    expect(third).toEqual({ url, reused: true, pid, opened: true });
    for (let i = 0; i < 100 && (await readFile(opened, 'utf8').catch(() => '')) === ''; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await readFile(opened, 'utf8')).toBe(url);

    const missing = await pm(['ui', '--json'], { BROWSER: join(project.dir, 'no-such-browser') });
    expect(JSON.parse(missing.stdout)).toMatchObject({ url, reused: true, opened: false, openError: expect.stringMatching(/no-such-browser/) });
    expect(missing.stderr).toMatch(/warning: could not open a browser/);

    expect(JSON.parse((await pm(['ui', '--stop', '--json'])).stdout)).toEqual({ stopped: pid });
    for (let i = 0; i < 200 && (await get(url!).then(() => true, () => false)); i++) await new Promise((r) => setTimeout(r, 50));
    await expect(get(url!)).rejects.toThrow();
    pid = undefined;
    expect((await pm(['ui', '--stop'])).stdout).toBe('no board server running\n');
  });
});
