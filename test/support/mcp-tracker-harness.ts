/**
 * Drives the tracker MCP server (src/domain/mcp-tracker) over the real dispatcher with an
 * in-memory tracker. Every written message is validated against the official schema of its
 * era (2026-07-28 modern, 2025-11-25 / 2025-06-18 legacy), and every successful tools/call's
 * structuredContent against the tool's advertised outputSchema (ajv, JSON Schema 2020-12).
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import type { OutboundMessage } from '../../src/ports/message-sink.js';
import type { TransportFacts } from '../../src/ports/transport.js';
import { MemoryMacKeyStore } from '../../src/adapters/memory/memory-mac-key-store.js';
import { MemoryReplayLedger } from '../../src/adapters/memory/memory-replay-ledger.js';
import { createPmMcpMethodRegistry, mcpExtensionOffers, mcpLegacyExtensionIds, mcpLegacySessionExtensionIds, PmMcpDispatcher, PmMcpRequestStateSealer, prepareMcpExtensions, type JsonRpcId, type PmMcpConnection, type PmMcpServerDescriptor, type PmMcpServerExtension } from '../../src/domain/mcp/index.js';
import { createPmTrackerMcpServer, type PmTrackerMcpServerOptions } from '../../src/domain/mcp-tracker/index.js';
import { checkMcpMessage, type McpSchemaRevision } from './mcp-schema.js';
import { MODERN_META } from './mcp-fake-server.js';
import { memoryTracker } from './memory-tracker.js';
import type { Tracker } from '../../src/domain/tracker/tracker.js';

export const TRACKER_SERVER_INFO = Object.freeze({ name: 'pm', version: '0.1.0' });

export type Message = Record<string, unknown> & {
  id?: JsonRpcId;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: Record<string, unknown> };
};

/** A tools/call result body. */
export interface ToolResult {
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  resultType?: string;
}

export type Env = Awaited<ReturnType<typeof memoryTracker>>;

