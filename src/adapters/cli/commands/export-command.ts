import { z } from 'zod';
import { TRACKER_EXPORT_FORMATS } from '../../../domain/tracker/export.js';
import { parseWith } from '../argv.js';
import type { CliCommand } from '../command.js';

const schema = z.object({ format: z.enum(TRACKER_EXPORT_FORMATS).default('json') });

/** `pm export`: every item to a new file in the runtime area (docs/TRACKER.md "Export"). */
export const exportCommand: CliCommand = {
  name: 'export',
  summary: 'Write every item to a JSON or JSONL file in the runtime area',
  description: "Writes every item (open and closed, with comments and body), ordered by id, to a new file under .agents/pm/.runtime/exports/ (git-ignored) and prints its path, item count, size and sha256 digest. --format json (default) writes one document { format: \"pm-export\", version: 1, exportedAt, items }; jsonl writes one item per line. JSON: { format, path, items, bytes, digest, exportedAt }.",
  args: [],
  options: { format: { type: 'string', value: 'F', description: 'json (default) or jsonl', complete: TRACKER_EXPORT_FORMATS } },
  examples: ['pm export', 'pm export --format jsonl --json'],
  async run(args, { services }) {
    const { format } = parseWith(schema, { ...args.values }, 'export');
    const done = await (await services.tracker()).export(format);
    return { value: done, human: `Exported ${done.items} items as ${done.format} to ${done.path}\n  ${done.bytes} bytes, ${done.digest}\n` };
  },
};
