/**
 * Real `pm-mcp` processes for integration tests: each is spawned with its
 * working directory set to a fresh temp tracker, every stdout line it writes is recorded, and
 * {@link McpProcesses.killAll} guarantees none outlives the test file.
 *
 * - {@link TapTransport} is a client transport (the shape both the official v2
 *   `@modelcontextprotocol/client` and the v1 `@modelcontextprotocol/sdk` clients accept) over
 *   such a process, so a real client drives the server while the test keeps the raw lines.
 * - {@link RawMcpClient} writes JSON-RPC lines itself, for negative controls no SDK client sends.
 * - {@link validateWireLines} checks every recorded server line against the official schema of
 *   its era (test/support/mcp-schema.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MCP_META, MCP_MODERN_REQUEST_META_KEYS } from '../../src/domain/mcp/index.js';
import { checkMcpMessage, type McpSchemaRevision } from './mcp-schema.js';
import { initNodeTracker } from './node-tracker.js';

export const PM_MCP_BIN = fileURLToPath(new URL('../../bin/pm-mcp.cjs', import.meta.url));
export const PM_BIN = fileURLToPath(new URL('../../bin/pm.cjs', import.meta.url));

export const MODERN_REVISION = '2026-07-28';
/** Request `_meta` of a modern (2026-07-28) request. */
export function modernMeta(extra: Record<string, unknown> = {}, clientName = 'raw-client'): Record<string, unknown> {
  return {
    [MCP_META.protocolVersion]: MODERN_REVISION,
    [MCP_META.clientCapabilities]: {},
    [MCP_META.clientInfo]: { name: clientName, version: '1.0.0' },
    ...extra,
  };
}

export type JsonRpcId = string | number;
export type WireMessage = Record<string, unknown> & {
  id?: JsonRpcId | null;
  method?: string;
  params?: Record<string, unknown> & { _meta?: Record<string, unknown> };
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: Record<string, unknown> };
};

/** A fresh temp project directory with an initialized tracker (`.agents/pm`). */
export async function makeTempTracker(prefix = 'pm-mcp-stdio-'): Promise<{ dir: string; root: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  const root = await initNodeTracker(dir);
  return { dir, root, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** One running `pm-mcp` (or any stdio line server) with its stdout recorded line by line. */
export class McpProcess {
  readonly lines: string[] = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private err = '';
  private partial = '';
  private readonly lineListeners = new Set<(line: string) => void>();
  private readonly wakers = new Set<() => void>();

  constructor(readonly process: ChildProcess) {
    process.stdout!.setEncoding('utf8');
    process.stdout!.on('data', (chunk: string) => {
      this.partial += chunk;
      const parts = this.partial.split('\n');
      this.partial = parts.pop()!;
      for (const line of parts) {
        this.lines.push(line);
        for (const listener of this.lineListeners) listener(line);
      }
      for (const wake of this.wakers) wake();
    });
    process.stderr!.setEncoding('utf8');
    process.stderr!.on('data', (chunk: string) => {
      this.err += chunk;
      for (const wake of this.wakers) wake();
    });
    process.stdin!.on('error', () => undefined); // a write racing the child's exit is reported by the test, not as EPIPE
    this.exited = new Promise((resolve) => process.on('exit', (code, signal) => resolve({ code, signal })));
    void this.exited.then(() => {
      for (const wake of this.wakers) wake();
    });
  }

  get pid(): number {
    return this.process.pid!;
  }

  get running(): boolean {
    return this.process.exitCode === null && this.process.signalCode === null;
  }

  stderr(): string {
    return this.err;
  }

  onLine(listener: (line: string) => void): () => void {
    this.lineListeners.add(listener);
    return () => this.lineListeners.delete(listener);
  }

  /** Writes one line (a newline is appended). */
  writeLine(text: string): void {
    this.process.stdin!.write(`${text}\n`);
  }

  /** Closes stdin (pm-mcp then finishes its work and exits 0). */
  endInput(): void {
    this.process.stdin!.end();
  }

  /** Resolves with the first recorded stdout line (past or future) that matches. */
  async waitForLine(match: (line: string) => boolean, timeoutMs = 20_000, what = 'a matching line'): Promise<string> {
    let found: string | undefined;
    await this.waitUntil(() => (found = this.lines.find(match)) !== undefined, timeoutMs, what);
    return found!;
  }

  /**
   * Resolves once `condition` holds, checked now and after every stdout or stderr chunk (no polling);
   * rejects when the process exits first or after `timeoutMs`.
   */
  waitUntil(condition: () => boolean, timeoutMs = 20_000, what = 'a condition on the output'): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => finish(new Error(`timed out after ${timeoutMs} ms waiting for ${what}; stderr: ${this.err}`)), timeoutMs);
      const check = () => {
        if (condition()) finish();
        else if (!this.running) finish(new Error(`pm-mcp exited (${this.process.exitCode ?? this.process.signalCode}) before ${what}; stderr: ${this.err}`));
      };
      const finish = (error?: Error) => {
        clearTimeout(timer);
        this.wakers.delete(check);
        if (error) reject(error);
        else resolve();
      };
      this.wakers.add(check);
      check();
    });
  }
}

