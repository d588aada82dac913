/**
 * The live board pm-mcp-http serves at `/` (docs/APPS.md "The board in the browser"), in real
 * Chromium: the page hosts the five views itself through AppBridge over the server's own MCP
 * endpoint, follows `subscriptions/listen` (a `pm close` from another process redraws the
 * board), is reachable by keyboard, has no axe violation, reaches no mutating tool, and sends
 * nothing beyond its own origin. Screenshots go to .ci/artifacts/apps/ (PM_APPS_ARTIFACTS).
 */
import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { chromium, type Browser, type Frame, type Page } from 'playwright-core';
import { AXE_SOURCE, chromiumPath } from './support/browser-host.js';
import { seedProject, serveProject, type ServedProject, type SmallProjectIds } from './support/pm-project.js';

const ARTIFACTS = resolve(process.env.PM_APPS_ARTIFACTS ?? fileURLToPath(new URL('../../.ci/artifacts/apps/', import.meta.url)));
const PM_BIN = fileURLToPath(new URL('../../bin/pm.cjs', import.meta.url));

interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly nodes: { readonly target: unknown }[];
}

async function axe(target: Page | Frame): Promise<AxeViolation[]> {
  // Evaluated through the debugger, not as an inline script, which the page's policy refuses.
  await target.evaluate(AXE_SOURCE);
  const result = await target.evaluate(async () => {
    const run = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: AxeViolation[] }> } }).axe.run;
    return run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] }, resultTypes: ['violations'] });
  });
  return result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => ({ target: n.target })) }));
}

let project: ServedProject<SmallProjectIds>;
let browser: Browser;
let page: Page;
let origin: string;
const foreignRequests: string[] = [];
const cspViolations: string[] = [];
const pageErrors: string[] = [];
const mcpMethods: string[] = [];

beforeAll(async () => {
  project = await serveProject('pm-live-board-', seedProject);
  origin = new URL(project.client.url).origin;
  browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: ['--no-sandbox', '--no-first-run', '--disable-extensions', '--disable-features=IsolateSandboxedIframes'] });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1, colorScheme: 'light' });
  page = await context.newPage();
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(`${origin}/`) && !url.startsWith('about:') && !url.startsWith('data:')) foreignRequests.push(url);
    if (url === project.client.url) {
      const body = request.postDataJSON() as { method?: string; params?: { name?: string } } | null;
      if (body?.method) mcpMethods.push(body.method === 'tools/call' ? `tools/call ${body.params?.name}` : body.method);
    }
  });
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) cspViolations.push(message.text());
  });
  page.on('pageerror', (error) => pageErrors.push(error.message));
  mkdirSync(ARTIFACTS, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await project?.stop();
});

/** The mounted view's frame once it has drawn `selector`. */
async function view(selector: string): Promise<Frame> {
  for (let attempt = 0; ; attempt++) {
    const frame = await (await page.waitForSelector('iframe.pm-board-frame')).contentFrame();
    try {
      if (frame) {
        await frame.waitForSelector(selector, { timeout: 20_000 });
        return frame;
      }
    } catch (error) {
      if (attempt > 3 || !frame?.isDetached()) throw error;
    }
  }
}

/** Loads the page afresh at `place` (a fragment alone would only change the hash). */
async function open(place: string): Promise<void> {
  await page.goto('about:blank');
  await page.goto(`${origin}/${place}`);
}

const columnOf = (frame: Frame, id: string) => frame.evaluate((i) => document.querySelector(`[data-focus="board:${i}"]`)?.closest<HTMLElement>('.pm-column')?.dataset.status ?? 'absent', id);

test('the page opens on the dashboard, and the board follows a close made by another process', async () => {
  await open('');
  await view('.pm-view h2, .pm-view table');
  expect(await page.locator('#pm-board-nav a[aria-current="page"]').textContent()).toBe('Dashboard');
  await page.screenshot({ path: join(ARTIFACTS, 'browser-board-context-1280.png') });

  await page.click('#pm-board-nav a[href="#/board"]');
  await page.waitForURL(`${origin}/#/board`);
  let frame = await view(`[data-focus="board:${project.ids.perf}"]`);
  await page.waitForSelector('body[data-live="on"]');
  const before = await columnOf(frame, project.ids.perf);
  expect(before).not.toBe('Closed');
  await page.screenshot({ path: join(ARTIFACTS, 'browser-board-board-1280.png'), fullPage: true });

  await promisify(execFile)(process.execPath, [PM_BIN, 'close', project.ids.perf, '--evidence', 'rates cached in src/rates.ts'], { cwd: project.dir, env: { ...process.env, HOME: project.dir, PM_ACTOR: 'dave' } });
  frame = await view('.pm-column');
  // Wait for the column to change from the one seen before the close (the status is the key, e.g. `open`).
  await frame.waitForFunction(([i, was]) => (document.querySelector(`[data-focus="board:${i}"]`)?.closest<HTMLElement>('.pm-column')?.dataset.status ?? 'absent') !== was, [project.ids.perf, before] as const, { timeout: 15_000 });
  expect(await columnOf(frame, project.ids.perf)).not.toBe(before);
  // The status line is written once the redraw has been delivered, so wait for it too.
  await page.waitForFunction(() => /updated/.test(document.getElementById('pm-board-live')?.textContent ?? ''), undefined, { timeout: 15_000 });
});

