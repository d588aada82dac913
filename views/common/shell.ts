/**
 * The runtime every pm view shares (MCP Apps 2026-01-26 §Lifecycle; seed 000 "MCP Apps"): the
 * official `App` for the handshake and every host notification, the host's theme, styles,
 * fonts, locale and insets, the states of one tool call (waiting, receiving arguments, result,
 * error, cancelled, torn down), the text fallback, and drill-down pages fed by read-only tools
 * the host calls on the view's behalf. Nothing is stored anywhere: a view's state lives in this
 * page and ends with it.
 */
import { App, applyDocumentTheme, applyHostFonts, applyHostStyleVariables, type McpUiHostContext } from '@modelcontextprotocol/ext-apps';
import { PM_MCP_APP_CONTRACTS, type PmMcpAppContract, type PmMcpAppView } from '../../src/domain/apps/app-contracts.js';
import { h, replaceChildren } from './dom.js';
import { setLocale } from './format.js';
import { isCanonical, resultValue } from './pm-data.js';

/** The part of a `CallToolResult` a view reads. */
export interface ToolResult {
  readonly content?: readonly { readonly type: string; readonly text?: string }[];
  readonly structuredContent?: unknown;
  readonly isError?: boolean;
}

/** What a page's renderer can do. */
export interface ViewContext {
  /** The arguments of the call the view renders (empty until the host sends them). */
  readonly args: Readonly<Record<string, unknown>>;
  /** True when this view may ask the host to call `tool` (a read-only drill-down tool the host lets views call). */
  canCall(tool: string): boolean;
  /** Opens a drill-down page: asks the host to call `tool` and renders its result with `render`. */
  drill<T>(request: DrillRequest<T>): void;
  /** Calls a drill-down tool and hands back its result (for in-place updates such as "load more"); read its data with `resultValue`. */
  call(tool: string, args: Record<string, unknown>): Promise<ToolResult>;
  /** Re-renders the current page (after an in-place update), then focuses the control with `data-focus="<focus>"`. */
  refresh(focus?: string): void;
  /** Announces a short message in the live region. */
  announce(message: string): void;
}

/** One drill-down: the call, how to read its result, how to render it. */
export interface DrillRequest<T> {
  readonly title: string;
  readonly tool: string;
  readonly args: Record<string, unknown>;
  readonly parse: (structured: unknown) => T | undefined;
  readonly render: (data: T, ctx: ViewContext) => Node;
  /** The `data-focus` key of the control that opened it (focus returns there on Back). */
  readonly from?: string;
}

/** What a view supplies. */
export interface ViewSpec<T> {
  readonly view: PmMcpAppView;
  readonly parse: (structured: unknown) => T | undefined;
  readonly render: (data: T, ctx: ViewContext) => Node;
  /** A line under the title describing the call (its arguments). */
  readonly describe?: (args: Readonly<Record<string, unknown>>) => string | undefined;
}

/** What each view shows, in words, under its title (tool names are for models, not for people). */
const SUBTITLES: Record<PmMcpAppView, string> = {
  context: 'The project at a glance',
  board: 'Items by status',
  item: 'One item in full',
  graph: 'How items depend on each other',
  history: 'Every recorded change',
};

type PageState = { kind: 'loading'; note: string } | { kind: 'ready'; node: () => Node } | { kind: 'error'; message: string; text: string } | { kind: 'cancelled'; reason: string | undefined };

interface Page {
  readonly title: string;
  readonly from: string | undefined;
  state: PageState;
  text: string;
}

const textOf = (result: ToolResult): string =>
  (result.content ?? [])
    .filter((c) => c.type === 'text' && typeof c.text === 'string')
    .map((c) => c.text)
    .join('\n');

/**
 * The text version of a result: pm's own text, or, when a host negotiated canonical results
 * (whose text is only a pointer to `structuredContent.result`), that value as JSON — the text
 * stays worth reading either way.
 */
const fallbackOf = (result: ToolResult): string => (!result.isError && isCanonical(result.structuredContent) ? JSON.stringify(result.structuredContent.result, null, 2) : textOf(result));

