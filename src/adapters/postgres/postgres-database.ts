import { createRequire } from 'node:module';
import type PgModule from 'pg';
import { StoreUnavailableError } from '../../domain/errors/tracker-errors.js';
import { migratePostgresSchema } from './postgres-schema.js';

/** The part of a pg client that queries need (a pooled client or the pool itself). */
export interface PostgresQueryable {
  query<R extends Record<string, unknown> = Record<string, unknown>>(text: string, values?: readonly unknown[]): Promise<{ rows: R[]; rowCount: number | null }>;
}

/** Options of {@link PostgresDatabase}. */
export interface PostgresDatabaseOptions {
  /** The connection string (`postgres://user@host:port/db`, or `?host=/socket/dir`). */
  readonly url: string;
  /** The schema holding pm's tables (one per tracker when several share a database). */
  readonly schema: string;
  /** Most pooled connections of this process (default 10). */
  readonly maxConnections?: number;
  /** How long a query waits for a connection before it fails (default 5 s). */
  readonly connectTimeoutMs?: number;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * One PostgreSQL database shared by every pm-mcp-http instance of a tracker (seed 004 "MRTR,
 * tasks, and cache behavior": stores that hold across processes). A pool of connections; the
 * schema is created and migrated by pm itself on first use ({@link migratePostgresSchema}), and
 * a failed first use is retried by the next one, so an instance started while the database is
 * down serves as soon as it is back. The `pg` driver is loaded on first use: processes that
 * never select PostgreSQL never load it.
 */
export class PostgresDatabase {
  readonly schema: string;
  private readonly pool: PgModule.Pool;
  private migrated: Promise<void> | undefined;
  private closed = false;

  constructor(private readonly options: PostgresDatabaseOptions) {
    if (!SCHEMA_NAME.test(options.schema)) throw new RangeError(`invalid PostgreSQL schema name ${JSON.stringify(options.schema)} (lower-case letters, digits and _; at most 63)`);
    this.schema = options.schema;
    const pg = loadPg();
    this.pool = new pg.Pool({ connectionString: options.url, max: options.maxConnections ?? 10, connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000, idleTimeoutMillis: 30_000 });
    // An idle connection that breaks (the server restarted) is dropped by the pool; queries get fresh ones.
    this.pool.on('error', () => undefined);
  }

  /** The connection string (the listener of change notifications opens its own connection with it). */
  get url(): string {
    return this.options.url;
  }

  /** `name` qualified with the schema, for SQL text. */
  table(name: string): string {
    return `"${this.schema}"."${name}"`;
  }

  /** Runs one statement (after the schema is in place). */
  async query<R extends Record<string, unknown> = Record<string, unknown>>(text: string, values: readonly unknown[] = []): Promise<R[]> {
    try {
      await this.ready();
      const result = await this.pool.query(text, values as unknown[]);
      return result.rows as R[];
    } catch (error) {
      throw unavailable(error);
    }
  }

  /** Runs `work` in one transaction on one connection: committed when it resolves, rolled back when it throws. */
  async transaction<T>(work: (client: PostgresQueryable) => Promise<T>): Promise<T> {
    try {
      await this.ready();
      return await this.inTransaction(work);
    } catch (error) {
      throw unavailable(error);
    }
  }

  /** Whether the database answers within `timeoutMs` (readiness of the load balancer). */
  async ping(timeoutMs = 2_000): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
    try {
      return await Promise.race([this.ready().then(() => this.pool.query('SELECT 1').then(() => true)), timeout]);
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Creates or migrates the schema once per process (retried after a failure). */
  ready(): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the PostgreSQL connection pool is closed'));
    const migrated = (this.migrated ??= this.inTransaction(async (client) => {
      await migratePostgresSchema(client, this.schema);
    }).catch((error: unknown) => {
      this.migrated = undefined;
      throw error;
    }));
    return migrated;
  }

  /** Closes every connection (shutdown). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }

  private async inTransaction<T>(work: (client: PostgresQueryable) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken = false;
    try {
      await client.query('BEGIN');
      const out = await work(client as unknown as PostgresQueryable);
      await client.query('COMMIT');
      return out;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => (broken = true));
      throw error;
    } finally {
      client.release(broken);
    }
  }
}

/** PostgreSQL's connection-level failures (SQLSTATE class 08, shutdown, starting up). */
const UNREACHABLE_STATES = /^(08|57P0[1-3])/;
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH', 'EPIPE', 'ENOENT']);

/** A failure to reach the database as {@link StoreUnavailableError}; any other error as it is. */
function unavailable(error: unknown): unknown {
  if (error instanceof StoreUnavailableError) return error;
  const e = error as { code?: unknown; message?: unknown };
  const code = typeof e?.code === 'string' ? e.code : '';
  const message = typeof e?.message === 'string' ? e.message : String(error);
  if (UNREACHABLE_CODES.has(code) || UNREACHABLE_STATES.test(code) || /Connection terminated|timeout exceeded when trying to connect|connect ECONNREFUSED|Client has encountered a connection error/i.test(message)) {
    return new StoreUnavailableError(`The shared task store (PostgreSQL) is unreachable (${message}); nothing was changed: retry shortly`, { retryable: true });
  }
  return error;
}

let pg: typeof PgModule | undefined;

/** The `pg` driver, loaded on first use. */
export function loadPg(): typeof PgModule {
  pg ??= createRequire(import.meta.url)('pg') as typeof PgModule;
  return pg;
}
