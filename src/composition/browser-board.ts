import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserBoardControl, BrowserBoardReport } from '../adapters/cli/command.js';

/**
 * `pm ui` (docs/CLI.md "pm ui", docs/APPS.md "The board in the browser"): starts a loopback
 * pm-mcp-http for this tracker in the background, or finds the one an earlier `pm ui` started,
 * and opens its live board in the browser. The running server is recorded in the tracker's
 * runtime area (`.agents/pm/.runtime/ui-server.json`, never committed); a record whose process
 * is gone or does not answer `/healthz` is replaced.
 */

interface BoardRecord {
  readonly pid: number;
  readonly url: string;
  readonly startedAt: string;
}

const HTTP_BIN = fileURLToPath(new URL('../../bin/pm-mcp-http.js', import.meta.url));
const START_TIMEOUT_MS = 20_000;

/** The board control of the tracker at `root` (`.agents/pm`); `env` is the environment `pm` runs in. */
export function nodeBrowserBoard(root: string, env: NodeJS.ProcessEnv): BrowserBoardControl {
  const runtime = join(root, '.runtime');
  const recordFile = join(runtime, 'ui-server.json');
  const project = join(root, '..', '..');
  return {
    async open({ browser }) {
      const running = await liveRecord(recordFile);
      const record = running ?? (await startServer(runtime, recordFile, project, env));
      const report: { -readonly [K in keyof BrowserBoardReport]: BrowserBoardReport[K] } = { url: record.url, reused: running !== undefined, pid: record.pid, opened: false };
      if (browser) {
        try {
          await openBrowser(record.url, env);
          report.opened = true;
        } catch (error) {
          report.openError = (error as Error).message;
        }
      }
      return report;
    },
    async stop() {
      const record = await liveRecord(recordFile);
      rmSync(recordFile, { force: true });
      if (!record) return undefined;
      process.kill(record.pid, 'SIGTERM');
      return record.pid;
    },
  };
}

/** The recorded server when its process lives and answers its health probe. */
async function liveRecord(file: string): Promise<BoardRecord | undefined> {
  let record: BoardRecord;
  try {
    record = JSON.parse(readFileSync(file, 'utf8')) as BoardRecord;
    if (!Number.isInteger(record.pid) || typeof record.url !== 'string' || !/^http:\/\/[^/]+\/$/.test(record.url)) return undefined;
    process.kill(record.pid, 0);
  } catch {
    return undefined;
  }
  try {
    const response = await fetch(new URL('/healthz', record.url), { signal: AbortSignal.timeout(2_000) });
    await response.body?.cancel();
    return response.ok ? record : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Starts `pm-mcp-http --host 127.0.0.1 --port 0 --no-init` detached, serving this tracker
 * (PM_ROOT) with every tool's view (PM_MCP_PROFILE=full unless set), its output in the runtime
 * area; resolves once it printed its endpoint URL, and records it.
 */
async function startServer(runtime: string, recordFile: string, project: string, env: NodeJS.ProcessEnv): Promise<BoardRecord> {
  mkdirSync(runtime, { recursive: true });
  const outFile = join(runtime, 'ui-server.out');
  const logFile = join(runtime, 'ui-server.log');
  const out = openSync(outFile, 'w');
  const log = openSync(logFile, 'w');
  const childEnv: NodeJS.ProcessEnv = { ...env, PM_ROOT: project, PM_MCP_PROFILE: env.PM_MCP_PROFILE ?? 'full' };
  delete childEnv.npm_lifecycle_event; // not an `npm start` server: it outlives this command
  const child = spawn(process.execPath, [HTTP_BIN, '--host', '127.0.0.1', '--port', '0', '--no-init'], { cwd: project, env: childEnv, detached: true, stdio: ['ignore', out, log] });
  closeSync(out);
  closeSync(log);
  let exited: string | undefined;
  child.once('exit', (code, signal) => (exited = signal ? `signal ${signal}` : `exit ${code}`));
  child.once('error', (error) => (exited = error.message));
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    const endpoint = readFileSync(outFile, 'utf8').split('\n').find((line) => line.startsWith('http://'));
    if (endpoint) {
      const record: BoardRecord = { pid: child.pid!, url: new URL('/', endpoint).href, startedAt: new Date().toISOString() };
      writeFileSync(recordFile, `${JSON.stringify(record)}\n`);
      child.unref();
      return record;
    }
    if (exited || Date.now() > deadline) {
      if (!exited) child.kill('SIGTERM');
      const why = readFileSync(logFile, 'utf8').trim().split('\n').slice(-3).join('\n');
      throw new Error(`the board server did not start (${exited ?? `no URL within ${START_TIMEOUT_MS / 1000} s`}): ${why || 'no output'} (log: ${logFile})`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Opens `url` in the user's browser: $BROWSER, else open (macOS), start (Windows) or xdg-open. */
function openBrowser(url: string, env: NodeJS.ProcessEnv): Promise<void> {
  const [command, args] = env.BROWSER ? [env.BROWSER, [url]] : process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '""', url]] : ['xdg-open', [url]];
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { detached: true, stdio: 'ignore', env });
    child.once('error', (error) => reject(new Error(`could not run ${command}: ${error.message}`)));
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
}