/** Starts a view: registers every handler, then connects (handlers first, so no notification is missed). */
export function startView<T>(spec: ViewSpec<T>): App {
  const contract = PM_MCP_APP_CONTRACTS.find((c) => c.view === spec.view)!;
  const root = document.getElementById('pm-app') ?? document.body.appendChild(h('main', { id: 'pm-app' }));
  const app = new App({ name: `pm-${spec.view}-view`, version: '1.0.0' }, { availableDisplayModes: ['inline'] });
  const shell = new Shell(app, contract, spec, root);
  app.ontoolinputpartial = (params) => shell.partial(params.arguments ?? {});
  app.ontoolinput = (params) => shell.input(params.arguments ?? {});
  app.ontoolresult = (result) => shell.result(result as ToolResult);
  app.ontoolcancelled = (params) => shell.cancelled(params.reason);
  app.onhostcontextchanged = () => shell.applyHostContext(app.getHostContext() ?? {});
  app.onteardown = async () => {
    shell.teardown();
    return {};
  };
  shell.render();
  app.connect().then(
    () => shell.applyHostContext(app.getHostContext() ?? {}),
    (error: unknown) => shell.fail(`The view could not connect to its host: ${error instanceof Error ? error.message : String(error)}`),
  );
  return app;
}

class Shell<T> {
  private args: Record<string, unknown> = {};
  private pages: Page[] = [];
  private closed = false;
  private readonly live = h('p', { class: 'pm-live pm-sr', role: 'status', 'aria-live': 'polite' });
  private readonly view = h('div', { class: 'pm-view' });
  private pendingFocus: 'page' | string | undefined;
  private readonly ctx: ViewContext;

  constructor(
    private readonly app: App,
    private readonly contract: PmMcpAppContract,
    private readonly spec: ViewSpec<T>,
    private readonly root: HTMLElement,
  ) {
    this.pages = [{ title: contract.title, from: undefined, state: { kind: 'loading', note: `Waiting for ${contract.tool}…` }, text: '' }];
    const ctx: Omit<ViewContext, 'args'> = {
      canCall: (tool) => this.canCall(tool),
      drill: (request) => this.drill(request),
      call: (tool, args) => this.call(tool, args),
      refresh: (focus) => {
        this.pendingFocus = focus;
        this.render();
      },
      announce: (message) => this.announce(message),
    };
    // The arguments are read when a page renders: the host may send them after the view started.
    this.ctx = Object.defineProperty(ctx, 'args', { get: () => this.args, enumerable: true }) as ViewContext;
  }

  partial(args: Record<string, unknown>): void {
    if (this.pages[0]!.state.kind !== 'loading') return;
    this.args = args;
    this.rootPage({ kind: 'loading', note: `Receiving the arguments of ${this.contract.tool}…` });
  }

  input(args: Record<string, unknown>): void {
    this.args = args;
    if (this.pages[0]!.state.kind === 'loading') this.rootPage({ kind: 'loading', note: `Running ${this.contract.tool}…` });
    else this.render();
  }

  result(result: ToolResult): void {
    this.pages = [this.pages[0]!];
    this.pages[0]!.text = fallbackOf(result);
    this.rootPage(this.pageState(result, this.spec.parse, this.spec.render));
    this.announce(result.isError ? `${this.contract.tool} failed` : `${this.contract.title} updated`);
  }

  cancelled(reason: string | undefined): void {
    if (this.pages[0]!.state.kind === 'ready') {
      this.announce(`A later ${this.contract.tool} call was cancelled; this is the last result.`);
      return;
    }
    this.rootPage({ kind: 'cancelled', reason });
    this.announce(`${this.contract.tool} was cancelled`);
  }

  fail(message: string): void {
    this.rootPage({ kind: 'error', message, text: '' });
  }

  teardown(): void {
    this.closed = true;
    this.pages = [];
    replaceChildren(this.root, h('p', { class: 'pm-status', role: 'status' }, 'This view was closed.'));
  }

  applyHostContext(context: McpUiHostContext): void {
    if (context.theme === 'light' || context.theme === 'dark') applyDocumentTheme(context.theme);
    if (context.styles?.variables) applyHostStyleVariables(context.styles.variables);
    if (context.styles?.css?.fonts) applyHostFonts(context.styles.css.fonts);
    setLocale({ locale: context.locale, timeZone: context.timeZone });
    const style = document.documentElement.style;
    const insets = context.safeAreaInsets;
    for (const side of ['top', 'right', 'bottom', 'left'] as const) style.setProperty(`--pm-inset-${side}`, `${insets?.[side] ?? 0}px`);
    const dimensions = (context.containerDimensions ?? {}) as { height?: number };
    document.documentElement.toggleAttribute('data-fixed-height', typeof dimensions.height === 'number');
    if (context.locale) document.documentElement.lang = context.locale;
    if (!this.closed) this.render();
  }

  private canCall(tool: string): boolean {
    return this.contract.drillDown.includes(tool as never) && this.app.getHostCapabilities()?.serverTools !== undefined;
  }

