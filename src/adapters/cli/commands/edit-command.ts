import { z } from 'zod';
import { PmError } from '../../../domain/errors/pm-error.js';
import { StaleRevisionError, ValidationError } from '../../../domain/errors/tracker-errors.js';
import { parseItem, serializeItem } from '../../../domain/tracker/item-codec.js';
import type { Item } from '../../../domain/tracker/item.js';
import type { Tracker } from '../../../domain/tracker/tracker.js';
import { parseWith } from '../argv.js';
import { STRICT_OPTION, idArgument } from '../argv-values.js';
import type { CliCommand, CliEditor, CliIo, CommandOutcome } from '../command.js';
import { editToUpdate } from '../item-edit.js';
import { renderMutation } from '../render/item-view.js';

const schema = z.object({ id: idArgument, resume: z.string().min(1, '--resume needs the draft path pm edit printed').optional(), strict: z.boolean().optional() });

/**
 * `pm edit <id>`: the item file in the user's editor, on a private draft; what changed goes
 * through `update` (revision guard, history line, index), so an edit is recorded like any other.
 */
export const editCommand: CliCommand = {
  name: 'edit',
  summary: 'Edit an item in $VISUAL / $EDITOR (a draft; applied as one update)',
  description: "Opens the item file as a draft in $VISUAL, else $EDITOR, else vi. On save, what you changed (title, body, type, status, priority, parent, assignee, tags, acceptance, files, tests, custom fields) is applied as one update, guarded by the revision the draft started from. A draft that does not parse, a change to a field pm or another command owns (id, created, updated, revision, comments, claim, closure, blockedBy, related), or an item that changed meanwhile changes nothing: the draft is kept and the message says how to retry (pm edit <id> --resume <draft>). Saving without a change writes nothing.",
  args: [{ name: 'id' }],
  options: {
    resume: { type: 'string', value: 'DRAFT', description: 'Open a kept draft again instead of a fresh one' },
    ...STRICT_OPTION,
  },
  examples: ['pm edit pm-a1b2c3', 'EDITOR="code --wait" pm edit pm-a1b2c3', 'pm edit pm-a1b2c3 --resume /tmp/pm-edit-x1/pm-a1b2c3.md'],
  async run(args, { io, services, globals }) {
    const input = parseWith(schema, { ...args.values, id: args.positionals[0] }, 'edit', ['id']);
    const editor = io.editor;
    if (!editor) throw new ValidationError('pm edit needs an editor and a terminal; use pm update to change fields', {});
    const tracker = await services.tracker();
    const current = await tracker.get(input.id);
    const draft = input.resume ?? (await editor.createDraft(`${current.id}.md`, serializeItem(current)));
    try {
      return await editDraft({ tracker, editor, io, id: current.id, draft, base: input.resume ? undefined : current, strict: input.strict });
    } catch (error) {
      const retry = `pm edit ${current.id} --resume ${draft}`;
      await io.writeError(globals.json ? `${JSON.stringify({ draft, retry })}\n` : `pm: your draft is kept in ${draft}; retry with: ${retry}\n`);
      throw error;
    }
  },
};

interface EditRun {
  readonly tracker: Tracker;
  readonly editor: CliEditor;
  readonly io: CliIo;
  readonly id: string;
  readonly draft: string;
  /** The item the draft was made from (undefined on --resume: the draft's revision tells). */
  readonly base: Item | undefined;
  readonly strict: boolean | undefined;
}

async function editDraft(run: EditRun): Promise<CommandOutcome> {
  const code = await run.editor.edit(run.draft);
  if (code !== 0) throw new Error(`the editor exited with status ${code}; nothing was changed`);
  const edited = parseDraft(await run.io.readFile(run.draft), run.draft);
  const base = run.base ?? (await run.tracker.get(run.id));
  if (run.base === undefined && edited.id === base.id && edited.revision !== base.revision) {
    throw new StaleRevisionError(`${run.id} changed since this draft was made (revision ${edited.revision}, now ${base.revision}): start again with pm edit ${run.id} and copy your changes over`, { itemId: run.id, expectedRevision: edited.revision, actualRevision: base.revision });
  }
  const update = editToUpdate(base, edited);
  if (Object.keys(update).length === 0) {
    await run.editor.removeDraft(run.draft);
    return { value: { changed: false, item: base }, human: `No changes: ${base.id} "${base.title}" left as it was (revision ${base.revision}).\n` };
  }
  const result = await run.tracker.update(run.id, update, { expectedRevision: base.revision, ...(run.strict !== undefined ? { strict: run.strict } : {}) });
  await run.editor.removeDraft(run.draft);
  return { value: result, human: renderMutation('Edited', result), ...(result.warnings ? { warnings: result.warnings } : {}) };
}

/** The draft as an item; a draft that does not parse is the user's input to fix (exit 2), with its line and column. */
function parseDraft(text: string, draft: string): Item {
  try {
    return parseItem(text, draft);
  } catch (error) {
    if (!(error instanceof PmError)) throw error;
    const { line, column } = error.data as { line?: number; column?: number };
    throw new ValidationError(`the draft does not parse: ${error.message}`, { draft, ...(line !== undefined ? { line, column } : {}) });
  }
}
