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
  /** How long the change log keeps a message (default 10 minutes): the longest outage caught up. */
  readonly logRetentionMs?: number;
  /** The most messages the change log keeps (default 10 000). */
  readonly logMaxRows?: number;
  /** The time (ms since the epoch) for the change log's rows. */
  readonly now?: () => number;
}

/** The listening connection's application_name (pg_stat_activity shows which connection listens). */
export const PM_CHANGE_LISTENER_NAME = 'pm change listener';

/** How often (publishes) the change log is pruned. */
const PRUNE_EVERY = 100;
/** How far below the last sequence heard a catch-up reads (already delivered ones are skipped). */
const CATCH_UP_MARGIN = 100n;

/**
 * The ChangeBus over PostgreSQL LISTEN/NOTIFY (seed 004 "Transport behavior"): one channel per
 * schema (`<schema>_changes`), so every instance serving the tracker hears what any of them
 * publishes, within the 8000-byte payload PostgreSQL carries. One dedicated connection listens
 * for the life of the process, opened by {@link connect} before the server serves, so a listen
 * stream acknowledged afterwards misses nothing published after it; when that connection
 * breaks (the database restarted) it is reopened with a growing delay. Publishing goes through
 * the pool: one statement appends the message to the change log (`changes`, a sequence) and
 * notifies `<seq>:<message>`. A NOTIFY sent while this instance's connection was down is lost
 * to it, so on reconnect it reads the log after the last sequence it heard and delivers what it
 * missed, each message once; the log is pruned by age and size, so an outage longer than the
 * retention loses what fell out of it (the file watch, where instances share one, still sees it).
 */
export class PostgresChangeBus implements ChangeBus {
  readonly maxMessageBytes = 7_900;
  private readonly channel: string;
  private readonly listeners = new Set<(message: string) => void>();
  private readonly connectedListeners = new Set<() => void>();
  private client: PgModule.Client | undefined;
  private connecting: Promise<void> | undefined;
  private closed = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private retryMs: number;
  /** Where the log ended when this instance first listened: nothing up to it is delivered by a catch-up. */
  private baseSeq: bigint | undefined;
  /** The highest sequence delivered (or the base). */
  private lastSeq: bigint | undefined;
  /** The sequences delivered lately (bounded): a catch-up and a late NOTIFY deliver a message once. */
  private readonly delivered = new Set<string>();
  private published = 0;

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
    await this.db.query(`WITH row AS (INSERT INTO ${this.db.table('changes')} (message, created_at) VALUES ($2, $3) RETURNING seq) SELECT pg_notify($1, row.seq || ':' || $2) FROM row`, [this.channel, message, this.now()]);
    if (++this.published % PRUNE_EVERY === 1) await this.prune().catch(() => undefined);
  }

  /** Drops change-log rows older than the retention or beyond the size bound. */
  async prune(): Promise<void> {
    const table = this.db.table('changes');
    await this.db.query(`DELETE FROM ${table} WHERE created_at < $1 OR seq <= (SELECT max(seq) FROM ${table}) - $2`, [this.now() - (this.options.logRetentionMs ?? 600_000), this.options.logMaxRows ?? 10_000]);
  }

  private now(): number {
    return this.options.now ? this.options.now() : Date.now();
  }

  /**
   * Calls `listener` each time the listening connection is open again (the database is back):
   * the signal that sends announcements queued while it was down (announcement-queue.ts).
   * Returns the function that stops it.
   */
  whenConnected(listener: () => void): () => void {
    this.connectedListeners.add(listener);
    return () => void this.connectedListeners.delete(listener);
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
    const client = new (loadPg().Client)({ connectionString: this.db.url, connectionTimeoutMillis: 5_000, application_name: PM_CHANGE_LISTENER_NAME });
    const lost = (error?: unknown) => {
      if (this.client !== client) return;
      this.client = undefined;
      client.removeAllListeners();
      void client.end().catch(() => undefined);
      this.options.onState?.(false, error);
      this.scheduleRetry();
    };
    try {
      await this.db.ready(); // the change log exists
      await client.connect();
      const early: string[] = [];
      let caughtUp = false;
      client.on('notification', (note) => {
        if (note.channel !== this.channel || note.payload === undefined) return;
        if (caughtUp) this.heard(note.payload);
        else early.push(note.payload);
      });
      client.on('error', lost);
      client.on('end', () => lost());
      await client.query(`LISTEN "${this.channel}"`);
      await this.catchUp(client);
      caughtUp = true;
      for (const payload of early.splice(0)) this.heard(payload);
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
    for (const listener of [...this.connectedListeners]) listener();
  }

  /**
   * After LISTEN: the first time, remembers where the log ends (nothing before this instance
   * listened is delivered); after a reconnect, delivers every logged message after the last
   * sequence heard, in order.
   */
  private async catchUp(client: PgModule.Client): Promise<void> {
    const table = this.db.table('changes');
    if (this.baseSeq === undefined || this.lastSeq === undefined) {
      const { rows } = await client.query<{ seq: string | null }>(`SELECT max(seq)::text AS seq FROM ${table}`);
      this.baseSeq = this.lastSeq = BigInt(rows[0]?.seq ?? '0');
      return;
    }
    // A margin below the last sequence: transactions commit (and notify) out of sequence order.
    const after = this.lastSeq - CATCH_UP_MARGIN > this.baseSeq ? this.lastSeq - CATCH_UP_MARGIN : this.baseSeq;
    const { rows } = await client.query<{ seq: string; message: string }>(`SELECT seq::text AS seq, message FROM ${table} WHERE seq > $1 ORDER BY seq`, [after.toString()]);
    for (const row of rows) this.deliver(row.seq, row.message);
  }

  /**
   * A NOTIFY payload: `<seq>:<message>`; one without a sequence (an instance of a pm before the
   * change log, during a rolling upgrade) is delivered as it is.
   */
  private heard(payload: string): void {
    const colon = payload.indexOf(':');
    const seq = payload.slice(0, colon);
    if (colon > 0 && /^\d+$/.test(seq)) this.deliver(seq, payload.slice(colon + 1));
    else for (const listener of [...this.listeners]) listener(payload);
  }

  private deliver(seq: string, message: string): void {
    if (this.delivered.has(seq)) return;
    this.delivered.add(seq);
    if (this.delivered.size > 4_096) {
      for (const old of this.delivered) {
        if (this.delivered.size <= 2_048) break;
        this.delivered.delete(old);
      }
    }
    const n = BigInt(seq);
    if (this.lastSeq === undefined || n > this.lastSeq) this.lastSeq = n;
    for (const listener of [...this.listeners]) listener(message);
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