export class TrackerMcpHarness {
  readonly problems: string[] = [];
  readonly internalErrors: unknown[] = [];
  /** The dispatcher's requestState sealer and its one-time ledger (MRTR tests). */
  readonly requestStates: PmMcpRequestStateSealer;
  readonly replays: MemoryReplayLedger;
  connection!: PmMcpConnection;
  private nextId = 1;
  private readonly methodsById = new Map<string, string>();
  private readonly outputValidators = new Map<string, ValidateFunction>();
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });

  private constructor(
    readonly env: Env,
    readonly server: PmMcpServerDescriptor,
    extensions: readonly PmMcpServerExtension[] = [],
  ) {
    const methods = createPmMcpMethodRegistry(server, extensions);
    const { clock, hasher, ids } = env;
    this.replays = new MemoryReplayLedger();
    this.requestStates = new PmMcpRequestStateSealer({ hasher, clock, ids, keys: new MemoryMacKeyStore(clock), replays: this.replays });
    const dispatcher = new PmMcpDispatcher(server, methods, { requestStates: this.requestStates, onInternalError: (e) => this.internalErrors.push(e) });
    this.connection = dispatcher.connect();
    for (const tool of server.tools?.descriptors ?? []) {
      if (tool.outputSchema) this.outputValidators.set(tool.name, this.ajv.compile(tool.outputSchema));
    }
  }

  /**
   * A harness over a fresh in-memory tracker (profile `full` unless given). `wrap` lets a test
   * put a proxy in front of the tracker the server sees (e.g. to inject a failure);
   * `serverExtensions` are offered and registered the way the composition does it.
   */
  static async create(
    options: Partial<Omit<PmTrackerMcpServerOptions, 'tracker' | 'fs'>> & { configYaml?: string; wrap?: (tracker: Tracker) => Tracker; serverExtensions?: (env: Env) => readonly PmMcpServerExtension[] } = {},
  ): Promise<TrackerMcpHarness> {
    const { configYaml, wrap, serverExtensions, ...rest } = options;
    const env = await memoryTracker(configYaml ? { configYaml } : {});
    const tracker = wrap ? wrap(env.tracker) : env.tracker;
    const extensions = serverExtensions?.(env) ?? [];
    const server = createPmTrackerMcpServer({ tracker, fs: env.fs, serverInfo: TRACKER_SERVER_INFO, profile: 'full', ...(extensions.length ? { extensions: mcpExtensionOffers(extensions), legacyExtensions: mcpLegacyExtensionIds(extensions), legacySessionExtensions: mcpLegacySessionExtensionIds(extensions) } : {}), ...rest });
    await prepareMcpExtensions(extensions);
    return new TrackerMcpHarness(env, server, extensions);
  }

  /**
   * A small project: an epic with two children (the second blocked by the first), an item
   * related to the first child, and a closed item. Created as 'alice' straight on the tracker.
   */
  async seed(): Promise<{ epic: string; a: string; b: string; c: string; d: string }> {
    const { tracker, clock } = this.env;
    const make = async (input: Parameters<Tracker['create']>[0]) => {
      clock.advance(1000);
      return (await tracker.create(input)).item.id;
    };
    const epic = await make({ title: 'Epic: tracker MCP', type: 'Epic', priority: 1 });
    const a = await make({ title: 'Write the tools', parent: epic, priority: 1, tags: ['mcp'], acceptance: ['schemas are bounded', 'tests pass'], body: 'Tools over the tracker.' });
    const b = await make({ title: 'Write the resources', parent: epic, priority: 2, blockedBy: [a] });
    const c = await make({ title: 'Document the tools', priority: 3, related: [a] });
    const d = await make({ title: 'Old spike', priority: 2 });
    clock.advance(1000);
    await tracker.close(d, { evidence: 'spike done' });
    return { epic, a, b, c, d };
  }

  get tracker() {
    return this.env.tracker;
  }

  /** Sends one message and returns everything written for it, schema-checked for `revision`. */
  async send(message: Record<string, unknown>, revision: McpSchemaRevision, facts: TransportFacts = { kind: 'stdio' }): Promise<Message[]> {
    const out: Message[] = [];
    if (message.id !== undefined && typeof message.method === 'string') this.methodsById.set(JSON.stringify(message.id), message.method);
    const sink = {
      send: (raw: OutboundMessage) => {
        const text = raw.text;
        const value = JSON.parse(text) as Message;
        const method = value.id !== undefined ? this.methodsById.get(JSON.stringify(value.id)) : undefined;
        this.problems.push(...checkMcpMessage(text, revision, method ? { method } : {}).map((p) => `${method ?? '?'}: ${p}`));
        out.push(value);
      },
    };
    await this.connection.dispatch(JSON.stringify(message), { facts, sink });
    return out;
  }

  /** A modern request (2026-07-28 `_meta`); returns its response. */
  async modern(method: string, params: Record<string, unknown> = {}, meta: Record<string, unknown> = {}, facts?: TransportFacts): Promise<Message> {
    const id = this.nextId++;
    const out = await this.send({ jsonrpc: '2.0', id, method, params: { ...params, _meta: { ...MODERN_META, ...meta } } }, '2026-07-28', facts);
    return this.responseFor(out, id);
  }

  /** A legacy request (no modern `_meta`); returns its response. */
  async legacy(method: string, params?: Record<string, unknown>, revision: McpSchemaRevision = '2025-11-25'): Promise<Message> {
    const id = this.nextId++;
    const out = await this.send({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) }, revision);
    return this.responseFor(out, id);
  }

  /** Legacy `initialize` on this connection. */
  async initialize(revision: '2025-11-25' | '2025-06-18' = '2025-11-25', clientName = 'legacy-client'): Promise<Message> {
    return this.legacy('initialize', { protocolVersion: revision, capabilities: {}, clientInfo: { name: clientName, version: '1.0.0' } }, revision);
  }

  /** tools/call in either era; checks structuredContent against the tool's outputSchema. */
  async call(name: string, args: Record<string, unknown> = {}, era: 'modern' | McpSchemaRevision = 'modern', meta: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): Promise<ToolResult> {
    const params = { name, arguments: args, ...extra };
    const response = era === 'modern' || era === '2026-07-28' ? await this.modern('tools/call', params, meta) : await this.legacy('tools/call', params, era);
    if (response.error) throw new Error(`tools/call ${name} failed with a protocol error: ${JSON.stringify(response.error)}`);
    const result = response.result as unknown as ToolResult;
    if (result.resultType === 'input_required') return result;
    const validate = this.outputValidators.get(name);
    if (!result.isError && result.structuredContent && validate && !validate(result.structuredContent)) {
      this.problems.push(`${name}: structuredContent breaks its outputSchema: ${this.ajv.errorsText(validate.errors)}`);
    }
    return result;
  }

  /** The text of a tool result's first content block. */
  static text(result: ToolResult): string {
    return result.content[0]?.text ?? '';
  }

  private responseFor(out: Message[], id: JsonRpcId): Message {
    const response = out.filter((m) => m.id === id).at(-1);
    if (!response) throw new Error(`no response for ${id}; wrote ${JSON.stringify(out)}`);
    return response;
  }
}

/** What {@link seededHarness} gives a test: the harness and the ids of its seeded project. */
export interface SeededHarness {
  readonly h: TrackerMcpHarness;
  readonly ids: Awaited<ReturnType<TrackerMcpHarness['seed']>>;
}

/** A fresh harness (profile `full`) over the seeded project, for a `beforeEach`. */
export async function seededHarness(): Promise<SeededHarness> {
  const h = await TrackerMcpHarness.create();
  return { h, ids: await h.seed() };
}

/** The `afterEach` check: every written message fit its schema and nothing threw unexpectedly. */
export function expectCleanHarness(h: TrackerMcpHarness): void {
  expect(h.problems).toEqual([]);
  expect(h.internalErrors).toEqual([]);
}
