// The pieces of a scaled-out pm-mcp-http for `npm run bench:scale` (docs/DEPLOY.md): a
// throw-away PostgreSQL (initdb into a temp dir, pg_ctl on a free loopback port, stopped by its
// pid) and nginx round-robin balancers with generated configurations (own prefix, pid and logs
// in a temp dir, stopped by pid). The integration tests have their TypeScript twins in
// test/support/postgres-server.ts and test/support/nginx-balancer.ts.
import { execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nginxConfig } from '../../scripts/lib/nginx-config.mjs';

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

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

async function waitForExit(pid) {
  while (alive(pid)) await new Promise((resolve) => setTimeout(resolve, 20));
}

function run(bin, args, user) {
  return new Promise((resolve, reject) => {
    const proc = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'], ...(user ?? {}), env: { ...process.env, LC_ALL: 'C' } });
    let out = '';
    proc.stdout.on('data', (c) => (out += c));
    proc.stderr.on('data', (c) => (out += c));
    proc.on('error', reject);
    proc.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${bin} exited ${code}: ${out}`))));
  });
}

/** Starts PostgreSQL in a temp dir; resolves with { url, port, pid, dir, stop() }. */
export async function startPostgres() {
  const bin = [process.env.PM_TEST_PG_BIN, '/usr/local/bin', ...(process.env.PATH ?? '').split(':'), '/usr/lib/postgresql/15/bin'].filter(Boolean).find((d) => existsSync(join(d, 'initdb')) && existsSync(join(d, 'pg_ctl')));
  if (!bin) throw new Error("PostgreSQL binaries (initdb, pg_ctl) not found: install Debian's PostgreSQL server (apt-get install -y postgresql) or set PM_TEST_PG_BIN");
  let user;
  if (process.getuid?.() === 0) {
    const id = (flag) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
    user = { uid: id('-u'), gid: id('-g') };
  }
  const dir = mkdtempSync(join(tmpdir(), 'pm-bench-pg-'));
  const socket = join(dir, 'sock');
  mkdirSync(socket);
  if (user) for (const path of [dir, socket]) chownSync(path, user.uid, user.gid);
  const data = join(dir, 'data');
  await run(join(bin, 'initdb'), ['-D', data, '-U', 'pm', '--auth=trust', '-E', 'UTF8', '--no-sync'], user);
  const port = await freePort();
  // Durable commits as in production (fsync on), on the same machine as the instances.
  await run(join(bin, 'pg_ctl'), ['-D', data, '-l', join(dir, 'server.log'), '-w', '-t', '60', '-o', `-p ${port} -k ${socket} -c listen_addresses=127.0.0.1 -c max_connections=200`, 'start'], user);
  const pid = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  return {
    url: `postgres://pm@127.0.0.1:${port}/postgres`,
    port,
    pid,
    dir,
    async stop() {
      if (!alive(pid)) return;
      process.kill(pid, 'SIGINT');
      await waitForExit(pid);
    },
  };
}

/** The nginx binary, or an error saying how to install it. */
export function nginxBinary() {
  const found = [process.env.PM_NGINX, ...(process.env.PATH ?? '').split(':').map((d) => join(d, 'nginx')), '/usr/sbin/nginx'].filter(Boolean).find((p) => existsSync(p));
  if (!found) throw new Error("nginx not found: run scripts/install-nginx.sh (Debian's nginx) or set PM_NGINX");
  return found;
}

/** Starts one nginx round-robin balancer over `upstreams` (ports) on `port`; resolves with { url, pid, stop() }. */
export async function startNginx(dir, port, upstreams) {
  mkdirSync(dir, { recursive: true });
  const conf = nginxConfig(dir, port, upstreams, { workerConnections: 4096 });
  writeFileSync(join(dir, 'nginx.conf'), conf);
  const proc = spawn(nginxBinary(), ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  proc.stderr.on('data', (c) => (stderr += c));
  const exited = new Promise((resolve) => proc.on('exit', resolve));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    const up = await fetch(`${url}/healthz`).then((r) => r.status === 200, () => false);
    if (up) break;
    if (proc.exitCode !== null || i > 400) throw new Error(`nginx did not start: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return {
    url: `${url}/mcp`,
    pid: proc.pid,
    async stop() {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      process.kill(proc.pid, 'SIGTERM');
      await exited;
    },
  };
}
