// A minimal newline-delimited JSON-RPC client over a child process's stdio, for the MCP
// benchmark. Every response is parsed and checked (a JSON-RPC error or a result the caller's
// `check` refuses counts as an error); `pipeline` keeps a fixed number of requests in flight
// and writes the replacements for one chunk of responses in one write.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

/** USER_HZ of /proc/<pid>/stat times (100 on Linux). */
const CLOCK_TICKS = 100;
const ID_MARK = '"jsonrpc":"2.0","id":';

function parseLine(name, line) {
  try {
    return JSON.parse(line);
  } catch {
    throw new Error(`${name}: unparseable output line: ${line.slice(0, 200)}`);
  }
}

/** The id of a response line: read next to its "jsonrpc" member when the server writes them together, else parsed. */
function idOf(line) {
  const at = line.startsWith(ID_MARK, 1) ? 1 : line.lastIndexOf(ID_MARK);
  if (at >= 0) {
    let end = at + ID_MARK.length;
    while (end < line.length && line.charCodeAt(end) >= 48 && line.charCodeAt(end) <= 57) end++;
    const next = line[end];
    if (end > at + ID_MARK.length && (next === ',' || next === '}')) return Number(line.slice(at + ID_MARK.length, end));
  }
  return parseLine('peer', line).id;
}

export class StdioPeer {
  /**
   * @param {string} name label for messages
   * @param {string[]} argv node arguments (script and its arguments)
   * @param {{ cwd?: string, env?: NodeJS.ProcessEnv }} options
   */
  constructor(name, argv, options = {}) {
    this.name = name;
    this.spawnedAt = performance.now();
    this.child = spawn(process.execPath, argv, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.stderr = '';
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (chunk) => { if (this.stderr.length < 20_000) this.stderr += chunk; });
    this.exited = new Promise((resolve) => this.child.on('exit', (code, signal) => resolve({ code, signal })));
    this.pending = new Map();
    this.nextId = 1;
    this.buffer = '';
    this.onResponse = undefined;
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (chunk) => this.receive(chunk));
  }

  get pid() {
    return this.child.pid;
  }

  receive(chunk) {
    const now = performance.now();
    this.buffer += chunk;
    let newline;
    while ((newline = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, newline);
      this.buffer = this.buffer.slice(newline + 1);
      if (!line.trim()) continue;
      const id = idOf(line);
      if (id === undefined) continue; // notifications
      const entry = this.pending.get(id);
      if (!entry) throw new Error(`${this.name}: response for unknown id ${id}`);
      this.pending.delete(id);
      entry(line, now);
    }
    this.onChunkDone?.();
  }

  /** One request; resolves with { message, ms } (never rejects on a JSON-RPC error). */
  request(method, params) {
    const id = this.nextId++;
    const sentAt = performance.now();
    return new Promise((resolve) => {
      this.pending.set(id, (line, at) => resolve({ message: parseLine(this.name, line), ms: at - sentAt }));
      this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  }

  /**
   * Sends `count` requests built by `frame(id)` (a JSON line without the newline), `window` in
   * flight, and resolves with the wall time, per-request latencies and the error count.
   * `check(message)` returns true for a real success.
   */
  pipeline(frame, count, window, check) {
    return new Promise((resolve) => {
      const latencies = new Float64Array(count);
      let sent = 0;
      let done = 0;
      let errors = 0;
      let firstError;
      let batch = '';
      let verified;
      const started = performance.now();
      const queue = () => {
        const id = this.nextId++;
        const index = sent++;
        const sentAt = performance.now();
        this.pending.set(id, (line, at) => {
          latencies[index] = at - sentAt;
          // A reply byte-identical (but for its id) to one already parsed and checked is the
          // same success; anything else is parsed and checked in full.
          const key = line.replace(`${ID_MARK}${id}`, `${ID_MARK}#`);
          if (key !== verified) {
            const message = parseLine(this.name, line);
            if (check(message)) verified ??= key;
            else {
              errors++;
              firstError ??= message;
            }
          }
          done++;
          if (sent < count) queue();
        });
        batch += `${frame(id)}\n`;
      };
      const flush = () => {
        if (batch) this.child.stdin.write(batch);
        batch = '';
        if (done === count) {
          this.onChunkDone = undefined;
          resolve({ wallMs: performance.now() - started, latencies: [...latencies], errors, firstError });
        }
      };
      this.onChunkDone = flush;
      for (let i = 0; i < Math.min(window, count); i++) queue();
      flush();
    });
  }

  /** CPU time (user + system, all threads) the server process has used so far, in ms. */
  cpuMs() {
    const stat = readFileSync(`/proc/${this.child.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  }

  /** Peak resident set (VmHWM) of the server process, in MB. */
  peakRssMb() {
    const status = readFileSync(`/proc/${this.child.pid}/status`, 'utf8');
    const kb = Number(/VmHWM:\s+(\d+)\s+kB/.exec(status)?.[1]);
    return kb / 1024;
  }

  /** Closes stdin and waits for the process to exit (killed after `graceMs`). */
  async close(graceMs = 3000) {
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    const result = await this.exited;
    clearTimeout(timer);
    return result;
  }
}
