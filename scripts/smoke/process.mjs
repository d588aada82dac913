// Processes for smoke:mcp (scripts/smoke-mcp.mjs): a clean environment, commands run to
// completion, and stdio MCP servers spoken to line by line. Every child is tracked so an
// interrupted gate kills what it started.
import { spawn } from 'node:child_process';

export const WIN = process.platform === 'win32';

/** Every child still running, killed by {@link killAll}. */
const children = new Set();

export function killAll() {
  for (const child of children) child.kill('SIGKILL');
}

/**
 * The environment for npm/npx/bun and the servers: the caller's, minus what `npm run`/`npm test`
 * inject about *this* package (a leaked npm_config_local_prefix would point npm back at the
 * repository instead of the temp consumer).
 */
export function cleanEnv(source = process.env) {
  const env = { ...source };
  for (const key of Object.keys(env)) {
    const k = key.toLowerCase();
    if (/^npm_(lifecycle_|package_)/.test(k) || ['npm_command', 'npm_execpath', 'npm_node_execpath', 'init_cwd'].includes(k)) delete env[key];
    if (['npm_config_local_prefix', 'npm_config_call', 'npm_config_yes', 'npm_config_dry_run', 'npm_config_global', 'npm_config_workspace', 'npm_config_workspaces', 'npm_config_prefix', 'npm_config_cache', 'npm_config_offline', 'npm_config_ignore_scripts'].includes(k)) delete env[key];
  }
  delete env.PM_ROOT; // the server must find the tracker from its working directory
  return env;
}

/** The environment every child gets (the gate adds its temp caches to it). */
export const ENV = cleanEnv();

/** Runs a command to completion; rejects on a non-zero exit or after timeoutMs. */
export function run(command, commandArgs, { cwd, timeoutMs = 180_000, env = ENV } = {}) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, commandArgs, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], shell: WIN });
    children.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      children.delete(child);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      children.delete(child);
      if (code === 0) resolvePromise({ stdout, stderr });
      else reject(new Error(`${command} ${commandArgs.join(' ')} exited ${code ?? signal}${signal === 'SIGKILL' ? ` (timeout ${timeoutMs} ms)` : ''}\n${`${stderr}\n${stdout}`.trim().split('\n').slice(-15).join('\n')}`));
    });
  });
}

/** One stdio server process: newline-delimited JSON-RPC, responses matched by id. */
export class Server {
  constructor(launcher, cwd) {
    this.launcher = launcher;
    this.child = spawn(launcher.command, launcher.args, { cwd, env: ENV, stdio: ['pipe', 'pipe', 'pipe'], shell: launcher.shell ?? false });
    children.add(this.child);
    this.lines = [];
    this.stderr = '';
    this.waiters = new Set();
    let partial = '';
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (chunk) => {
      partial += chunk;
      const parts = partial.split('\n');
      partial = parts.pop();
      for (const line of parts) if (line.trim()) this.lines.push(line);
      for (const wake of this.waiters) wake();
    });
    this.child.stderr.on('data', (d) => (this.stderr += d));
    this.child.stdin.on('error', () => undefined);
    this.exited = new Promise((r) => this.child.on('close', (code, signal) => {
      children.delete(this.child);
      r({ code, signal });
      for (const wake of this.waiters) wake();
    }));
  }

  send(message) {
    this.child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  request(id, method, params, timeoutMs) {
    this.send({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) });
    return new Promise((resolvePromise, reject) => {
      const timer = setTimeout(() => finish(new Error(`no response to ${method} within ${timeoutMs} ms; stderr: ${this.stderr.trim().slice(-500)}`)), timeoutMs);
      const wake = () => {
        for (const line of this.lines) {
          let value;
          try {
            value = JSON.parse(line);
          } catch {
            continue;
          }
          if (value && value.id === id && value.method === undefined) return finish(undefined, value);
        }
        if (this.child.exitCode !== null || this.child.signalCode !== null) finish(new Error(`${this.launcher.label} exited before answering ${method}; stderr: ${this.stderr.trim().slice(-500)}`));
      };
      const finish = (error, value) => {
        clearTimeout(timer);
        this.waiters.delete(wake);
        if (error) reject(error);
        else resolvePromise(value);
      };
      this.waiters.add(wake);
      wake();
    });
  }

  /** Ends stdin and expects a clean exit (code 0) within timeoutMs. */
  async close(timeoutMs = 20_000) {
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
    const { code, signal } = await this.exited;
    clearTimeout(timer);
    if (code !== 0) throw new Error(`${this.launcher.label} exited ${code ?? signal} after stdin closed; stderr: ${this.stderr.trim().slice(-500)}`);
  }

  kill() {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}

/** Starts a server, runs fn(server), and always ends the process. */
export async function withServer(launcher, cwd, fn) {
  const server = new Server(launcher, cwd);
  try {
    const out = await fn(server);
    await server.close();
    return out;
  } finally {
    server.kill();
  }
}