/**
 * Starts `pm-mcp` processes (cwd = a temp tracker) and can kill every one of them. Processes
 * started by an SDK's own stdio transport are registered by pid with {@link track}.
 */
export class McpProcesses {
  private readonly live = new Set<McpProcess>();
  private readonly pids = new Set<number>();

  spawn(cwd: string, env: NodeJS.ProcessEnv = {}, script = PM_MCP_BIN, args: readonly string[] = []): McpProcess {
    const child = spawn(process.execPath, [script, ...args], { cwd, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    const proc = new McpProcess(child);
    this.live.add(proc);
    void proc.exited.then(() => this.live.delete(proc));
    return proc;
  }

  /** Remembers the pid of a process an SDK transport started, so killAll() can end it. */
  track(pid: number | null | undefined): void {
    if (pid) this.pids.add(pid);
  }

  async killAll(): Promise<void> {
    for (const pid of this.pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    this.pids.clear();
    await Promise.all(
      [...this.live].map(async (proc) => {
        if (proc.running) proc.process.kill('SIGKILL');
        await proc.exited;
      }),
    );
  }
}

/** A message the server wrote, with the revision and request method it belongs to. */
export interface WireLine {
  readonly line: string;
  readonly revision: McpSchemaRevision;
  readonly method?: string;
}

/**
 * Validates every line against the schema of its era ({@link checkMcpMessage}) and returns
 * the problems (empty: all valid).
 */
export function validateWireLines(lines: readonly WireLine[]): string[] {
  const problems: string[] = [];
  for (const { line, revision, method } of lines) {
    let found: string[];
    try {
      found = checkMcpMessage(line, revision, method ? { method } : {});
    } catch (error) {
      found = [`unparseable line: ${String(error)}`];
    }
    if (found.length) problems.push(`${revision}${method ? ` ${method}` : ''}: ${found.join('; ')}\n    ${line.slice(0, 400)}`);
  }
  return problems;
}

const idKey = (id: unknown) => JSON.stringify(id);

/**
 * Attributes each server line of one connection to the request it answers (by id), or to the
 * listen request whose subscriptionId it carries; anything else gets `fallback`.
 */
export class WireLedger {
  private readonly requests = new Map<string, { method: string; revision: McpSchemaRevision }>();

  constructor(private readonly fallback: McpSchemaRevision) {}

  noteRequest(id: unknown, method: string, revision: McpSchemaRevision): void {
    this.requests.set(idKey(id), { method, revision });
  }

  attribute(lines: readonly string[]): WireLine[] {
    return lines.map((line) => {
      let value: WireMessage | undefined;
      try {
        value = JSON.parse(line) as WireMessage;
      } catch {
        return { line, revision: this.fallback };
      }
      const subscription = value.params?._meta?.[MCP_META.subscriptionId];
      const owner = 'id' in value && value.id !== null && value.method === undefined ? this.requests.get(idKey(value.id)) : subscription !== undefined ? this.requests.get(idKey(subscription)) : undefined;
      if (!owner) return { line, revision: this.fallback };
      return value.method === undefined ? { line, revision: owner.revision, method: owner.method } : { line, revision: owner.revision };
    });
  }
}

/** The client transport shape shared by the v1 and v2 SDK clients. */
export interface LineTransport {
  start(): Promise<void>;
  send(message: unknown): Promise<void>;
  close(): Promise<void>;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: ((message: never, extra?: unknown) => void) | undefined;
}

/**
 * A stdio client transport over an {@link McpProcess}: what the client sends is recorded (and
 * may be rewritten, e.g. to pin the initialize revision), and the raw server lines stay on the
 * process for schema validation. Closing ends stdin and waits for the process to exit.
 */
export class TapTransport implements LineTransport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: never, extra?: unknown) => void;
  readonly sent: WireMessage[] = [];
  private closed = false;
  private unlisten: (() => void) | undefined;

  constructor(
    readonly proc: McpProcess,
    private readonly rewrite: (message: WireMessage) => WireMessage = (m) => m,
  ) {}

  async start(): Promise<void> {
    this.unlisten = this.proc.onLine((line) => {
      if (!line.trim()) return;
      let message: unknown;
      try {
        message = JSON.parse(line);
      } catch (error) {
        this.onerror?.(error as Error);
        return;
      }
      this.onmessage?.(message as never);
    });
    void this.proc.exited.then(() => this.finish());
  }

  async send(message: unknown): Promise<void> {
    const out = this.rewrite(structuredClone(message) as WireMessage);
    this.sent.push(out);
    this.proc.writeLine(JSON.stringify(out));
  }

  async close(): Promise<void> {
    if (this.proc.running) {
      this.proc.endInput();
      const timer = setTimeout(() => this.proc.process.kill('SIGKILL'), 5_000);
      await this.proc.exited;
      clearTimeout(timer);
    }
    this.finish();
  }

  /** The server lines of this connection, attributed to the era `revisionOf` gives each request. */
  wireLines(revisionOf: (request: WireMessage) => McpSchemaRevision, fallback: McpSchemaRevision): WireLine[] {
    const ledger = new WireLedger(fallback);
    for (const message of this.sent) {
      if (typeof message.method === 'string' && message.id !== undefined) ledger.noteRequest(message.id, message.method, revisionOf(message));
    }
    return ledger.attribute(this.proc.lines.filter((l) => l.trim()));
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.unlisten?.();
    this.onclose?.();
  }
}

/**
 * Writes raw JSON-RPC lines to one `pm-mcp` and matches responses by id. Each request's
 * revision (for validation) is taken from its `_meta` (modern) or the legacy revision given.
 */
export class RawMcpClient {
  private nextId = 1;
  readonly ledger: WireLedger;

