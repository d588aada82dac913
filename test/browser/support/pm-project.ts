/**
 * Real pm trackers for the browser tests: a temp project seeded through the real composition
 * (files on disk, history, receipts), served by a real pm-mcp-http process on 127.0.0.1, and
 * a client that talks to it the way an Apps-capable host does (2026-07-28 requests declaring
 * io.modelcontextprotocol/ui).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildProjectGraph } from '../../../src/domain/mcp-tracker/item-graph.js';
import type { Tracker } from '../../../src/domain/tracker/tracker.js';
import { httpPost, McpHttpProcesses, modernRequest, type LooseJson } from '../../support/mcp-http.js';
import { initNodeTracker, openNodeTracker } from '../../support/node-tracker.js';

const UI = { specVersion: '2026-01-26', mimeTypes: ['text/html;profile=mcp-app'] };
export const APPS_META = { 'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/ui': UI } } };
/** An Apps host that also negotiated progressive tool discovery: its results are canonical (structuredContent.result). */
export const APPS_AND_DISCOVERY_META = { 'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/ui': UI, 'dev.unbrained.pm/progressive-tool-discovery': {} } } };

/** A CallToolResult as the server sent it. */
export type CallResult = { content: { type: string; text?: string }[]; structuredContent?: Record<string, unknown>; isError?: boolean };

/** Talks to one pm-mcp-http as an Apps host would. */
export class PmAppsClient {
  private id = 1;
  private readonly schemas = new Map<string, object>();
  tools: LooseJson[] = [];
  /** What each request declares (a test may switch to APPS_AND_DISCOVERY_META and back). */
  meta: Record<string, unknown> = APPS_META;

  constructor(readonly url: string) {}

  async request(method: string, params: Record<string, unknown> = {}, meta: Record<string, unknown> = this.meta): Promise<LooseJson> {
    const toolInputSchema = method === 'tools/call' ? this.schemas.get(params.name as string) : undefined;
    const request = modernRequest(this.id++, method, params, { meta, ...(toolInputSchema ? { toolInputSchema } : {}) });
    const reply = await httpPost(this.url, request.body, request.headers);
    if (reply.status !== 200 || !reply.body) throw new Error(`${method}: HTTP ${reply.status} ${reply.text.slice(0, 300)}`);
    return reply.body;
  }

  /** The negotiated tools/list (also records each tool's input schema for its Mcp-Param headers). */
  async listTools(): Promise<LooseJson[]> {
    const reply = await this.request('tools/list');
    this.tools = reply.result.tools as LooseJson[];
    for (const tool of this.tools) this.schemas.set(tool.name as string, tool.inputSchema as object);
    return this.tools;
  }

  /** The document of a view, read as the host does (the resource the tool's _meta.ui names). */
  async viewOf(tool: string): Promise<{ uri: string; html: string; meta: LooseJson }> {
    const entry = this.tools.find((t) => t.name === tool);
    const uri = entry?._meta?.ui?.resourceUri as string | undefined;
    if (!uri) throw new Error(`${tool} has no _meta.ui.resourceUri in the negotiated tools/list`);
    const reply = await this.request('resources/read', { uri });
    const content = reply.result.contents[0] as LooseJson;
    if (content.mimeType !== 'text/html;profile=mcp-app') throw new Error(`${uri} is ${content.mimeType}`);
    return { uri, html: content.text as string, meta: content._meta };
  }

  async call(name: string, args: Record<string, unknown> = {}): Promise<CallResult> {
    const reply = await this.request('tools/call', { name, arguments: args });
    if (reply.error) throw new Error(`${name}: ${JSON.stringify(reply.error)}`);
    return reply.result as CallResult;
  }
}

/** A temp project with a tracker, served by pm-mcp-http; `stop()` ends the process and removes the directory. */
export interface ServedProject<K extends string = string> {
  readonly dir: string;
  readonly tracker: Tracker;
  readonly client: PmAppsClient;
  readonly ids: Readonly<Record<K, string>>;
  stop(): Promise<void>;
}

