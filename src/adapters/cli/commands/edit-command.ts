import { z } from 'zod';
import { PmError } from '../../../domain/errors/pm-error.js';
import { StaleRevisionError, ValidationError } from '../../../domain/errors/tracker-errors.js';
import { parseItem, serializeItem } from '../../../domain/tracker/item-codec.js';
import type { Item } from '../../../domain/tracker/item.js';
import type { Tracker } from '../../../domain/tracker/tracker.js';
import { parseWith } from '../argv.js';
import { STRICT_OPTION, idArgument } from '../argv-values.js';
import type { CliCommand, CliEditor, CliIo, CliServices, CommandOutcome } from '../command.js';
import { UsageError } from '../usage-error.js';
import { editToUpdate } from '../item-edit.js';
import { renderMutation } from '../render/item-view.js';

const schema = z.object({
  id: idArgument,
  resume: z.string().min(1, 'needs the draft path pm edit printed').optional(),
  editor: z.string().trim().min(1, "needs the editor's command, e.g. --editor 'code --wait'").optional(),
  'from-file': z.string().min(1, "needs a file holding the edited item, or '-' for stdin").optional(),
  strict: z.boolean().optional(),
});

/** Why `pm edit` cannot start an editor where nobody can use vi (docs/CLI.md "pm edit"). */
const NO_EDITOR = "pm edit needs an editor: $VISUAL and $EDITOR are unset and there is no terminal to run vi on. Pass --editor CMD, or give the edited item file with --from-file FILE ('-' for stdin), or change fields with pm update";

/**
 * `pm edit <id>`: the item file in the user's editor, on a private draft; what changed goes
 * through `update` (revision guard, history line, index), so an edit is recorded like any other.
 */
export const editCommand: CliCommand = {
  name: 'edit',
  summary: 'Edit an item in $VISUAL / $EDITOR (a draft; applied as one update)',
  description: "Opens the item file as a draft in --editor CMD, else $VISUAL, else $EDITOR, else vi (only on a terminal: with none of them and no terminal, pm edit refuses with exit 2 instead of starting vi). On save, what you changed (title, body, type, status, priority, parent, assignee, tags, acceptance, files, tests, custom fields) is applied as one update, guarded by the revision the draft started from. A draft that does not parse, a change to a field pm or another command owns (id, created, updated, revision, comments, claim, closure, blockedBy, related), or an item that changed meanwhile changes nothing: the draft is kept and the message says how to retry (pm edit <id> --resume <draft>). Saving without a change writes nothing. Scripts and agents skip the editor with --from-file FILE ('-' for stdin): the edited item file, checked the same way, guarded by the revision it declares.",
  args: [{ name: 'id' }],
  options: {
    editor: { type: 'string', value: 'CMD', description: 'The editor to run (a shell command; default $VISUAL, else $EDITOR, else vi on a terminal)' },
    'from-file': { type: 'string', value: 'FILE', description: "Apply the edited item file FILE ('-' for stdin) without an editor" },
    resume: { type: 'string', value: 'DRAFT', description: 'Open a kept draft again instead of a fresh one' },
    ...STRICT_OPTION,
  },
  examples: ['pm edit pm-a1b2c3', 'pm edit pm-a1b2c3 --editor "code --wait"', "sed 's/^priority: .*/priority: 0/' .agents/pm/items/pm-a1b2c3.md | pm edit pm-a1b2c3 --from-file -", 'pm edit pm-a1b2c3 --resume /tmp/pm-edit-x1/pm-a1b2c3.md'],
  async run(args, { io, services, globals }) {
    const input = parseWith(schema, { ...args.values, id: args.positionals[0] }, 'edit', ['id']);
    if (input['from-file'] !== undefined) return fromFile(input['from-file'], input, io, services);
    const editor = io.editor;
    const command = input.editor ?? editor?.configured ?? (io.interactive ? 'vi' : undefined);
    if (!editor || command === undefined) throw new UsageError(NO_EDITOR, 'edit');
    const tracker = await services.tracker();
    const current = await tracker.get(input.id);
    const draft = input.resume ?? (await editor.createDraft(`${current.id}.md`, serializeItem(current)));
    try {
      return await editDraft({ tracker, editor, command, io, id: current.id, draft, base: input.resume ? undefined : current, strict: input.strict });
    } catch (error) {
      const retry = `pm edit ${current.id} --resume ${draft}`;
      await io.writeError(globals.json ? `${JSON.stringify({ draft, retry })}\n` : `pm: your draft is kept in ${draft}; retry with: ${retry}\n`);
      throw error;
    }
  },
};

