import { z } from 'zod';
import type { CliCommand } from '../command.js';
import { parseWith } from '../argv.js';

const uiSchema = z.object({ open: z.boolean().default(true), stop: z.boolean().default(false) }).strict();

/**
 * `pm ui`: the live board in the browser (docs/APPS.md "The board in the browser"). Starts a
 * loopback pm-mcp-http for this tracker, or reuses the one an earlier `pm ui` started, prints
 * the page's URL and opens it; `--no-open` only prints it, `--stop` ends the server.
 */
export const uiCommand: CliCommand = {
  name: 'ui',
  summary: 'Open the live board in the browser (starts or reuses a loopback pm-mcp-http)',
  description:
    "Starts pm-mcp-http on 127.0.0.1 (a free port) in the background for this tracker, or reuses the one an earlier `pm ui` started, and opens its page: the dashboard, board, item, graph and history views, read-only, updated live as agents change items. The URL is always printed. The server keeps running after this command (its log: .agents/pm/.runtime/ui-server.log); `pm ui --stop` ends it. It serves every tool's view (PM_MCP_PROFILE=full unless set). $BROWSER names the browser command (else open, start or xdg-open). JSON: { url, reused, pid, opened, openError? }, or { stopped: pid | null } with --stop.",
  args: [],
  options: {
    'no-open': { type: 'boolean', description: 'Print the URL without opening a browser' },
    stop: { type: 'boolean', description: 'Stop the board server an earlier pm ui started' },
  },
  examples: ['pm ui', 'pm ui --no-open', 'pm ui --stop'],
  async run(args, { services }) {
    const input = parseWith(uiSchema, { open: args.values['no-open'] === true ? false : undefined, stop: args.values.stop }, 'ui');
    const board = await services.browserBoard();
    if (input.stop) {
      const pid = await board.stop();
      return { value: { stopped: pid ?? null }, human: pid ? `stopped the board server (pid ${pid})\n` : 'no board server running\n' };
    }
    const report = await board.open({ browser: input.open });
    const human = `live board (${report.reused ? 'already running' : 'started'}, pid ${report.pid}): ${report.url}\n`;
    return { value: report, human, ...(report.openError ? { warnings: [`could not open a browser (${report.openError}); open the URL yourself`] } : {}) };
  },
};
