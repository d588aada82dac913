/**
 * Drives the MCP Apps test host (test/browser/host/host.ts) in a real headless Chromium: the
 * system's Debian `chromium` (scripts/install-chromium.sh) through playwright-core's
 * executablePath, never a downloaded browser. The host page is bundled here with esbuild and
 * loaded with setContent, so the page itself fetches nothing: every network request the
 * browser sees, and every Content-Security-Policy refusal it logs, came from a view.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import esbuild from 'esbuild';
import { chromium, type Browser, type BrowserContext, type Frame, type Page } from 'playwright-core';
import type { CallResult } from './pm-project.js';

const HOST_ENTRY = fileURLToPath(new URL('../host/host.ts', import.meta.url));

/** The Chromium to drive: $PM_CHROMIUM, else chromium (or chromium-browser) on PATH. */
export function chromiumPath(): string {
  const named = process.env.PM_CHROMIUM;
  if (named) {
    if (!existsSync(named)) throw new Error(`PM_CHROMIUM=${named} does not exist`);
    return named;
  }
  for (const name of ['chromium', 'chromium-browser']) {
    try {
      const path = execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim();
      if (path) return path;
    } catch {
      // not on PATH
    }
  }
  throw new Error('No Chromium found: run scripts/install-chromium.sh (Debian: apt-get install chromium), or set PM_CHROMIUM to a Chromium binary');
}

/** The host page: the bundled host script inlined into a small document. */
export async function hostPageHtml(): Promise<string> {
  const result = await esbuild.build({ entryPoints: [HOST_ENTRY], bundle: true, minify: true, format: 'iife', platform: 'browser', target: 'es2022', write: false, logLevel: 'error' });
  const script = result.outputFiles[0]!.text.replace(/<(?=\/script|!--)/gi, '\\x3C');
  return [
    '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>pm MCP Apps test host</title>',
    '<style>body{margin:0;background:#888}#host{display:block}iframe{display:block;width:100%;border:0;height:80px;background:transparent}</style>',
    `</head><body><main id="host"></main><script>${script}</script></body></html>`,
  ].join('');
}

/** What a view sends back through the host, as recorded in the page. */
export interface HostEvent {
  readonly type: string;
  readonly [key: string]: unknown;
}

/** One browser, one host page, any number of views mounted in turn. */
export class BrowserHost {
  readonly requests: string[] = [];
  readonly cspViolations: string[] = [];
  readonly pageErrors: string[] = [];
  readonly consoleErrors: string[] = [];
  private constructor(
    readonly browser: Browser,
    readonly context: BrowserContext,
    readonly page: Page,
  ) {}

  /** Launches Chromium and loads the host page; `callTool` serves the views' tools/call. */
  static async open(callTool: (name: string, args: Record<string, unknown>) => Promise<CallResult>): Promise<BrowserHost> {
    // --no-sandbox: Chromium's own process sandbox needs a non-root user (CI runs as root).
    // IsolateSandboxedIframes off: the sandboxed view renders in the host page's process, so a
    // screenshot of the page always holds the view's latest paint (a view in its own process
    // may not have delivered its frame yet). The iframe sandbox itself is unchanged: opaque
    // origin, scripts only.
    const browser = await chromium.launch({
      executablePath: chromiumPath(),
      headless: true,
      args: ['--no-sandbox', '--no-first-run', '--disable-extensions', '--disable-features=IsolateSandboxedIframes'],
    });
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1, reducedMotion: 'no-preference', colorScheme: 'light' });
    const page = await context.newPage();
    const host = new BrowserHost(browser, context, page);
    // Nothing may leave a view: every request is recorded and refused.
    await context.route('**/*', (route) => {
      host.requests.push(route.request().url());
      return route.abort('blockedbyclient');
    });
    page.on('request', (request) => {
      if (!host.requests.includes(request.url())) host.requests.push(request.url());
    });
    page.on('console', (message) => {
      const text = message.text();
      if (/Content Security Policy|Refused to (connect|load|execute|frame)/i.test(text)) host.cspViolations.push(text);
      else if (message.type() === 'error') host.consoleErrors.push(text);
    });
    page.on('pageerror', (error) => host.pageErrors.push(error.message));
    await page.exposeFunction('pmHostCallTool', callTool);
    await page.setContent(await hostPageHtml());
    return host;
  }

  /** Mounts a view and waits for its `ui/notifications/initialized`. */
  async mount(html: string, title: string, tools: readonly unknown[], hostContext: Record<string, unknown> = {}, hostCapabilities?: Record<string, unknown>): Promise<Frame> {
    const options = { html, title, tools, hostContext: { theme: 'light', displayMode: 'inline', availableDisplayModes: ['inline'], locale: 'en-US', timeZone: 'UTC', platform: 'web', ...hostContext }, ...(hostCapabilities ? { hostCapabilities } : {}) };
    await this.page.evaluate((o) => window.pmHost.mount(o as never), options);
    return this.viewFrame();
  }

  /** The mounted view's frame. */
  async viewFrame(): Promise<Frame> {
    const handle = await this.page.waitForSelector('iframe.pm-view-frame');
    const frame = await handle.contentFrame();
    if (!frame) throw new Error('the view iframe has no frame');
    return frame;
  }

  input(args: Record<string, unknown>): Promise<void> {
    return this.page.evaluate((a) => window.pmHost.input(a), args);
  }

  partial(args: Record<string, unknown>): Promise<void> {
    return this.page.evaluate((a) => window.pmHost.partial(a), args);
  }

  result(result: CallResult): Promise<void> {
    return this.page.evaluate((r) => window.pmHost.result(r as never), result);
  }

  cancelled(reason?: string): Promise<void> {
    return this.page.evaluate((r) => window.pmHost.cancelled(r), reason);
  }

  teardown(): Promise<Record<string, unknown>> {
    return this.page.evaluate(() => window.pmHost.teardown());
  }

  events(): Promise<HostEvent[]> {
    return this.page.evaluate(() => window.pmHost.events as never);
  }

  /** Sets a host context member (a theme change, new style variables, …). */
  changeContext(partial: Record<string, unknown>): Promise<void> {
    return this.page.evaluate((c) => window.pmHost.context(c as never), partial);
  }

  /** Waits until the host has sized the iframe to the view's reported height and it stopped changing. */
  async settled(): Promise<void> {
    await this.page.waitForFunction(() => window.pmHost.events.some((e) => e.type === 'size-changed'));
    let last = -1;
    for (let round = 0; round < 60; round++) {
      const height = await this.page.evaluate(() => document.querySelector<HTMLIFrameElement>('iframe.pm-view-frame')!.getBoundingClientRect().height);
      if (height === last) {
        // The view's own frame paints separately (another renderer): let it draw twice.
        const frame = await this.viewFrame();
        await frame.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
        return;
      }
      last = height;
      await this.page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
    }
    throw new Error('the view never stopped resizing');
  }

  async close(): Promise<void> {
    await this.browser.close();
  }
}

/** axe-core's source, injected into a view's frame for a scan. */
export const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