/**
 * `--from-file`: the edited item file from a script or an agent, applied as an editor's save
 * would be, guarded by the revision the file declares (a file made from an older revision is
 * refused, exit 4). Nothing to keep on failure: the file is the caller's.
 */
async function fromFile(path: string, input: { id: string; resume?: string; editor?: string; strict?: boolean }, io: CliIo, services: CliServices): Promise<CommandOutcome> {
  if (input.resume !== undefined || input.editor !== undefined) throw new UsageError('give --from-file, or --editor / --resume, not both', 'edit');
  const tracker = await services.tracker();
  const current = await tracker.get(input.id);
  const text = await readEditedFile(path, io);
  const edited = parseDraft(text, path === '-' ? '<stdin>' : path, 'file');
  return applyEdit(tracker, current.id, edited, undefined, input.strict, 'file');
}

async function readEditedFile(path: string, io: CliIo): Promise<string> {
  if (path === '-') return io.readStdin();
  try {
    return await io.readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(`--from-file: cannot read ${path}${code === 'ENOENT' ? ': no such file' : code ? ` (${code})` : ''}`, 'edit', { file: path });
  }
}

interface EditRun {
  readonly tracker: Tracker;
  readonly editor: CliEditor;
  /** The editor's command line. */
  readonly command: string;
  readonly io: CliIo;
  readonly id: string;
  readonly draft: string;
  /** The item the draft was made from (undefined on --resume: the draft's revision tells). */
  readonly base: Item | undefined;
  readonly strict: boolean | undefined;
}

async function editDraft(run: EditRun): Promise<CommandOutcome> {
  const code = await run.editor.edit(run.draft, run.command);
  if (code !== 0) throw new Error(`the editor exited with status ${code}; nothing was changed`);
  const edited = parseDraft(await run.io.readFile(run.draft), run.draft);
  const outcome = await applyEdit(run.tracker, run.id, edited, run.base, run.strict);
  await run.editor.removeDraft(run.draft);
  return outcome;
}

/**
 * Applies an edited item file as one guarded update. `base` is the item the text was made
 * from; undefined when only the text knows (a resumed draft, --from-file): then the revision
 * the text declares must still be current.
 */
async function applyEdit(tracker: Tracker, id: string, edited: Item, known: Item | undefined, strict: boolean | undefined, source: 'draft' | 'file' = 'draft'): Promise<CommandOutcome> {
  const base = known ?? (await tracker.get(id));
  if (known === undefined && edited.id === base.id && edited.revision !== base.revision) {
    const again = source === 'draft' ? `start again with pm edit ${id}` : 'start again from the current item file';
    throw new StaleRevisionError(`${id} changed since this ${source} was made (revision ${edited.revision}, now ${base.revision}): ${again} and copy your changes over`, { itemId: id, expectedRevision: edited.revision, actualRevision: base.revision });
  }
  const update = editToUpdate(base, edited);
  if (Object.keys(update).length === 0) {
    return { value: { changed: false, item: base }, human: `No changes: ${base.id} "${base.title}" left as it was (revision ${base.revision}).\n` };
  }
  const result = await tracker.update(id, update, { expectedRevision: base.revision, ...(strict !== undefined ? { strict } : {}) });
  return { value: result, human: renderMutation('Edited', result), ...(result.warnings ? { warnings: result.warnings } : {}) };
}

/** The draft as an item; a draft that does not parse is the user's input to fix (exit 2), with its line and column. */
function parseDraft(text: string, draft: string, what: 'draft' | 'file' = 'draft'): Item {
  try {
    return parseItem(text, draft);
  } catch (error) {
    if (!(error instanceof PmError)) throw error;
    const { line, column } = error.data as { line?: number; column?: number };
    throw new ValidationError(`the ${what} does not parse: ${error.message}`, { draft, ...(line !== undefined ? { line, column } : {}) });
  }
}
