/** A running throw-away PostgreSQL (scripts/lib/postgres-server.mjs). */
export interface PostgresServer {
  readonly port: number;
  readonly dir: string;
  /** The postmaster's pid (from postmaster.pid). */
  readonly pid: number;
  /** `postgres://pm@127.0.0.1:<port>/postgres`. */
  readonly url: string;
  /** Stops the server (fast shutdown) by its pid and waits until it is gone. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data (after {@link stop}). */
  start(): Promise<void>;
}
/** The directory holding initdb and pg_ctl, or an error saying how to install them. */
export declare function postgresBinDir(): string;
/** A free loopback TCP port (bound and released). */
export declare function freePort(): Promise<number>;
/** Resolves when `pid` is gone, rejects after `timeoutMs`. */
export declare function waitForExit(pid: number, timeoutMs?: number): Promise<void>;
/** Initializes and starts a PostgreSQL server in a fresh temp dir. */
export declare function startPostgres(options?: { readonly fsync?: boolean; readonly tmpPrefix?: string }): Promise<PostgresServer>;