  constructor(
    readonly proc: McpProcess,
    private readonly legacyRevision: McpSchemaRevision = '2025-11-25',
  ) {
    this.ledger = new WireLedger(legacyRevision);
  }

  /** The revision a request is validated under. */
  revisionOf(method: string, params: Record<string, unknown> | undefined): McpSchemaRevision {
    const meta = params?._meta as Record<string, unknown> | undefined;
    if (meta && MCP_MODERN_REQUEST_META_KEYS.some((key) => key in meta)) return MODERN_REVISION;
    if (method === 'server/discover' || method === 'subscriptions/listen') return MODERN_REVISION;
    if (method === 'initialize' && (params?.protocolVersion === '2025-06-18' || params?.protocolVersion === '2025-11-25')) return params.protocolVersion;
    return this.legacyRevision;
  }

  /** Sends a request (a fresh numeric id unless given) and resolves with its response. */
  async request(method: string, params?: Record<string, unknown>, options: { id?: JsonRpcId; timeoutMs?: number } = {}): Promise<WireMessage> {
    const id = options.id ?? this.nextId++;
    this.send({ jsonrpc: '2.0', id, method, ...(params !== undefined ? { params } : {}) });
    return this.response(id, options.timeoutMs);
  }

  /** Writes one message (recording a request for validation). */
  send(message: Record<string, unknown>): void {
    if (typeof message.method === 'string' && message.id !== undefined) {
      this.ledger.noteRequest(message.id, message.method, this.revisionOf(message.method, message.params as Record<string, unknown> | undefined));
    }
    this.proc.writeLine(JSON.stringify(message));
  }

  notify(method: string, params?: Record<string, unknown>): void {
    this.send({ jsonrpc: '2.0', method, ...(params !== undefined ? { params } : {}) });
  }

  /** The response (result or error) for `id`. */
  async response(id: JsonRpcId, timeoutMs = 20_000): Promise<WireMessage> {
    const key = idKey(id);
    const line = await this.proc.waitForLine((l) => {
      const value = tryParse(l);
      return value !== undefined && value.method === undefined && idKey(value.id) === key;
    }, timeoutMs, `the response to ${key}`);
    return JSON.parse(line) as WireMessage;
  }

  /** Every parsed message written so far. */
  messages(): WireMessage[] {
    return this.proc.lines.map(tryParse).filter((m): m is WireMessage => m !== undefined);
  }

  /** Messages of the listen stream `id` (tagged with its subscriptionId), in order. */
  stream(id: JsonRpcId): WireMessage[] {
    const key = idKey(id);
    return this.messages().filter((m) => m.method !== undefined && idKey(m.params?._meta?.[MCP_META.subscriptionId]) === key);
  }

  /** Resolves with the first message (past or future) that matches. */
  async waitFor(match: (message: WireMessage) => boolean, what: string, timeoutMs = 20_000): Promise<WireMessage> {
    const line = await this.proc.waitForLine((l) => {
      const value = tryParse(l);
      return value !== undefined && match(value);
    }, timeoutMs, what);
    return JSON.parse(line) as WireMessage;
  }

  /** Schema problems of every line written so far (empty: all valid). */
  problems(): string[] {
    return validateWireLines(this.ledger.attribute(this.proc.lines.filter((l) => l.trim())));
  }
}

function tryParse(line: string): WireMessage | undefined {
  try {
    const value = JSON.parse(line) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as WireMessage) : undefined;
  } catch {
    return undefined;
  }
}

/** Runs `node bin/pm.cjs …args` in `cwd` as a separate OS process; resolves with its stdout. */
export function runPm(cwd: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [PM_BIN, ...args], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`pm ${args.join(' ')} exited ${code}: ${err}`))));
  });
}
