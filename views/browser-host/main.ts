/**
 * The live board in the browser (docs/APPS.md "The board in the browser"): the page
 * pm-mcp-http serves at `/`, an MCP Apps host of its own. It reads the negotiated tools/list
 * and the `ui://` documents from the server's endpoint, mounts the view of the current place in
 * an `<iframe sandbox="allow-scripts">` through the official AppBridge, delivers the tool's
 * input and result, proxies the view's drill-down calls (read-only tools only), and keeps the
 * view current through `subscriptions/listen`.
 */
import './board.css';
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { McpUiHostContext } from '@modelcontextprotocol/ext-apps/app-bridge';
import { AuthorizationNeeded, McpFetchClient, type ToolEntry } from './mcp-fetch-client.js';
import { hashOf, routeOf, type Route } from './routes.js';

type CallResult = { content: { type: string; text?: string }[]; structuredContent?: Record<string, unknown>; isError?: boolean };

const client = new McpFetchClient(document.body.dataset.mcpPath ?? '/mcp');
const nav = document.getElementById('pm-board-nav')!;
const main = document.getElementById('pm-board-view')!;
const liveStatus = document.getElementById('pm-board-live')!;
let tools: ToolEntry[] = [];
let mounted: { bridge: AppBridge; frame: HTMLIFrameElement; route: Route; drilled: boolean } | undefined;
let listening: AbortController | undefined;

const el = <K extends keyof HTMLElementTagNameMap>(tag: K, props: Record<string, string> = {}, ...children: (Node | string)[]) => {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) node.setAttribute(key, value);
  node.append(...children);
  return node;
};

/** A view may call a tool only when the server marks it read-only and visible to apps. */
function readOnlyForViews(name: string): boolean {
  const tool = tools.find((t) => t.name === name);
  return !!tool && tool.annotations?.readOnlyHint === true && (tool._meta?.ui?.visibility ?? ['model', 'app']).includes('app');
}

function hostContext(): McpUiHostContext {
  const dark = window.matchMedia('(prefers-color-scheme: dark)').matches;
  return { theme: dark ? 'dark' : 'light', displayMode: 'inline', availableDisplayModes: ['inline'], locale: navigator.language, timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone, platform: 'web' };
}

async function callTool(name: string, args: Record<string, unknown>): Promise<CallResult> {
  return (await client.request('tools/call', { name, arguments: args })) as unknown as CallResult;
}

function renderNav(current: Route): void {
  const links: [Route['view'], string, string][] = [
    ['context', 'Dashboard', 'pm_context'],
    ['board', 'Board', 'pm_list'],
    ['graph', 'Graph', 'pm_graph'],
  ];
  const list = el('ul');
  for (const [view, label, tool] of links) {
    if (!tools.some((t) => t.name === tool)) continue;
    const link = el('a', { href: hashOf({ view, args: {} }) }, label);
    if (current.view === view) link.setAttribute('aria-current', 'page');
    list.append(el('li', {}, link));
  }
  const input = el('input', { id: 'pm-board-item', name: 'item', autocomplete: 'off', spellcheck: 'false', placeholder: 'pm-…', size: '12' });
  if (typeof current.args.id === 'string') input.value = current.args.id;
  const form = el('form', { class: 'pm-board-open', role: 'search', 'aria-label': 'Open an item' }, el('label', { for: 'pm-board-item' }, 'Item id'), input, el('button', { type: 'submit', value: 'item' }, 'Open item'));
  if (tools.some((t) => t.name === 'pm_history')) form.append(el('button', { type: 'submit', value: 'history' }, 'History'));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const id = input.value.trim();
    const submitter = (event as SubmitEvent).submitter as HTMLButtonElement | null;
    if (id) location.hash = hashOf({ view: submitter?.value === 'history' ? 'history' : 'item', args: { id } });
  });
  nav.replaceChildren(list, form);
}

async function unmount(): Promise<void> {
  const current = mounted;
  mounted = undefined;
  if (!current) return;
  await current.bridge.teardownResource({}).catch(() => undefined);
  await current.bridge.close().catch(() => undefined);
  current.frame.remove();
}

