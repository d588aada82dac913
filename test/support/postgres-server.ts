import { spawn, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A real PostgreSQL for a test file: initdb into a temp dir, the server started with pg_ctl on
 * a free loopback port with its unix socket in the temp dir, and stopped by its pid. The
 * binaries are Debian's PostgreSQL (`initdb`, `pg_ctl`, `postgres` on PATH, in /usr/local/bin,
 * or under PM_TEST_PG_BIN); without them the test fails saying how to install them. PostgreSQL
 * refuses to run as root, so as root it runs as the `postgres` (else `nobody`) user.
 */
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

const INSTALL_HINT = 'install Debian\'s PostgreSQL server (apt-get install -y postgresql) or set PM_TEST_PG_BIN to the directory holding initdb, pg_ctl and postgres';

/** The directory holding initdb and pg_ctl. */
export function postgresBinDir(): string {
  const candidates = [process.env.PM_TEST_PG_BIN, '/usr/local/bin', ...(process.env.PATH ?? '').split(':'), '/usr/lib/postgresql/15/bin'].filter((d): d is string => !!d);
  const found = candidates.find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl')));
  if (!found) throw new Error(`PostgreSQL binaries (initdb, pg_ctl) not found: ${INSTALL_HINT}`);
  return found;
}

/** A free loopback TCP port (bound and released). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
}

function runAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  for (const user of ['postgres', 'nobody']) {
    try {
      return { uid: Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }).trim()), gid: Number(execFileSync('id', ['-g', user], { encoding: 'utf8' }).trim()) };
    } catch {
      // try the next user
    }
  }
  throw new Error('running as root and neither a postgres nor a nobody user exists to run PostgreSQL as');
}

function run(bin: string, args: readonly string[], user: { uid: number; gid: number } | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const proc = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'], ...(user ?? {}), env: { ...process.env, LC_ALL: 'C' } });
    let out = '';
    proc.stdout.on('data', (c) => (out += c));
    proc.stderr.on('data', (c) => (out += c));
    proc.on('error', reject);
    proc.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${bin} ${args.join(' ')} exited ${code}: ${out}`))));
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Resolves when `pid` is gone (checked on each tick of a short interval). */
export function waitForExit(pid: number, timeoutMs = 30_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const timer = setInterval(() => {
      if (!alive(pid)) {
        clearInterval(timer);
        resolve();
      } else if (Date.now() - started > timeoutMs) {
        clearInterval(timer);
        reject(new Error(`process ${pid} still running after ${timeoutMs} ms`));
      }
    }, 20);
  });
}

/** Initializes and starts a PostgreSQL server in a fresh temp dir. */
export async function startPostgres(): Promise<PostgresServer> {
  const bin = postgresBinDir();
  const user = runAs();
  const dir = mkdtempSync(join(tmpdir(), 'pm-pg-'));
  const data = join(dir, 'data');
  const socket = join(dir, 'sock');
  mkdirSync(socket);
  if (user) for (const path of [dir, socket]) chownSync(path, user.uid, user.gid);
  await run(join(bin, 'initdb'), ['-D', data, '-U', 'pm', '--auth=trust', '-E', 'UTF8', '--no-sync'], user);
  const port = await freePort();
  let pid = 0;
  const start = async () => {
    await run(join(bin, 'pg_ctl'), ['-D', data, '-l', join(dir, 'server.log'), '-w', '-t', '60', '-o', `-p ${port} -k ${socket} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`, 'start'], user);
    pid = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  };
  await start();
  const server: PostgresServer = {
    port,
    dir,
    get pid() {
      return pid;
    },
    url: `postgres://pm@127.0.0.1:${port}/postgres`,
    async stop() {
      if (!pid || !alive(pid)) return;
      process.kill(pid, 'SIGINT'); // fast shutdown: open connections are ended
      await waitForExit(pid);
    },
    start,
  };
  return server;
}

/**
 * One PostgreSQL for the test file (beforeAll), stopped by its pid and removed in afterAll.
 * Returns an accessor for the running server.
 */
export function usePostgres(): () => PostgresServer {
  let server: PostgresServer | undefined;
  beforeAll(async () => {
    server = await startPostgres();
  }, 120_000);
  afterAll(async () => {
    if (!server) return;
    await server.stop();
    rmSync(server.dir, { recursive: true, force: true });
  }, 60_000);
  return () => {
    if (!server) throw new Error('PostgreSQL used outside a test (or it failed to start)');
    return server;
  };
}

let schemas = 0;
/** A fresh schema name per call (each test gets its own tables in the one server). */
export function freshSchema(prefix = 'pm_t'): string {
  return `${prefix}${process.pid}_${++schemas}`;
}
