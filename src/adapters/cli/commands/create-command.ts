import { z } from 'zod';
import type { CreateInput } from '../../../domain/tracker/inputs.js';
import { parseWith } from '../argv.js';
import { IDEMPOTENCY_OPTION, commaList, guardShape, guardsFrom, keyValueList, priorityValue, repeated } from '../argv-values.js';
import type { CliCommand } from '../command.js';
import { renderMutation } from '../render/item-view.js';
import { UsageError } from '../usage-error.js';
import { BODY_OPTIONS, customFields, readBody } from '../command-inputs.js';

const schema = z.object({
  title: z.string().trim().min(1, 'the title must not be empty'),
  type: z.string().optional(),
  status: z.string().optional(),
  priority: priorityValue.optional(),
  body: z.string().optional(),
  'body-file': z.string().optional(),
  tag: commaList,
  parent: z.string().optional(),
  assignee: z.string().min(1).optional(),
  'blocked-by': commaList,
  related: commaList,
  ac: repeated,
  acceptance: repeated,
  file: repeated,
  test: repeated,
  set: keyValueList,
  'idempotency-key': guardShape['idempotency-key'],
});

/** `pm create <title>`: a new item; every field but the title defaults from config.yaml. */
export const createCommand: CliCommand = {
  name: 'create',
  summary: 'Create an item',
  description: 'Creates a work item. Everything but the title has a default from .agents/pm/config.yaml (type Task, status open, priority 2 unless configured otherwise).',
  args: [{ name: 'title', optional: true }],
  options: {
    title: { type: 'string', value: 'TEXT', description: 'The title, as a flag (instead of the <title> argument)' },
    type: { type: 'string', value: 'TYPE', description: 'Item type (e.g. Task, Feature, Epic)' },
    status: { type: 'string', value: 'STATUS', description: 'Starting status (draft, open, in_progress, blocked)' },
    priority: { type: 'string', short: 'p', value: 'N', description: 'Priority 0 (highest) to 4 (lowest)' },
    ...BODY_OPTIONS,
    tag: { type: 'string', multiple: true, value: 'TAG', description: 'Tag (repeatable, or a comma list)' },
    parent: { type: 'string', value: 'ID', description: 'Parent item (e.g. its epic)' },
    assignee: { type: 'string', value: 'NAME', description: 'Who it is assigned to' },
    'blocked-by': { type: 'string', multiple: true, value: 'ID', description: 'An item that must be done first (repeatable)' },
    related: { type: 'string', multiple: true, value: 'ID', description: 'A related item (repeatable)' },
    ac: { type: 'string', multiple: true, value: 'TEXT', description: 'An acceptance criterion (repeatable; --acceptance is the same)' },
    acceptance: { type: 'string', multiple: true, value: 'TEXT', description: 'Same as --ac' },
    file: { type: 'string', multiple: true, value: 'PATH', description: 'A linked file (repeatable)' },
    test: { type: 'string', multiple: true, value: 'PATH', description: 'A linked test (repeatable)' },
    set: { type: 'string', multiple: true, value: 'KEY=VALUE', description: 'A custom field declared in config.yaml (repeatable)' },
    ...IDEMPOTENCY_OPTION,
  },
  examples: [
    'pm create "Fix login redirect" -p 1 --tag auth --ac "redirects to /home after login"',
    'pm create "Checkout v2" --type Epic',
    'pm create --title "Flaky upload test" --type Chore',
    'git log -1 --format=%B | pm create "Follow up" --body-file -',
  ],
  async run(args, { io, services }) {
    const flag = typeof args.values.title === 'string' ? args.values.title : undefined;
    if (flag !== undefined && args.positionals[0] !== undefined) throw new UsageError('give the title once: as <title> or as --title, not both', 'create');
    const title = flag ?? args.positionals[0];
    if (title === undefined) throw new UsageError('missing <title> (or --title)', 'create');
    const input = parseWith(schema, { ...args.values, title }, 'create', ['title']);
    const tracker = await services.tracker();
    const body = await readBody(input, io, 'create');
    const acceptance = [...(input.ac ?? []), ...(input.acceptance ?? [])];
    const custom = customFields(input.set, undefined, tracker.config) as CreateInput['custom'];
    const create: CreateInput = {
      title: input.title,
      ...(input.type !== undefined ? { type: input.type } : {}),
      ...(input.status !== undefined ? { status: input.status } : {}),
      ...(input.priority !== undefined ? { priority: input.priority } : {}),
      ...(body !== undefined ? { body } : {}),
      ...(input.tag ? { tags: input.tag } : {}),
      ...(input.parent !== undefined ? { parent: input.parent } : {}),
      ...(input.assignee !== undefined ? { assignee: input.assignee } : {}),
      ...(input['blocked-by'] ? { blockedBy: input['blocked-by'] } : {}),
      ...(input.related ? { related: input.related } : {}),
      ...(acceptance.length ? { acceptance } : {}),
      ...(input.file ? { files: input.file } : {}),
      ...(input.test ? { tests: input.test } : {}),
      ...(custom ? { custom } : {}),
    };
    const result = await tracker.create(create, guardsFrom(input));
    return { value: result, human: renderMutation('Created', result) };
  },
};
