import type PgModule from 'pg';
import type { ChangeBus } from '../../ports/change-bus.js';
import { loadPg, type PostgresDatabase } from './postgres-database.js';

/** Options of {@link PostgresChangeBus}. */
export interface PostgresChangeBusOptions {
  /** First wait before reconnecting the listening connection (doubles up to `maxRetryMs`; default 250 ms). */
  readonly retryMs?: number;
  readonly maxRetryMs?: number;
  /** Told when the listening connection is lost or restored (the log). */
  readonly onState?: (connected: boolean, error?: unknown) => void;
}

/**
 * The ChangeBus over PostgreSQL LISTEN/NOTIFY (seed 004 "Transport behavior"): one channel per
 * schema (`<schema>_changes`), so every instance serving the tracker hears what any of them
 * publishes, within the 8000-byte payload PostgreSQL carries. One dedicated connection listens
 * for the life of the process, opened by {@link connect} before the server serves, so a listen
 * stream acknowledged afterwards misses nothing published after it; when that connection
 * breaks (the database restarted) it is reopened with a growing delay. Publishing goes through
 * the pool (`pg_notify`).
 */
export class PostgresChangeBus implements ChangeBus {
  readonly maxMessageBytes = 7_900;
  private readonly channel: string;
  private readonly listeners = new Set<(message: string) => void>();
  private client: PgModule.Client | undefined;
  private connecting: Promise<void> | undefined;
  private closed = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private retryMs: number;

  constructor(
    private readonly db: PostgresDatabase,
    private readonly options: PostgresChangeBusOptions = {},
  ) {
    this.channel = `${db.schema}_changes`;
    this.retryMs = options.retryMs ?? 250;
  }

  /** True while the listening connection is open. */
  get connected(): boolean {
    return this.client !== undefined;
  }

  /**
   * Opens the listening connection; resolves once it listens, or rejects with the first
   * failure (it keeps retrying in the background either way until {@link close}).
   */
  connect(): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the change bus is closed'));
    if (this.client) return Promise.resolve();
    this.connecting ??= this.open().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  async publish(message: string): Promise<void> {
    await this.db.query('SELECT pg_notify($1, $2)', [this.channel, message]);
  }

  subscribe(onMessage: (message: string) => void): () => void {
    const listener = (message: string) => onMessage(message);
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async open(): Promise<void> {
    const client = new (loadPg().Client)({ connectionString: this.db.url, connectionTimeoutMillis: 5_000 });
    const lost = (error?: unknown) => {
      if (this.client !== client) return;
      this.client = undefined;
      client.removeAllListeners();
      void client.end().catch(() => undefined);
      this.options.onState?.(false, error);
      this.scheduleRetry();
    };
    try {
      await client.connect();
      client.on('notification', (note) => {
        if (note.channel !== this.channel || note.payload === undefined) return;
        for (const listener of [...this.listeners]) listener(note.payload);
      });
      client.on('error', lost);
      client.on('end', () => lost());
      await client.query(`LISTEN "${this.channel}"`);
    } catch (error) {
      client.removeAllListeners();
      await client.end().catch(() => undefined);
      this.scheduleRetry();
      throw error;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.retryMs = this.options.retryMs ?? 250;
    this.options.onState?.(true);
  }

  private scheduleRetry(): void {
    if (this.closed || this.retryTimer) return;
    const wait = this.retryMs;
    this.retryMs = Math.min(wait * 2, this.options.maxRetryMs ?? 5_000);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (!this.closed && !this.client) void this.connect().catch(() => undefined);
    }, wait);
    this.retryTimer.unref();
  }
}
