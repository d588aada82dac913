/**
 * One browser host and two real pm servers for a browser test file: a small realistic project
 * and a large one (more items than pm_list and pm_graph return in one call). `show` renders a
 * view the way an Apps host does: negotiated tools/list, the tool's ui:// resource, the
 * handshake, the tool input, then the real tool result; drill-down calls from the view go to
 * the server that produced the result.
 */
import type { Frame } from 'playwright-core';
import { PM_MCP_APP_CONTRACTS, type PmMcpAppView } from '../../../src/domain/apps/app-contracts.js';
import { BrowserHost } from './browser-host.js';
import { seedLargeProject, seedProject, serveProject, type CallResult, type ServedProject, type SmallProjectIds } from './pm-project.js';

export interface ShowOptions {
  readonly project?: ServedProject<string>;
  readonly width?: number;
  readonly hostContext?: Record<string, unknown>;
  /** What the host offers the view (default: server tools, links, logging). */
  readonly hostCapabilities?: Record<string, unknown>;
  /** A result to deliver instead of calling the tool (for results pm itself never produces). */
  readonly result?: CallResult;
}

export interface AppsFixture {
  readonly small: ServedProject<SmallProjectIds>;
  readonly large: ServedProject<'first' | 'last'>;
  readonly host: BrowserHost;
  /** Renders `view` for a real call of its tool with `args`; resolves once the result is drawn. */
  show(view: PmMcpAppView, args?: Record<string, unknown>, options?: ShowOptions): Promise<Frame>;
  /** Mounts `view` and completes the handshake only. */
  mount(view: PmMcpAppView, options?: ShowOptions): Promise<Frame>;
}

/** Starts everything in a `beforeAll`; the returned getter is valid inside tests. */
export function useAppsFixture(): () => AppsFixture {
  let fixture: AppsFixture | undefined;
  let small: ServedProject<SmallProjectIds> | undefined;
  let large: ServedProject<'first' | 'last'> | undefined;
  let host: BrowserHost | undefined;
  beforeAll(async () => {
    [small, large] = await Promise.all([serveProject('pm-apps-small-', seedProject), serveProject('pm-apps-large-', (t) => seedLargeProject(t))]);
    let current: ServedProject<string> = small!;
    host = await BrowserHost.open((name, args) => current.client.call(name, args));
    const mount = async (view: PmMcpAppView, options: ShowOptions = {}) => {
      const project = options.project ?? small!;
      current = project;
      const contract = PM_MCP_APP_CONTRACTS.find((c) => c.view === view)!;
      await host!.page.setViewportSize({ width: options.width ?? 1280, height: 900 });
      const document = await project.client.viewOf(contract.tool);
      return host!.mount(document.html, contract.title, project.client.tools, options.hostContext ?? {}, options.hostCapabilities);
    };
    fixture = {
      small,
      large,
      host,
      mount,
      async show(view, args = {}, options = {}) {
        const frame = await mount(view, options);
        const contract = PM_MCP_APP_CONTRACTS.find((c) => c.view === view)!;
        await host!.input(args);
        await host!.result(options.result ?? (await (options.project ?? small!).client.call(contract.tool, args)));
        await frame.waitForSelector('.pm-page:not([aria-busy])');
        await host!.settled();
        return frame;
      },
    };
  }, 120_000);
  afterAll(async () => {
    await host?.close();
    await Promise.all([small?.stop(), large?.stop()]);
  });
  return () => {
    if (!fixture) throw new Error('the apps fixture is used outside a test');
    return fixture;
  };
}

/** The visible text of a view. */
export function textOf(frame: Frame): Promise<string> {
  return frame.evaluate(() => document.body.innerText);
}
