// A throw-away PostgreSQL for pm's scale-out tests and for bench:scale (one source, so the
// benchmark runs the database the tests prove): initdb into a temp dir, pg_ctl on a free
// loopback port with its unix socket in the temp dir, stopped by its pid. The binaries are
// Debian's PostgreSQL (`initdb`, `pg_ctl`, `postgres` on PATH, in /usr/local/bin, or under
// PM_TEST_PG_BIN). PostgreSQL refuses to run as root, so as root it runs as the `postgres`
// (else `nobody`) user.
import { execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const INSTALL_HINT = "install Debian's PostgreSQL server (apt-get install -y postgresql) or set PM_TEST_PG_BIN to the directory holding initdb, pg_ctl and postgres";

/** The directory holding initdb and pg_ctl, or an error saying how to install them. */
export function postgresBinDir() {
  // Debian keeps each major's binaries in /usr/lib/postgresql/<major>/bin, off PATH: the newest first.
  const debian = (existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql') : []).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a)).map((v) => `/usr/lib/postgresql/${v}/bin`);
  const candidates = [process.env.PM_TEST_PG_BIN, '/usr/local/bin', ...(process.env.PATH ?? '').split(':'), ...debian].filter(Boolean);
  const found = candidates.find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl')));
  if (!found) throw new Error(`PostgreSQL binaries (initdb, pg_ctl) not found: ${INSTALL_HINT}`);
  return found;
}

/** A free loopback TCP port (bound and released). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function runAs() {
  if (process.getuid?.() !== 0) return undefined;
  for (const user of ['postgres', 'nobody']) {
    try {
      const id = (flag) => Number(execFileSync('id', [flag, user], { encoding: 'utf8' }).trim());
      return { uid: id('-u'), gid: id('-g') };
    } catch {
      // try the next user
    }
  }
  throw new Error('running as root and neither a postgres nor a nobody user exists to run PostgreSQL as');
}

function run(bin, args, user) {
  return new Promise((resolve, reject) => {
    const proc = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'], ...(user ?? {}), env: { ...process.env, LC_ALL: 'C' } });
    let out = '';
    proc.stdout.on('data', (c) => (out += c));
    proc.stderr.on('data', (c) => (out += c));
    proc.on('error', reject);
    proc.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${bin} ${args.join(' ')} exited ${code}: ${out}`))));
  });
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/** Resolves when `pid` is gone (checked every 20 ms), rejects after `timeoutMs`. */
export function waitForExit(pid, timeoutMs = 30_000) {
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

/**
 * Initializes and starts a PostgreSQL server in a fresh temp dir (named `tmpPrefix…`). With
 * `fsync` false commits are not flushed (tests); true keeps production durability (bench:scale
 * measures what an operator runs).
 */
export async function startPostgres({ fsync = false, tmpPrefix = 'pm-pg-' } = {}) {
  const bin = postgresBinDir();
  const user = runAs();
  const dir = mkdtempSync(join(tmpdir(), tmpPrefix));
  const data = join(dir, 'data');
  const socket = join(dir, 'sock');
  mkdirSync(socket);
  if (user) for (const path of [dir, socket]) chownSync(path, user.uid, user.gid);
  await run(join(bin, 'initdb'), ['-D', data, '-U', 'pm', '--auth=trust', '-E', 'UTF8', '--no-sync'], user);
  const port = await freePort();
  const settings = `-p ${port} -k ${socket} -c listen_addresses=127.0.0.1${fsync ? '' : ' -c fsync=off'} -c max_connections=200`;
  let pid = 0;
  const start = async () => {
    await run(join(bin, 'pg_ctl'), ['-D', data, '-l', join(dir, 'server.log'), '-w', '-t', '60', '-o', settings, 'start'], user);
    pid = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  };
  await start();
  return {
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
}
