import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { nginxConfig } from '../../scripts/lib/nginx-config.mjs';
import { freePort, waitForExit } from './postgres-server.js';

/**
 * nginx as a round-robin load balancer in front of pm-mcp-http instances (docs/DEPLOY.md): the
 * configuration is generated into a temp dir (loopback only, its own prefix, pid and logs),
 * nginx runs in the foreground as a child and is stopped by its pid. Debian's nginx is
 * installed by scripts/install-nginx.sh; without it the test fails saying so.
 */
export interface NginxBalancer {
  readonly port: number;
  readonly pid: number;
  /** `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
  stop(): Promise<void>;
}

/** The nginx binary (PM_NGINX, PATH, /usr/sbin/nginx), or an error saying how to install it. */
export function nginxBinary(): string {
  const candidates = [process.env.PM_NGINX, ...(process.env.PATH ?? '').split(':').map((dir) => join(dir, 'nginx')), '/usr/sbin/nginx'].filter((p): p is string => !!p);
  const found = candidates.find((path) => existsSync(path));
  if (!found) throw new Error('nginx not found: run scripts/install-nginx.sh (installs Debian\'s nginx package) or set PM_NGINX to an nginx binary');
  return found;
}

/** The balancer configuration (scripts/lib/nginx-config.mjs, shared with bench:scale); what docs/DEPLOY.md shows. */
export { nginxConfig };

function ok(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request(url, { agent: false }, (res) => {
      res.resume();
      resolve((res.statusCode ?? 0) < 500);
    });
    req.on('error', () => resolve(false));
    req.end();
  });
}

/** Starts nginx over `upstreams` on `port` (a free one when omitted), once it answers. */
export async function startNginx(dir: string, upstreams: readonly number[], port?: number): Promise<NginxBalancer> {
  const bin = nginxBinary();
  mkdirSync(dir, { recursive: true });
  const listen = port ?? (await freePort());
  writeFileSync(join(dir, 'nginx.conf'), nginxConfig(dir, listen, upstreams));
  const proc: ChildProcess = spawn(bin, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  proc.stderr!.on('data', (c) => (stderr += c));
  const exited = new Promise<void>((resolve) => proc.on('exit', () => resolve()));
  const pid = proc.pid!;
  const started = Date.now();
  while (!(await ok(`http://127.0.0.1:${listen}/healthz`))) {
    if (proc.exitCode !== null) throw new Error(`nginx exited (${proc.exitCode}): ${stderr}`);
    if (Date.now() - started > 20_000) throw new Error(`nginx did not answer on ${listen} within 20 s: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return {
    port: listen,
    pid,
    url: `http://127.0.0.1:${listen}/mcp`,
    async stop() {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      process.kill(pid, 'SIGTERM');
      await exited;
      await waitForExit(pid);
    },
  };
}