/** Shows the view of `route`: its document, the handshake, the tool's input, then its result. */
async function show(route: Route, focus: boolean): Promise<void> {
  renderNav(route);
  await unmount();
  const tool = tools.find((t) => t.name === route.tool);
  const uri = tool?._meta?.ui?.resourceUri;
  if (!tool || !uri) {
    main.replaceChildren(el('h1', {}, route.label), el('p', { class: 'pm-board-note' }, `This server's profile has no ${route.tool}; start it with PM_MCP_PROFILE=full to see this view.`));
    return;
  }
  const read = await client.request('resources/read', { uri });
  const html = ((read.contents as { text?: string }[] | undefined)?.[0]?.text ?? '') as string;
  const frame = el('iframe', { sandbox: 'allow-scripts', title: `${route.label} (pm view)`, class: 'pm-board-frame' });
  main.replaceChildren(el('h1', { class: 'pm-sr' }, route.label), frame);
  const bridge = new AppBridge(null, { name: 'pm-browser-board', version: '1.0.0' }, { serverTools: {}, logging: {} }, { hostContext: hostContext() });
  const state = { bridge, frame, route, drilled: false };
  mounted = state;
  bridge.oncalltool = async (params) => {
    if (!readOnlyForViews(params.name)) throw new Error(`${params.name} is not available on the live board: it only reads`);
    state.drilled = true;
    return (await callTool(params.name, params.arguments ?? {})) as never;
  };
  bridge.onsizechange = ({ height }) => {
    if (height !== undefined) frame.style.height = `${Math.ceil(height)}px`;
  };
  bridge.onopenlink = async () => ({ isError: true });
  bridge.onmessage = async () => ({ isError: true });
  const initialized = new Promise<void>((resolve) => (bridge.oninitialized = () => resolve()));
  await bridge.connect(new PostMessageTransport(frame.contentWindow!, frame.contentWindow!));
  frame.srcdoc = html;
  await initialized;
  if (mounted !== state) return;
  await bridge.sendToolInput({ arguments: route.args });
  await bridge.sendToolResult((await callTool(route.tool, route.args)) as never);
  if (focus) frame.focus();
}

/** Re-runs the mounted view's tool and delivers the new result (the view redraws its first page). */
async function refresh(): Promise<void> {
  const current = mounted;
  if (!current) return;
  if (current.drilled) {
    announce('Changes arrived. ', el('button', { type: 'button', class: 'pm-board-refresh' }, 'Show them'));
    liveStatus.querySelector('button')?.addEventListener('click', () => void show(current.route, true));
    return;
  }
  const result = await callTool(current.route.tool, current.route.args);
  if (mounted === current) await current.bridge.sendToolResult(result as never);
  announce(`Live · updated ${new Date().toLocaleTimeString()}`);
}

function announce(...parts: (Node | string)[]): void {
  liveStatus.replaceChildren(...parts);
}

/** Follows every item change of the tracker; reconnects after a dropped stream. */
function listen(): void {
  listening?.abort();
  const controller = new AbortController();
  listening = controller;
  let pending: ReturnType<typeof setTimeout> | undefined;
  const onChange = () => {
    clearTimeout(pending);
    pending = setTimeout(() => void refresh().catch((error: unknown) => announce(`Update failed: ${(error as Error).message}`)), 100);
  };
  client
    .listen({ resourcesListChanged: true, resourceSubscriptions: ['pm://items'] }, (message) => {
      if (message.method === 'notifications/subscriptions/acknowledged') {
        announce('Live');
        document.body.dataset.live = 'on';
      } else if (message.method) onChange();
    }, controller.signal)
    .catch((error: unknown) => {
      if (controller.signal.aborted) return;
      announce(error instanceof AuthorizationNeeded ? error.message : 'Live updates paused; reconnecting…');
    })
    .finally(() => {
      document.body.dataset.live = 'off';
      if (!controller.signal.aborted) setTimeout(listen, 2_000);
    });
}

/** Asks for a token when the server requires one; it stays in this page's memory only. */
function askForToken(message: string): void {
  const input = el('input', { id: 'pm-board-token', type: 'password', autocomplete: 'off', required: '' });
  const form = el('form', { class: 'pm-board-token' }, el('h1', {}, 'Access token'), el('p', {}, message, ' Paste a token with the read scope (docs/AUTH.md); it is kept in this tab only and sent in the Authorization header.'), el('label', { for: 'pm-board-token' }, 'Token'), input, el('button', { type: 'submit' }, 'Connect'));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    client.token = input.value.trim();
    void start();
  });
  main.replaceChildren(form);
  input.focus();
}

async function start(): Promise<void> {
  try {
    tools = await client.listTools();
  } catch (error) {
    if (error instanceof AuthorizationNeeded) return askForToken(error.message);
    main.replaceChildren(el('p', { class: 'pm-board-note', role: 'alert' }, `The server did not answer: ${(error as Error).message}`));
    return;
  }
  listen();
  await show(routeOf(location.hash), false);
}

window.addEventListener('hashchange', () => void show(routeOf(location.hash), true).catch((error: unknown) => announce(`Could not open the view: ${(error as Error).message}`)));
void start();
