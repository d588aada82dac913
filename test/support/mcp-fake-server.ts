/**
 * A tiny fake MCP server (not the tracker) over the real protocol core: a few tools, resources,
 * a template and prompts, plus a harness that drives a dispatcher connection and validates
 * every message the dispatcher writes against the official schema for its era.
 */
import { z } from 'zod';
import type { OutboundMessage } from '../../src/ports/message-sink.js';
import type { TransportFacts } from '../../src/ports/transport.js';
import { ConflictError, NotFoundError, ValidationError } from '../../src/domain/errors/index.js';
import {
  assertMcpClientCapabilities,
  createPmMcpMethodRegistry,
  definePmMcpServer,
  PmMcpDispatcher,
  PmMcpPromptRegistry,
  PmMcpResourceRegistry,
  PmMcpToolRegistry,
  type AnyMcpToolDefinition,
  type JsonRpcId,
  type PmMcpConnection,
  type PmMcpDispatcherOptions,
  type PmMcpMethodRegistry,
  type PmMcpServerDescriptor,
  type PmMcpServerOptions,
} from '../../src/domain/mcp/index.js';
import { checkMcpMessage, type McpSchemaRevision } from './mcp-schema.js';

export const SERVER_INFO = Object.freeze({ name: 'pm-test', version: '1.0.0', title: 'pm test server', description: 'fake' });
export const MODERN_META = Object.freeze({
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'test-client', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
});

/** A gate a test opens to let the `slow` tool finish. */
export class Gate {
  private release!: () => void;
  readonly opened = new Promise<void>((resolve) => (this.release = resolve));
  open(): void {
    this.release();
  }
}

export interface FakeState {
  gate: Gate;
  seenSignals: AbortSignal[];
  seenContexts: unknown[];
}

const objectSchema = (properties: Record<string, unknown>, required: string[] = []) => ({ type: 'object' as const, properties, required, additionalProperties: false });

export function fakeTools(state: FakeState): AnyMcpToolDefinition[] {
  return [
    {
      name: 'echo',
      title: 'Echo',
      description: 'Echoes its text argument.',
      inputSchema: { ...objectSchema({ text: { type: 'string', maxLength: 100 } }, ['text']), $schema: 'https://json-schema.org/draft/2020-12/schema' },
      outputSchema: objectSchema({ text: { type: 'string' } }, ['text']),
      annotations: { readOnlyHint: true },
      args: z.object({ text: z.string().max(100) }).strict(),
      handler: (args: { text: string }, ctx) => {
        state.seenContexts.push(ctx);
        return { structuredContent: { text: args.text }, text: `echo: ${args.text}` };
      },
    },
    {
      name: 'fail',
      description: 'Fails with a tracker error chosen by kind.',
      inputSchema: objectSchema({ kind: { type: 'string', enum: ['validation', 'conflict'] } }, ['kind']),
      annotations: { readOnlyHint: false, destructiveHint: false },
      args: z.object({ kind: z.enum(['validation', 'conflict']) }),
      handler: (args: { kind: string }) => {
        if (args.kind === 'validation') throw new ValidationError('priority must be 0-4', { field: 'priority' });
        throw new ConflictError('item is claimed by bob', 'claimed', { id: 'PM-1' });
      },
    },
    {
      name: 'boom',
      description: 'Throws an unexpected error.',
      inputSchema: { type: 'object', additionalProperties: false },
      args: z.object({}),
      handler: () => {
        throw new TypeError('secret internal detail');
      },
    },
    {
      name: 'needs_form',
      description: 'Needs form elicitation declared on the request.',
      inputSchema: { type: 'object', additionalProperties: false },
      args: z.object({}),
      handler: (_args: unknown, ctx) => {
        assertMcpClientCapabilities(ctx, { elicitation: { form: {} } }, 'needs_form needs form elicitation to confirm');
        return { structuredContent: { ok: true } };
      },
    },
    {
      name: 'slow',
      description: 'Reports progress and logs, then waits for the gate or cancellation.',
      inputSchema: { type: 'object', additionalProperties: false },
      args: z.object({}),
      handler: async (_args: unknown, ctx) => {
        state.seenSignals.push(ctx.signal);
        ctx.notify.progress(1, 3, 'started');
        ctx.notify.progress(1, 3, 'not increasing: dropped');
        ctx.notify.log('debug', { step: 'below info' });
        ctx.notify.log('warning', { step: 'started' }, 'slow');
        await Promise.race([state.gate.opened, new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }))]);
        ctx.notify.progress(3, 3, 'done');
        return { structuredContent: { aborted: ctx.signal.aborted } };
      },
    },
  ];
}

