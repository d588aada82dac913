/**
 * A minimal MCP Apps host for the browser tests, built on the official AppBridge of
 * @modelcontextprotocol/ext-apps (MCP Apps 2026-01-26 §Host Behavior): it loads one `ui://`
 * document into a sandboxed iframe (scripts only: an opaque origin, no storage, no same-origin
 * access), completes the handshake, delivers tool input and results, changes the host context,
 * tears the view down, and proxies the view's tools/call to the test — refusing, as the
 * specification requires of a host, every tool whose `_meta.ui.visibility` lacks "app".
 * Everything it sees is recorded in `events` for the test to read.
 */
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { McpUiHostCapabilities, McpUiHostContext } from '@modelcontextprotocol/ext-apps/app-bridge';

interface ToolEntry {
  readonly name: string;
  readonly _meta?: { readonly ui?: { readonly visibility?: readonly string[] } };
}

type CallResult = { content: { type: string; text?: string }[]; structuredContent?: Record<string, unknown>; isError?: boolean };

export interface HostEvent {
  readonly type: string;
  readonly [key: string]: unknown;
}

interface MountOptions {
  readonly html: string;
  readonly title: string;
  /** The tools/list entries the host saw for the server (negotiated, so with `_meta.ui`). */
  readonly tools: readonly ToolEntry[];
  readonly hostContext: McpUiHostContext;
  /** What the host offers the view (default: server tools, links, logging). */
  readonly hostCapabilities?: McpUiHostCapabilities;
}

declare global {
  interface Window {
    pmHost: PmTestHost;
    /** Exposed by the test (playwright exposeFunction): calls the real pm server. */
    pmHostCallTool(name: string, args: Record<string, unknown>): Promise<CallResult>;
  }
}

class PmTestHost {
  readonly events: HostEvent[] = [];
  private bridge: AppBridge | undefined;
  private iframe: HTMLIFrameElement | undefined;
  private tools: readonly ToolEntry[] = [];
  private hostContext: McpUiHostContext = {};

  /** Loads a view and resolves once it sent `ui/notifications/initialized`. */
  async mount(options: MountOptions): Promise<void> {
    await this.unmount();
    this.events.length = 0;
    this.tools = options.tools;
    this.hostContext = options.hostContext;
    const iframe = document.createElement('iframe');
    iframe.setAttribute('sandbox', 'allow-scripts');
    iframe.title = options.title;
    iframe.className = 'pm-view-frame';
    document.getElementById('host')!.appendChild(iframe);
    this.iframe = iframe;
    const bridge = new AppBridge(null, { name: 'pm-browser-test-host', version: '1.0.0' }, options.hostCapabilities ?? { serverTools: {}, openLinks: {}, logging: {} }, { hostContext: options.hostContext });
    this.bridge = bridge;
    bridge.oncalltool = async (params) => (await this.callTool(params.name, params.arguments ?? {})) as never;
    bridge.onsizechange = ({ height }) => {
      if (height !== undefined && this.iframe) this.iframe.style.height = `${Math.ceil(height)}px`;
      this.events.push({ type: 'size-changed', height });
    };
    bridge.onloggingmessage = (params) => this.events.push({ type: 'log', params });
    bridge.onopenlink = async (params) => {
      this.events.push({ type: 'open-link', url: params.url });
      return {};
    };
    bridge.onmessage = async (params) => {
      this.events.push({ type: 'message', params });
      return {};
    };
    const initialized = new Promise<void>((resolve) => {
      bridge.oninitialized = () => {
        this.events.push({ type: 'initialized', appVersion: bridge.getAppVersion(), appCapabilities: bridge.getAppCapabilities() });
        resolve();
      };
    });
    await bridge.connect(new PostMessageTransport(iframe.contentWindow!, iframe.contentWindow!));
    iframe.srcdoc = options.html;
    await initialized;
  }

  private async callTool(name: string, args: Record<string, unknown>): Promise<CallResult> {
    const tool = this.tools.find((t) => t.name === name);
    const visibility = tool?._meta?.ui?.visibility ?? ['model', 'app'];
    if (!tool || !visibility.includes('app')) {
      this.events.push({ type: 'tool-call-refused', name, args });
      throw new Error(tool ? `${name} is not available to views (visibility ${JSON.stringify(visibility)})` : `unknown tool ${name}`);
    }
    this.events.push({ type: 'tool-call', name, args });
    return window.pmHostCallTool(name, args);
  }

  async input(args: Record<string, unknown>): Promise<void> {
    await this.bridge!.sendToolInput({ arguments: args });
  }

  async partial(args: Record<string, unknown>): Promise<void> {
    await this.bridge!.sendToolInputPartial({ arguments: args });
  }

  async result(result: CallResult): Promise<void> {
    await this.bridge!.sendToolResult(result as never);
  }

  async cancelled(reason?: string): Promise<void> {
    await this.bridge!.sendToolCancelled(reason === undefined ? {} : { reason });
  }

  /** Sends the changed members of the host context (AppBridge diffs and notifies). */
  context(partial: McpUiHostContext): void {
    this.hostContext = { ...this.hostContext, ...partial };
    this.bridge!.setHostContext(this.hostContext);
  }

  async teardown(): Promise<Record<string, unknown>> {
    return this.bridge!.teardownResource({});
  }

  async unmount(): Promise<void> {
    if (this.bridge) await this.bridge.close();
    this.iframe?.remove();
    this.bridge = undefined;
    this.iframe = undefined;
  }
}

window.pmHost = new PmTestHost();
