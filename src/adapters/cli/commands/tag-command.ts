import { z } from 'zod';
import { parseWith } from '../argv.js';
import { commaList, repeated } from '../argv-values.js';
import { FILTER_OPTION, IDS_ARGUMENT, SELECTION_YES, runEach, select } from '../bulk.js';
import type { CliCommand } from '../command.js';
import { renderMutation } from '../render/item-view.js';
import { UsageError } from '../usage-error.js';

const schema = z.object({ add: commaList, remove: commaList, filter: repeated, yes: z.boolean().optional() });

/**
 * `pm tag <id...> --add TAG --remove TAG`: tagging several items in one line (docs/CLI.md
 * "pm tag"); the same change as `pm update --add-tag/--remove-tag`, one guarded update per item.
 */
export const tagCommand: CliCommand = {
  name: 'tag',
  summary: 'Add or remove tags on items (several ids or --filter)',
  description: 'Adds and removes tags on each item given, one update (receipt and history line) per item; tags already present or absent are no change. Several ids, or --filter: docs/CLI.md "Several items at once" (exit 10 when some failed).',
  args: [IDS_ARGUMENT],
  options: {
    add: { type: 'string', short: 'a', multiple: true, value: 'TAG', description: 'Add this tag (repeatable or comma list)' },
    remove: { type: 'string', short: 'r', multiple: true, value: 'TAG', description: 'Remove this tag (repeatable or comma list)' },
    ...FILTER_OPTION,
    yes: SELECTION_YES,
  },
  examples: ['pm tag pm-a1b2c3 pm-d4e5f6 --add backend', 'pm tag pm-a1b2c3 --add urgent --remove later', 'pm tag --filter parent=pm-k3x9a2 --add checkout --yes'],
  async run(args, { io, services }) {
    const input = parseWith(schema, { ...args.values }, 'tag');
    if (!input.add && !input.remove) throw new UsageError('nothing to do: give --add TAG or --remove TAG', 'tag');
    const tracker = await services.tracker();
    const selection = await select({ ids: args.positionals, ...(input.filter ? { filter: input.filter } : {}), yes: input.yes === true, verb: 'Tag', command: 'tag' }, tracker, io);
    return runEach(selection, 'Tagged', async (id) => {
      const result = await tracker.update(id, { ...(input.add ? { addTags: input.add } : {}), ...(input.remove ? { removeTags: input.remove } : {}) });
      return { value: result, human: renderMutation('Tagged', result), ...(result.warnings ? { warnings: result.warnings } : {}) };
    });
  },
};
