import { EXIT } from '../../../domain/errors/pm-error.js';
import type { CliCommand, IndexWatcherReport } from '../command.js';

/**
 * `pm index status|stop|watch`: the tracker's index watcher, a long-lived process that follows
 * the items directory so one-shot queries need not check every item file's signature
 * (docs/TRACKER.md "The derived index"). Queries start it on demand and it ends by itself; these
 * commands show it, stop it, or run it in the foreground.
 */
export const indexStatusCommand: CliCommand = {
  name: 'index status',
  summary: "Show the tracker's index watcher (pid, socket, uptime, events, last full check)",
  description:
    "One-shot pm queries ask the tracker's index watcher to bring the derived index up to date instead of checking every item file themselves; with PM_INDEX_WATCHER=auto (the default) a query starts one once the tracker holds 5,000 items (`on`: at any size, `off`: never). The watcher ends after PM_INDEX_WATCHER_IDLE_MS without a request (15 minutes), when the tracker directory disappears, or on `pm index stop`. JSON: { running, socket, status?: { pid, socket, root, build, startedAt, uptimeMs, requests, events, sweeps, lastSweepAt, idleTimeoutMs }, detail? }.",
  args: [],
  options: {},
  examples: ['pm index status', 'pm index status --json'],
  async run(_args, { services }) {
    const report = await (await services.indexWatcher()).status();
    return { value: report, human: `${describe(report, 'running')}\n` };
  },
};

export const indexStopCommand: CliCommand = {
  name: 'index stop',
  summary: "Stop the tracker's index watcher (queries check the files themselves until one starts again)",
  description: "Asks the tracker's index watcher to exit. Nothing is lost: the index stays exact, and the next large query may start a new watcher (set PM_INDEX_WATCHER=off to keep it from starting). JSON: { running: false, socket, status?: the stopped watcher's last status, detail? }.",
  args: [],
  options: {},
  examples: ['pm index stop'],
  async run(_args, { services }) {
    const report = await (await services.indexWatcher()).stop();
    return { value: report, human: `${describe(report, 'stopped')}\n` };
  },
};

export const indexWatchCommand: CliCommand = {
  name: 'index watch',
  summary: "Run the tracker's index watcher in the foreground (queries start it on demand)",
  description:
    "Runs the index watcher in this process: it follows the items directory over the tracker's index and answers the queries of other pm processes over a Unix socket in .agents/pm/.runtime/ (or a private directory under the system temp dir when that path is too long), until it is idle for PM_INDEX_WATCHER_IDLE_MS, the tracker directory disappears, `pm index stop` or a signal. Exits at once when another watcher of this tracker runs. It never writes item files. Where the index is kept in memory (PM_INDEX_DRIVER=memory, or no SQLite driver loads) there is nothing to watch: it says so and exits 1.",
  args: [],
  options: {},
  examples: ['pm index watch'],
  async run(_args, { services }) {
    const exit = await (await services.indexWatcher()).run();
    if (exit === 'index-in-memory') return { value: { exit }, human: 'index watcher not started: the index is kept in memory here (PM_INDEX_DRIVER=memory, or no SQLite driver could load: see above), so there is no index file to keep fresh\n', exitCode: EXIT.failure };
    return { value: { exit }, human: `index watcher ended: ${exit}\n` };
  },
};

function describe(report: IndexWatcherReport, verb: 'running' | 'stopped'): string {
  const status = report.status;
  if (report.detail) return `a watcher holds ${report.socket} but did not answer usefully: ${report.detail}`;
  if (!status) return `no index watcher running (socket ${report.socket})`;
  const head = verb === 'stopped' ? `stopped the index watcher (pid ${status.pid})` : `index watcher running: pid ${status.pid}`;
  return [
    head,
    `  socket:     ${status.socket}`,
    `  uptime:     ${Math.round(status.uptimeMs / 1000)} s (since ${status.startedAt}, ends after ${Math.round(status.idleTimeoutMs / 1000)} s idle)`,
    `  requests:   ${status.requests}`,
    `  events:     ${status.events}`,
    `  full checks: ${status.sweeps}, last ${status.lastSweepAt ?? 'never'}`,
  ].join('\n');
}
