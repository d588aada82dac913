import type { TrackerConfig } from '../../domain/tracker/config.js';
import type { ConsentProvider } from '../../domain/tracker/consent.js';
import { coerceCustomValue } from '../../domain/tracker/item-rules.js';
import type { CliIo, OptionSpec } from './command.js';
import { unreadableNote } from './render/list-view.js';
import { UsageError } from './usage-error.js';

/** Inputs several commands share: the item body, custom fields and consent. */

export const BODY_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  body: { type: 'string', value: 'TEXT', description: 'Description (Markdown)', allowEmpty: true },
  'body-file': { type: 'string', value: 'FILE', description: "Read the description from FILE ('-' for stdin)" },
};

/** The body from --body or --body-file (never both); undefined when neither was given. */
export async function readBody(values: { body?: string; 'body-file'?: string }, io: CliIo, command: string): Promise<string | undefined> {
  if (values.body !== undefined && values['body-file'] !== undefined) throw new UsageError('give --body or --body-file, not both', command);
  const file = values['body-file'];
  if (file === undefined) return values.body;
  if (file === '-') return io.readStdin();
  try {
    return await io.readFile(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(`--body-file: cannot read ${file}${code === 'ENOENT' ? ': no such file' : code ? ` (${code})` : ''}`, command, { file });
  }
}

/**
 * Custom field values from `--set key=value` (coerced to the type config.yaml declares) and
 * `--unset key` (null removes the field). The tracker then checks them against the config.
 */
export function customFields(set: readonly [string, string][] | undefined, unset: readonly string[] | undefined, config: TrackerConfig): Record<string, string | number | boolean | null> | undefined {
  if (!set && !unset) return undefined;
  const custom: Record<string, string | number | boolean | null> = {};
  for (const [name, raw] of set ?? []) custom[name] = coerceCustomValue(name, raw, config);
  for (const name of unset ?? []) custom[name] = null;
  return custom;
}

/**
 * How the CLI answers the domain's consent request: --yes answers yes; on a terminal the
 * person is asked; otherwise there is nobody to ask, the tracker refuses (exit 6) and the
 * message tells the caller to pass --yes.
 */
export function consentFor(yes: boolean, io: CliIo): ConsentProvider | undefined {
  if (yes) return () => true;
  if (io.interactive) return (request) => io.confirm(`${request.message} [y/N] `);
  return undefined;
}

/** `-y`/`--yes`, shared by the commands that may need consent. */
export const YES_OPTION: OptionSpec = { type: 'boolean', short: 'y', description: 'Give consent up front instead of being asked (required when stdin is not a terminal)' };

/** Tells stderr which item files a query left out because they do not parse. */
export async function warnUnreadable(io: CliIo, unreadable: readonly { id: string }[] | undefined): Promise<void> {
  const note = unreadableNote(unreadable);
  if (note) await io.writeError(note);
}