  private async call(tool: string, args: Record<string, unknown>): Promise<ToolResult> {
    // Only the contract's read-only drill-down tools, whatever a caller asks for.
    if (!this.contract.drillDown.includes(tool as never)) throw new Error(`the ${this.contract.view} view does not call ${tool}`);
    if (!this.canCall(tool)) throw new Error('this host does not let views call tools');
    return (await this.app.callServerTool({ name: tool, arguments: args })) as ToolResult;
  }

  private drill<D>(request: DrillRequest<D>): void {
    const page: Page = { title: request.title, from: request.from, state: { kind: 'loading', note: `Loading ${request.title}…` }, text: '' };
    this.pages.push(page);
    this.pendingFocus = 'page';
    this.render();
    this.announce(`Loading ${request.title}`);
    this.call(request.tool, request.args).then(
      (result) => {
        page.text = fallbackOf(result);
        page.state = this.pageState(result, request.parse, request.render);
        if (this.pages.at(-1) === page) {
          this.pendingFocus = 'page';
          this.render();
          this.announce(`${request.title} loaded`);
        }
      },
      (error: unknown) => {
        page.state = { kind: 'error', message: `${request.tool} could not be called: ${error instanceof Error ? error.message : String(error)}`, text: '' };
        if (this.pages.at(-1) === page) this.render();
      },
    );
  }

  private pageState<D>(result: ToolResult, parse: (s: unknown) => D | undefined, render: (data: D, ctx: ViewContext) => Node): PageState {
    if (result.isError) return { kind: 'error', message: 'pm refused the call:', text: textOf(result) };
    const data = parse(resultValue(result.structuredContent));
    if (data === undefined) return { kind: 'error', message: 'This result carries no data this view can draw; this is the text pm returned:', text: fallbackOf(result) };
    return { kind: 'ready', node: () => render(data, this.ctx) };
  }

  private rootPage(state: PageState): void {
    this.pages[0]!.state = state;
    this.render();
  }

  private back(): void {
    const page = this.pages.pop();
    this.pendingFocus = page?.from;
    this.render();
  }

  private announce(message: string): void {
    this.live.textContent = message;
  }

  /** Draws the current page. */
  render(): void {
    if (this.closed) return;
    const page = this.pages.at(-1)!;
    const depth = this.pages.length;
    const describe = this.spec.describe?.(this.args);
    if (this.view.parentNode !== this.root) replaceChildren(this.root, this.view, this.live);
    replaceChildren(
      this.view,
      h('header', { class: 'pm-head' }, h('h1', null, this.contract.title), h('p', { class: 'pm-sub' }, SUBTITLES[this.contract.view], describe ? ` · ${describe}` : '')),
      depth > 1 &&
        h(
          'nav',
          { class: 'pm-crumbs', 'aria-label': 'Drill-down' },
          h('button', { type: 'button', class: 'pm-button pm-back', onclick: () => this.back() }, `← Back to ${this.pages[depth - 2]!.title}`),
          h('span', { class: 'pm-trail' }, this.pages.map((p) => p.title).join(' › ')),
        ),
      h('section', { class: 'pm-page', 'aria-busy': page.state.kind === 'loading' ? 'true' : undefined, 'aria-label': page.title }, this.pageBody(page)),
      page.text && page.state.kind !== 'error' && h('details', { class: 'pm-fallback' }, h('summary', null, 'Text version'), h('pre', null, page.text)),
    );
    this.restoreFocus();
  }

  private pageBody(page: Page): Node | Node[] {
    const state = page.state;
    switch (state.kind) {
      case 'loading':
        return h('p', { class: 'pm-status pm-loading' }, state.note);
      case 'cancelled':
        return h('div', { class: 'pm-notice pm-cancelled', role: 'alert' }, h('h2', null, 'Cancelled'), h('p', null, `${this.contract.tool} was cancelled${state.reason ? `: ${state.reason}` : ''}. Nothing was changed; ask again to see the result.`));
      case 'error':
        return h('div', { class: 'pm-notice pm-error', role: 'alert' }, h('h2', null, 'No view for this result'), h('p', null, state.message), state.text && h('pre', { class: 'pm-error-text' }, state.text));
      case 'ready':
        return state.node();
    }
  }

  private restoreFocus(): void {
    const target = this.pendingFocus;
    this.pendingFocus = undefined;
    if (target === undefined) return;
    const el = target === 'page' ? this.view.querySelector<HTMLElement>('.pm-page h2, .pm-page h3') : this.view.querySelector<HTMLElement>(`[data-focus="${CSS.escape(target)}"]`);
    if (!el) return;
    if (target === 'page' && !el.hasAttribute('tabindex')) el.setAttribute('tabindex', '-1');
    el.focus();
  }
}
