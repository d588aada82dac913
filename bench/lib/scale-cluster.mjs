// The pieces of a scaled-out pm-mcp-http for `npm run bench:scale` (docs/DEPLOY.md): a
// throw-away PostgreSQL (initdb into a temp dir, pg_ctl on a free loopback port, stopped by its
// pid) and nginx round-robin balancers with generated configurations (own prefix, pid and logs
// in a temp dir, stopped by pid), from scripts/lib like the integration tests' (one source).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { nginxConfig } from '../../scripts/lib/nginx-config.mjs';
import { freePort, startPostgres as startThrowAwayPostgres } from '../../scripts/lib/postgres-server.mjs';

export { freePort };

/** PostgreSQL with production durability (fsync on), on the same machine as the instances. */
export function startPostgres() {
  return startThrowAwayPostgres({ fsync: true, tmpPrefix: 'pm-bench-pg-' });
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