export function fakeResources(): PmMcpResourceRegistry {
  return new PmMcpResourceRegistry(
    [
      { uri: 'test://readme', name: 'readme', title: 'Readme', mimeType: 'text/markdown', cache: { ttlMs: 60_000, cacheScope: 'public' }, read: () => [{ uri: 'test://readme', mimeType: 'text/markdown', text: '# hi' }] },
      { uri: 'test://empty', name: 'empty', cache: { ttlMs: 0, cacheScope: 'private' }, read: () => [] },
      { uri: 'test://third', name: 'third', cache: { ttlMs: 0, cacheScope: 'private' }, read: () => [{ uri: 'test://third', text: '3' }] },
    ],
    [
      {
        uriTemplate: 'test://notes/{id}',
        name: 'note',
        mimeType: 'text/plain',
        cache: { ttlMs: 1000, cacheScope: 'private' },
        read: (uri, vars) => {
          if (vars.id !== 'n1' && vars.id !== 'n2') throw new NotFoundError(`no note ${vars.id}`);
          return [{ uri, mimeType: 'text/plain', text: `note ${vars.id}` }];
        },
        complete: (_arg, value) => ['n1', 'n2', 'x9'].filter((v) => v.startsWith(value)),
      },
    ],
  );
}

export function fakePrompts(): PmMcpPromptRegistry {
  return new PmMcpPromptRegistry([
    {
      name: 'greet',
      description: 'Greets someone.',
      arguments: [{ name: 'name', required: true }, { name: 'tone' }],
      get: (args) => ({ description: 'greeting', messages: [{ role: 'user', content: { type: 'text', text: `Hello ${args.name}` } }] }),
      complete: (_arg, value) => Array.from({ length: 150 }, (_, i) => `${value}${i}`),
    },
    { name: 'plain', get: () => ({ messages: [{ role: 'assistant', content: { type: 'text', text: 'plain' } }] }) },
  ]);
}

/** One written message with its parsed value. */
export interface Written {
  readonly text: string;
  readonly value: Record<string, unknown> & { id?: JsonRpcId; result?: Record<string, unknown>; error?: { code: number; message: string; data?: Record<string, unknown> } };
}

/** Drives one connection; every written message is checked against the schema of `revision`. */
export class McpHarness {
  readonly state: FakeState = { gate: new Gate(), seenSignals: [], seenContexts: [] };
  readonly server: PmMcpServerDescriptor;
  readonly methods: PmMcpMethodRegistry;
  readonly dispatcher: PmMcpDispatcher;
  readonly connection: PmMcpConnection;
  readonly written: Written[] = [];
  readonly problems: string[] = [];
  readonly internalErrors: unknown[] = [];
  private readonly methodsById = new Map<string, string>();

  constructor(overrides: Partial<PmMcpServerOptions> = {}, configure?: (methods: PmMcpMethodRegistry) => void, dispatcherOptions: PmMcpDispatcherOptions = {}) {
    this.server = definePmMcpServer({
      serverInfo: SERVER_INFO,
      instructions: 'Test server. Use echo to echo.',
      tools: new PmMcpToolRegistry(fakeTools(this.state)),
      resources: fakeResources(),
      prompts: fakePrompts(),
      pageSize: 2,
      ...overrides,
    });
    this.methods = createPmMcpMethodRegistry(this.server);
    configure?.(this.methods);
    this.dispatcher = new PmMcpDispatcher(this.server, this.methods, { onInternalError: (e) => this.internalErrors.push(e), ...dispatcherOptions });
    this.connection = this.dispatcher.connect();
  }

  /** Sends one value (or raw text) and returns what was written for it, validated for `revision`. */
  async send(message: unknown, revision: McpSchemaRevision = '2026-07-28', facts: TransportFacts = { kind: 'stdio' }): Promise<Written[]> {
    const start = this.written.length;
    const record = message as { id?: JsonRpcId; method?: string };
    if (record && typeof record === 'object' && record.id !== undefined && typeof record.method === 'string') this.methodsById.set(JSON.stringify(record.id), record.method);
    const sink = {
      send: (out: OutboundMessage) => {
        const text = out.text;
        const value = JSON.parse(text) as Written['value'];
        const method = value.id !== undefined ? this.methodsById.get(JSON.stringify(value.id)) : undefined;
        this.problems.push(...checkMcpMessage(text, revision, method ? { method } : {}));
        this.written.push({ text, value });
      },
    };
    await this.connection.dispatch(typeof message === 'string' ? message : JSON.stringify(message), { facts, sink });
    return this.written.slice(start);
  }

  /** Sends a modern request and returns its single response. */
  async modern(id: JsonRpcId, method: string, params: Record<string, unknown> = {}, meta: Record<string, unknown> = {}): Promise<Written['value']> {
    const out = await this.send({ jsonrpc: '2.0', id, method, params: { ...params, _meta: { ...MODERN_META, ...meta } } });
    return lastFor(out, id);
  }

  /** Sends a legacy request (no modern _meta) and returns its single response. */
  async legacy(id: JsonRpcId, method: string, params?: Record<string, unknown>, revision: McpSchemaRevision = '2025-11-25'): Promise<Written['value']> {
    const out = await this.send({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) }, revision);
    return lastFor(out, id);
  }
}

function lastFor(out: Written[], id: JsonRpcId): Written['value'] {
  const response = out.filter((w) => w.value.id === id).at(-1);
  if (!response) throw new Error(`no response for ${JSON.stringify(id)}; wrote ${JSON.stringify(out.map((w) => w.value))}`);
  return response.value;
}