/** Seeds a fresh tracker with `seed`, then serves it. */
export async function serveProject<K extends string>(prefix: string, seed: (tracker: Tracker) => Promise<Record<K, string>>): Promise<ServedProject<K>> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  const root = await initNodeTracker(dir);
  const tracker = await openNodeTracker(root, 'alice');
  const ids = await seed(tracker);
  const processes = new McpHttpProcesses();
  const server = await processes.start(dir, { PM_MCP_PROFILE: 'full', PM_ACTOR: 'alice' });
  const client = new PmAppsClient(server.url);
  await client.listTools();
  return {
    dir,
    tracker,
    client,
    ids,
    async stop() {
      await processes.killAll();
      await tracker.dispose();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A small, realistic project: an epic with children, a chain of blockers, related items, claims,
 * acceptance criteria, comments (more than pm_get's default ten) and an item with a long
 * history (more than pm_history's default twenty), plus closed work.
 */
export type SmallProjectIds = 'epic' | 'api' | 'ui' | 'copy' | 'audit' | 'docs' | 'spike' | 'flaky' | 'perf' | 'a11y';

export async function seedProject(tracker: Tracker): Promise<Record<SmallProjectIds, string>> {
  const make = async (input: Parameters<Tracker['create']>[0], actor = 'alice') => (await tracker.create(input, { actor })).item.id;
  const epic = await make({ title: 'Checkout redesign', type: 'Epic', priority: 1, tags: ['payments'], body: 'Make paying with a saved card take one step.' });
  const api = await make({ title: 'Saved-card API', parent: epic, priority: 1, tags: ['payments', 'api'], body: 'An endpoint that charges a saved card.\n\nIt must be idempotent: a retried request never charges twice.', acceptance: ['POST /charges accepts a card token', 'A retry with the same key returns the first receipt', 'Errors carry a stable code'], files: ['src/charges.ts'], tests: ['test/charges.test.ts'] });
  const ui = await make({ title: 'One-step pay button', parent: epic, priority: 2, blockedBy: [api], tags: ['payments', 'web'] });
  const copy = await make({ title: 'Write the payment error messages', parent: epic, priority: 3, related: [ui] });
  const audit = await make({ title: 'Security review of stored tokens', priority: 1, type: 'Task', blockedBy: [api], tags: ['security'] });
  const docs = await make({ title: 'Document the charges endpoint', priority: 3, blockedBy: [api], related: [api] });
  const spike = await make({ title: 'Spike: card vault vendors', priority: 2, body: 'Compare three vendors.' });
  const flaky = await make({ title: 'Fix the flaky checkout test', priority: 0, type: 'Issue', tags: ['ci'] });
  const perf = await make({ title: 'Cache exchange rates', priority: 4, tags: ['performance'] });
  const a11y = await make({ title: 'Keyboard access for the card form', priority: 2, parent: epic, tags: ['web', 'accessibility'] });
  await tracker.claim(api, { holder: 'bob', leaseMinutes: 120 }, { actor: 'bob' });
  await tracker.claim(flaky, { holder: 'carol', leaseMinutes: 60 }, { actor: 'carol' });
  await tracker.close(spike, { evidence: 'docs/vendors.md compares Stripe, Adyen and Braintree' }, { actor: 'alice' });
  await tracker.update(api, { checkAcceptance: [1] }, { actor: 'bob' });
  for (let i = 1; i <= 14; i++) await tracker.comment(api, `Progress note ${i}: ${i % 3 === 0 ? 'retries verified against the sandbox' : 'endpoint shape agreed with the web team'}.`, { actor: i % 2 ? 'bob' : 'alice' });
  for (let i = 1; i <= 12; i++) await tracker.update(perf, { priority: i % 2 ? 3 : 4, body: `Rates refresh every ${i * 5} minutes.` }, { actor: 'dave' });
  for (let i = 1; i <= 12; i++) await tracker.comment(perf, `Measured ${i * 7} ms per lookup.`, { actor: 'dave' });
  return { epic, api, ui, copy, audit, docs, spike, flaky, perf, a11y };
}

/**
 * A large project: `count` unfinished items in chains of blockers and a hierarchy, more than
 * pm_graph (200) and pm_list (100) return in one call.
 */
export async function seedLargeProject(tracker: Tracker, count = 230): Promise<Record<'first' | 'last', string>> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const parent = i % 10 !== 0 ? ids[i - (i % 10)] : undefined;
    const blockedBy = i % 10 > 1 ? [ids[i - 1]!] : [];
    const id = (await tracker.create({ title: `Work package ${String(i + 1).padStart(3, '0')} with a title long enough to need truncating`, priority: i % 5, ...(parent ? { parent } : {}), blockedBy, ...(i % 7 === 3 && i > 20 ? { related: [ids[i - 20]!] } : {}) }, { actor: 'alice' })).item.id;
    ids.push(id);
  }
  return { first: ids[0]!, last: ids[ids.length - 1]! };
}

/**
 * The tracker's own project graph of `maxNodes` items as a tool result. pm_graph keeps its
 * results within the result token budget (a few dozen long-titled items), so a 200-item graph
 * never comes from one call; a host that merges several calls can still hand a view that much,
 * and the view must lay it out. The nodes and links are the real ones of the project.
 */
export async function projectGraphResult(project: ServedProject<string>, maxNodes: number): Promise<CallResult> {
  const graph = await buildProjectGraph(project.tracker, { maxNodes, all: false });
  return { content: [{ type: 'text', text: `Project graph: ${graph.nodes.length} of ${graph.total} items, ${graph.edges.length} links` }], structuredContent: graph as unknown as Record<string, unknown> };
}
