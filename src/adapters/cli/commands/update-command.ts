import { z } from 'zod';
import type { UpdateInput } from '../../../domain/tracker/inputs.js';
import { parseWith } from '../argv.js';
import { GUARD_OPTIONS, STRICT_OPTION, commaList, guardShape, guardsFrom, integerValue, keyValueList, priorityValue, repeated } from '../argv-values.js';
import type { CliCommand } from '../command.js';
import { FILTER_OPTION, IDS_ARGUMENT, SELECTION_YES, assertSingleGuards, runEach, select } from '../bulk.js';
import { renderMutation } from '../render/item-view.js';
import { BODY_OPTIONS, customFields, readBody } from '../command-inputs.js';
import { UsageError } from '../usage-error.js';

const criterionIndexes = z.array(integerValue('criterion number', 1, 10_000)).optional();

const schema = z.object({
  filter: repeated,
  yes: z.boolean().optional(),
  title: z.string().trim().min(1, 'the title must not be empty').optional(),
  body: z.string().optional(),
  'body-file': z.string().optional(),
  type: z.string().optional(),
  status: z.string().optional(),
  priority: priorityValue.optional(),
  parent: z.string().min(1).optional(),
  'no-parent': z.boolean().optional(),
  assignee: z.string().min(1).optional(),
  unassign: z.boolean().optional(),
  tags: z.string().optional().transform((v) => (v === undefined ? undefined : v.split(',').map((t) => t.trim()).filter(Boolean))),
  'add-tag': commaList,
  'remove-tag': commaList,
  ac: repeated,
  acceptance: repeated,
  check: criterionIndexes,
  uncheck: criterionIndexes,
  'add-file': repeated,
  'remove-file': repeated,
  'add-test': repeated,
  'remove-test': repeated,
  set: keyValueList,
  unset: repeated,
  strict: z.boolean().optional(),
  ...guardShape,
});

