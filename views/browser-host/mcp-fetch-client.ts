/**
 * The live board's MCP client (docs/APPS.md "The board in the browser"): 2026-07-28 requests
 * POSTed with fetch to the server's own endpoint (same origin), each declaring the Apps
 * extension, with the MCP headers the transport checks (docs/HTTP.md "Header rules"). A token,
 * when the server requires one, travels only in the Authorization header and lives only in this
 * page's memory.
 */

const PROTOCOL = '2026-07-28';
const APPS = { 'io.modelcontextprotocol/ui': { specVersion: '2026-01-26', mimeTypes: ['text/html;profile=mcp-app'] } };

/** A JSON-RPC message as the page reads it. */
export interface RpcMessage {
  readonly id?: string | number;
  readonly method?: string;
  readonly params?: Record<string, unknown>;
  readonly result?: Record<string, unknown>;
  readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown };
}

/** The server asked for a token (HTTP 401) or refused the one given (403). */
export class AuthorizationNeeded extends Error {}

/** A tool as tools/list describes it (what the page needs of it). */
export interface ToolEntry {
  readonly name: string;
  readonly inputSchema?: { readonly properties?: Record<string, { readonly 'x-mcp-header'?: string }> };
  readonly annotations?: { readonly readOnlyHint?: boolean };
  readonly _meta?: { readonly ui?: { readonly resourceUri?: string; readonly visibility?: readonly string[] } };
}

/** A header value as docs/HTTP.md says: plain visible ASCII as is, anything else Base64-wrapped. */
function headerValue(value: unknown): string {
  const text = String(value);
  if (/^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(text) && !text.startsWith('=?base64?')) return text;
  const bytes = new TextEncoder().encode(text);
  return `=?base64?${btoa(String.fromCharCode(...bytes))}?=`;
}

export class McpFetchClient {
  private next = 1;
  token: string | undefined;
  readonly schemas = new Map<string, ToolEntry>();

  constructor(private readonly endpoint: string) {}

  private build(method: string, params: Record<string, unknown>): { body: string; headers: Record<string, string> } {
    const message = {
      jsonrpc: '2.0',
      id: this.next++,
      method,
      params: {
        ...params,
        _meta: { 'io.modelcontextprotocol/protocolVersion': PROTOCOL, 'io.modelcontextprotocol/clientCapabilities': { extensions: APPS }, 'io.modelcontextprotocol/clientInfo': { name: 'pm-browser-board', version: '1.0.0' } },
      },
    };
    const headers: Record<string, string> = { 'Content-Type': 'application/json', 'MCP-Protocol-Version': PROTOCOL, 'Mcp-Method': method };
    if (method === 'tools/call') headers['Mcp-Name'] = headerValue(params.name);
    if (method === 'resources/read') headers['Mcp-Name'] = headerValue(params.uri);
    if (method === 'tools/call') {
      const args = (params.arguments ?? {}) as Record<string, unknown>;
      for (const [key, property] of Object.entries(this.schemas.get(String(params.name))?.inputSchema?.properties ?? {})) {
        const name = property['x-mcp-header'];
        if (name && args[key] !== undefined && args[key] !== null) headers[`Mcp-Param-${name}`] = headerValue(args[key]);
      }
    }
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    return { body: JSON.stringify(message), headers };
  }

  private async post(method: string, params: Record<string, unknown>, accept: string, signal?: AbortSignal): Promise<Response> {
    const { body, headers } = this.build(method, params);
    const response = await fetch(this.endpoint, { method: 'POST', body, headers: { ...headers, Accept: accept }, credentials: 'omit', cache: 'no-store', ...(signal ? { signal } : {}) });
    if (response.status === 401 || response.status === 403) throw new AuthorizationNeeded(response.status === 401 ? 'This server requires an access token.' : 'The server refused this token.');
    return response;
  }

  /** One request; resolves with its result, rejects with its error's message. */
  async request(method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    const response = await this.post(method, params, 'application/json');
    const reply = (await response.json()) as RpcMessage;
    if (reply.error) throw new Error(`${method}: ${reply.error.message}`);
    return reply.result ?? {};
  }

  /** tools/list, every page; remembers each tool's input schema for its Mcp-Param headers. */
  async listTools(): Promise<ToolEntry[]> {
    const tools: ToolEntry[] = [];
    let cursor: string | undefined;
    do {
      const result = await this.request('tools/list', cursor ? { cursor } : {});
      tools.push(...((result.tools ?? []) as ToolEntry[]));
      cursor = result.nextCursor as string | undefined;
    } while (cursor);
    for (const tool of tools) this.schemas.set(tool.name, tool);
    return tools;
  }

  /**
   * `subscriptions/listen` over SSE: calls `onMessage` for every message of the stream until it
   * ends (resolves) or `signal` aborts.
   */
  async listen(notifications: Record<string, unknown>, onMessage: (message: RpcMessage) => void, signal: AbortSignal): Promise<void> {
    const response = await this.post('subscriptions/listen', { notifications }, 'text/event-stream', signal);
    if (!response.ok || !response.body) throw new Error(`subscriptions/listen: HTTP ${response.status}`);
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = event
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).trimStart())
          .join('\n');
        if (data) onMessage(JSON.parse(data) as RpcMessage);
      }
    }
  }
}
