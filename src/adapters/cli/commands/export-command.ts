import { z } from 'zod';
import { TRACKER_EXPORT_FORMATS } from '../../../domain/tracker/export.js';
import { parseWith } from '../argv.js';
import type { CliCommand } from '../command.js';

const schema = z.object({
  format: z.enum(TRACKER_EXPORT_FORMATS).default('json'),
  stdout: z.boolean().optional(),
  file: z.literal('-', { error: "only '-' (stdout) can be named; to write a file of your choosing, redirect: pm export --stdout > FILE" }).optional(),
});

/** `pm export`: every item to a new file in the runtime area (docs/TRACKER.md "Export"). */
export const exportCommand: CliCommand = {
  name: 'export',
  summary: 'Write every item as JSON or JSONL, to a file in the runtime area or to stdout',
  description: "Writes every item (open and closed, with comments and body), ordered by id, to a new file under .agents/pm/.runtime/exports/ (git-ignored) and prints its path, item count, size and sha256 digest. --format json (default) writes one document { format: \"pm-export\", version: 1, exportedAt, items }; jsonl writes one item per line. JSON: { format, path, items, bytes, digest, exportedAt }. --stdout (or '-' as the file) prints the document itself instead, and writes no file; --json changes nothing then.",
  args: [{ name: 'file', optional: true }],
  options: {
    format: { type: 'string', value: 'F', description: 'json (default) or jsonl', complete: TRACKER_EXPORT_FORMATS },
    stdout: { type: 'boolean', description: "Print the export to stdout instead of writing a file (same as '-' as the file)" },
  },
  examples: ['pm export', 'pm export --format jsonl --json', 'pm export --stdout --format jsonl | jq -c "select(.status == \"open\")"', 'pm export - > backup.json'],
  async run(args, { io, services }) {
    const { format, stdout, file } = parseWith(schema, { ...args.values, file: args.positionals[0] }, 'export', ['file']);
    if (stdout || file === '-') {
      // The document is the output (also under --json): written here, the command prints nothing more.
      const { text } = await (await services.tracker()).exportText(format);
      await io.write(text);
      return { value: undefined, human: '', written: true };
    }
    const done = await (await services.tracker()).export(format);
    return { value: done, human: `Exported ${done.items} items as ${done.format} to ${done.path}\n  ${done.bytes} bytes, ${done.digest}\n` };
  },
};