/** `pm update <id>`: changes fields in place; list flags add or remove single entries. */
export const updateCommand: CliCommand = {
  name: 'update',
  summary: 'Change fields of an item',
  description: 'Changes only what you name. To close or cancel use pm close; to reopen use pm reopen. Several ids, or --filter, update each item on its own (docs/CLI.md "Several items at once").',
  args: [IDS_ARGUMENT],
  optionHints: { tag: "did you mean '--add-tag'? (--tags replaces every tag)" },
  options: {
    title: { type: 'string', value: 'TEXT', description: 'New title' },
    ...BODY_OPTIONS,
    type: { type: 'string', value: 'TYPE', description: 'New type' },
    status: { type: 'string', value: 'STATUS', description: 'New status (draft, open, in_progress, blocked)' },
    priority: { type: 'string', short: 'p', value: 'N', description: 'New priority 0 (highest) to 4 (lowest)' },
    parent: { type: 'string', value: 'ID', description: 'New parent item', emptyHint: 'to remove the parent, use --no-parent' },
    'no-parent': { type: 'boolean', description: 'Remove the parent' },
    assignee: { type: 'string', value: 'NAME', description: 'Assign to NAME', emptyHint: 'to remove the assignee, use --unassign' },
    unassign: { type: 'boolean', description: 'Remove the assignee' },
    tags: { type: 'string', value: 'A,B', description: 'Replace all tags with this comma list' },
    'add-tag': { type: 'string', multiple: true, value: 'TAG', description: 'Add a tag (repeatable)' },
    'remove-tag': { type: 'string', multiple: true, value: 'TAG', description: 'Remove a tag (repeatable)' },
    ac: { type: 'string', multiple: true, value: 'TEXT', description: 'Add an acceptance criterion (repeatable; --acceptance is the same)' },
    acceptance: { type: 'string', multiple: true, value: 'TEXT', description: 'Same as --ac' },
    check: { type: 'string', multiple: true, value: 'N', description: 'Mark acceptance criterion N (1-based) done (repeatable)' },
    uncheck: { type: 'string', multiple: true, value: 'N', description: 'Mark acceptance criterion N not done (repeatable)' },
    'add-file': { type: 'string', multiple: true, value: 'PATH', description: 'Link a file (repeatable)' },
    'remove-file': { type: 'string', multiple: true, value: 'PATH', description: 'Unlink a file (repeatable)' },
    'add-test': { type: 'string', multiple: true, value: 'PATH', description: 'Link a test (repeatable)' },
    'remove-test': { type: 'string', multiple: true, value: 'PATH', description: 'Unlink a test (repeatable)' },
    set: { type: 'string', multiple: true, value: 'KEY=VALUE', description: 'Set a custom field (repeatable)' },
    unset: { type: 'string', multiple: true, value: 'KEY', description: 'Remove a custom field (repeatable)' },
    ...STRICT_OPTION,
    ...FILTER_OPTION,
    yes: SELECTION_YES,
    ...GUARD_OPTIONS,
  },
  examples: [
    'pm update pm-a1b2c3 -p 0 --add-tag urgent',
    'pm update pm-a1b2c3 --check 1 --check 2 --expected-revision 4',
    'pm update pm-a1b2c3 --no-parent --unassign',
    'pm update pm-a1b2c3 pm-d4e5f6 --add-tag backend',
    'pm update --filter tag=auth --filter status=open -p 1 --yes',
  ],
  async run(args, { io, services }) {
    const input = parseWith(schema, { ...args.values }, 'update');
    if (input.parent !== undefined && input['no-parent']) throw new UsageError('give --parent or --no-parent, not both', 'update');
    if (input.assignee !== undefined && input.unassign) throw new UsageError('give --assignee or --unassign, not both', 'update');
    const tracker = await services.tracker();
    const body = await readBody(input, io, 'update');
    const addAcceptance = [...(input.ac ?? []), ...(input.acceptance ?? [])];
    const custom = customFields(input.set, input.unset, tracker.config);
    const update: UpdateInput = {
      ...(input.title !== undefined ? { title: input.title } : {}),
      ...(body !== undefined ? { body } : {}),
      ...(input.type !== undefined ? { type: input.type } : {}),
      ...(input.status !== undefined ? { status: input.status } : {}),
      ...(input.priority !== undefined ? { priority: input.priority } : {}),
      ...(input.parent !== undefined ? { parent: input.parent } : input['no-parent'] ? { parent: null } : {}),
      ...(input.assignee !== undefined ? { assignee: input.assignee } : input.unassign ? { assignee: null } : {}),
      ...(input.tags !== undefined ? { tags: input.tags } : {}),
      ...(input['add-tag'] ? { addTags: input['add-tag'] } : {}),
      ...(input['remove-tag'] ? { removeTags: input['remove-tag'] } : {}),
      ...(addAcceptance.length ? { addAcceptance } : {}),
      ...(input.check ? { checkAcceptance: input.check } : {}),
      ...(input.uncheck ? { uncheckAcceptance: input.uncheck } : {}),
      ...(input['add-file'] ? { addFiles: input['add-file'] } : {}),
      ...(input['remove-file'] ? { removeFiles: input['remove-file'] } : {}),
      ...(input['add-test'] ? { addTests: input['add-test'] } : {}),
      ...(input['remove-test'] ? { removeTests: input['remove-test'] } : {}),
      ...(custom ? { custom } : {}),
    };
    if (Object.keys(update).length === 0) throw new UsageError('nothing to update: name at least one field to change', 'update');
    const selection = await select({ ids: args.positionals, ...(input.filter ? { filter: input.filter } : {}), yes: input.yes === true, verb: 'Update', command: 'update' }, tracker, io);
    assertSingleGuards(selection, input, 'update');
    return runEach(selection, 'Updated', async (id) => {
      const result = await tracker.update(id, update, guardsFrom(input));
      return { value: result, human: renderMutation('Updated', result), ...(result.warnings ? { warnings: result.warnings } : {}) };
    });
  },
};
