import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** A child node process started by a test, with its output collected line by line. */
export interface Child {
  readonly process: ChildProcess;
  readonly pid: number;
  /** Every complete stdout line so far. */
  readonly lines: string[];
  stderr(): string;
  /** Resolves with the first line (past or future) that matches; rejects on exit or timeout. */
  waitForLine(match: (line: string) => boolean, timeoutMs?: number): Promise<string>;
  /** Resolves when the process has exited. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * The run's cache variables, set in process.env by test/support/global-setup.js so that every
 * spawned bin keeps its code cache in the run's temp dir. Spawners that inherit process.env
 * (everything here) need nothing; pass these to one that does not, such as the MCP SDKs' stdio
 * transports (their default environment keeps only PATH, HOME and a few more).
 */
export function testRunCacheEnv(): { PM_COMPILE_CACHE_DIR: string; XDG_CACHE_HOME: string } {
  const { PM_COMPILE_CACHE_DIR, XDG_CACHE_HOME } = process.env;
  if (!PM_COMPILE_CACHE_DIR || !XDG_CACHE_HOME) throw new Error('PM_COMPILE_CACHE_DIR / XDG_CACHE_HOME are unset: run the tests through jest (test/support/global-setup.js sets them)');
  return { PM_COMPILE_CACHE_DIR, XDG_CACHE_HOME };
}

/** How a child that ran to its end exited, and everything it printed. */
export interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `command` to its end and collects its output. `input`, when given, is its whole stdin;
 * otherwise its stdin is closed from the start.
 */
export function runToEnd(command: string, args: readonly string[], options: { readonly cwd: string; readonly env: NodeJS.ProcessEnv; readonly input?: string }): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    if (options.input !== undefined) child.stdin!.end(options.input);
  });
}

/** Path of a worker script under test/support/workers. */
export function workerPath(name: string): string {
  return fileURLToPath(new URL(`./workers/${name}`, import.meta.url));
}

/**
 * Starts and tracks child processes so a test can never leak one: killAll() (called from
 * afterEach/afterAll) SIGKILLs every child still running and waits for it to be gone.
 */
export class ChildProcesses {
  private readonly live = new Set<Child>();

  startNode(script: string, args: readonly string[] = [], env: NodeJS.ProcessEnv = {}): Child {
    const proc = spawn(process.execPath, [script, ...args], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    const lines: string[] = [];
    let partial = '';
    let err = '';
    const waiters = new Set<() => void>();
    proc.stdout!.setEncoding('utf8');
    proc.stdout!.on('data', (chunk: string) => {
      partial += chunk;
      const parts = partial.split('\n');
      partial = parts.pop()!;
      lines.push(...parts);
      for (const wake of waiters) wake();
    });
    proc.stderr!.setEncoding('utf8');
    proc.stderr!.on('data', (chunk: string) => (err += chunk));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
      proc.on('exit', (code, signal) => {
        this.live.delete(child);
        resolve({ code, signal });
        for (const wake of waiters) wake();
      });
    });
    let done = false;
    void exited.then(() => (done = true));
    const child: Child = {
      process: proc,
      pid: proc.pid!,
      lines,
      stderr: () => err,
      exited,
      waitForLine: (match, timeoutMs = 20_000) =>
        new Promise((resolve, reject) => {
          const timer = setTimeout(() => finish(new Error(`no matching line from ${script} within ${timeoutMs} ms; stderr: ${err}`)), timeoutMs);
          const check = () => {
            const line = lines.find(match);
            if (line !== undefined) finish(undefined, line);
            else if (done || proc.exitCode !== null || proc.signalCode !== null) finish(new Error(`${script} exited (${proc.exitCode ?? proc.signalCode}) before the expected line; stderr: ${err}`));
          };
          const finish = (error?: Error, line?: string) => {
            clearTimeout(timer);
            waiters.delete(check);
            if (error) reject(error);
            else resolve(line!);
          };
          waiters.add(check);
          check();
        }),
    };
    this.live.add(child);
    return child;
  }

  /** SIGKILLs one child and waits until it is gone. */
  async kill(child: Child): Promise<void> {
    if (child.process.exitCode === null && child.process.signalCode === null) child.process.kill('SIGKILL');
    await child.exited;
  }

  async killAll(): Promise<void> {
    await Promise.all([...this.live].map((child) => this.kill(child)));
  }
}

/** The pid of a process that has certainly exited (for stale-lock scenarios). */
export async function deadPid(): Promise<number> {
  const proc = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await new Promise((resolve) => proc.on('exit', resolve));
  return proc.pid!;
}