test('every view is reached by keyboard: the nav links, the item field and its buttons, then into the view', async () => {
  await open('#/context');
  await view('.pm-view');
  const focused = () => page.evaluate(() => (document.activeElement?.tagName === 'IFRAME' ? 'the view' : document.activeElement?.textContent?.trim() ?? ''));
  // Skip link first, then the nav in order; choosing a view moves focus into it.
  await page.keyboard.press('Tab');
  expect(await focused()).toBe('Skip to the view');
  await page.keyboard.press('Tab');
  expect(await focused()).toBe('Dashboard');
  await page.keyboard.press('Tab');
  expect(await focused()).toBe('Board');
  await page.keyboard.press('Enter');
  await page.waitForURL(/#\/board$/);
  let frame = await view('.pm-column');
  expect(await focused()).toBe('the view');
  // Inside the view, Tab reaches its cards and Enter opens one (the view's own drill-down).
  await page.keyboard.press('Tab');
  const card = await frame.evaluate(() => document.activeElement?.getAttribute('data-focus') ?? document.activeElement?.tagName);
  expect(card).toMatch(/^board:|BUTTON/);

  await page.focus('#pm-board-nav a[href="#/graph"]');
  await page.keyboard.press('Enter');
  await page.waitForURL(/#\/graph$/);
  await view('.pm-graph');
  await page.screenshot({ path: join(ARTIFACTS, 'browser-board-graph-1280.png'), fullPage: true });

  await page.focus('#pm-board-item');
  await page.keyboard.type(project.ids.api);
  await page.keyboard.press('Enter');
  await page.waitForURL(`${origin}/#/item/${project.ids.api}`);
  frame = await view('.pm-item');
  await page.screenshot({ path: join(ARTIFACTS, 'browser-board-item-1280.png'), fullPage: true });

  await page.focus('#pm-board-item');
  await page.keyboard.press('Tab');
  expect(await focused()).toBe('Open item');
  await page.keyboard.press('Tab');
  expect(await focused()).toBe('History');
  await page.keyboard.press('Enter');
  await page.waitForURL(`${origin}/#/history/${project.ids.api}`);
  await view('.pm-history');
  await page.screenshot({ path: join(ARTIFACTS, 'browser-board-history-1280.png'), fullPage: true });

  // The browser's Back returns to the item.
  await page.goBack();
  await view('.pm-item');
});

test('axe finds no violation on the page or in the mounted view', async () => {
  for (const place of ['#/context', '#/board']) {
    await open(place);
    const frame = await view('.pm-view');
    await page.waitForSelector('body[data-live="on"]');
    expect(await axe(page)).toEqual([]);
    expect((await axe(frame)).filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
  }
});

test('a view reaches no mutating tool, and nothing leaves the origin or hits the policy', async () => {
  await open('#/board');
  const frame = await view('.pm-column');
  const refused = await frame.evaluate(async () => {
    // A raw ui tools/call posted to the host, as a hostile view would.
    return new Promise<string>((resolve) => {
      window.addEventListener('message', (event) => {
        const data = event.data as { id?: number; error?: { message: string }; result?: unknown };
        if (data?.id === 9001) resolve(data.error ? `error: ${data.error.message}` : 'answered');
      });
      window.parent.postMessage({ jsonrpc: '2.0', id: 9001, method: 'tools/call', params: { name: 'pm_close', arguments: { id: 'x', evidence: 'y' } } }, '*');
    });
  });
  expect(refused).toMatch(/^error: .*pm_close is not available/);
  expect(mcpMethods.filter((m) => m.startsWith('tools/call') && !/pm_(context|list|get|graph|history)$/.test(m))).toEqual([]);
  expect(foreignRequests).toEqual([]);
  expect(cspViolations).toEqual([]);
  expect(pageErrors).toEqual([]);
});
