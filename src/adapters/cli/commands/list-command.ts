import { z } from 'zod';
import { LIST_SORTS, MAX_LIST_LIMIT, type ListQuery } from '../../../domain/tracker/list-query.js';
import { parseWith } from '../argv.js';
import { commaList, integerValue, priorityList } from '../argv-values.js';
import type { CliCommand } from '../command.js';
import { UsageError } from '../usage-error.js';
import { renderList } from '../render/list-view.js';
import { warnUnreadable } from '../command-inputs.js';

const schema = z.object({
  status: commaList,
  type: commaList,
  tag: commaList,
  priority: priorityList,
  assignee: z.string().optional(),
  mine: z.boolean().optional(),
  after: z.string().optional(),
  parent: z.string().optional(),
  text: z.string().optional(),
  all: z.boolean().optional(),
  sort: z.enum(LIST_SORTS).optional(),
  asc: z.boolean().optional(),
  desc: z.boolean().optional(),
  limit: integerValue('limit', 1, MAX_LIST_LIMIT).optional(),
  cursor: z.string().optional(),
});

/** `pm list`: filtered, sorted, paged item summaries (open work by default). */
export const listCommand: CliCommand = {
  name: 'list',
  summary: 'List items, filtered and sorted (closed ones hidden unless --all or --status)',
  args: [],
  options: {
    status: { type: 'string', multiple: true, value: 'S', description: 'Only these statuses (repeatable or comma list)' },
    type: { type: 'string', multiple: true, value: 'T', description: 'Only these types (repeatable or comma list)' },
    tag: { type: 'string', multiple: true, value: 'TAG', description: 'Only items carrying every tag given (repeatable or comma list)' },
    priority: { type: 'string', short: 'p', multiple: true, value: 'N', description: 'Only these priorities, 0-4 or P0-P4 (repeatable or comma list)' },
    assignee: { type: 'string', value: 'NAME', description: 'Only items assigned to NAME' },
    mine: { type: 'boolean', description: 'Only items assigned to you (the actor: --actor, $PM_ACTOR or the OS user)' },
    parent: { type: 'string', value: 'ID', description: 'Only children of ID' },
    text: { type: 'string', value: 'TEXT', description: 'Only items whose title or body contains TEXT (case-insensitive)' },
    all: { type: 'boolean', short: 'a', description: 'Include closed and canceled items' },
    sort: { type: 'string', value: 'KEY', description: `Sort by ${LIST_SORTS.join(', ')} (default: priority)`, complete: LIST_SORTS },
    asc: { type: 'boolean', description: 'Ascending order (default, except for updated)' },
    desc: { type: 'boolean', description: 'Descending order' },
    limit: { type: 'string', short: 'n', value: 'N', description: `Page size, 1-${MAX_LIST_LIMIT} (default: 50)` },
    cursor: { type: 'string', value: 'C', description: 'Continue after the page whose --json printed this nextCursor' },
    after: { type: 'string', value: 'ID', description: 'Continue after item ID, in the same order (what a cut page suggests)' },
  },
  examples: ['pm list', 'pm list --mine', 'pm list --status open,in_progress --tag auth', 'pm list --priority 0,1', 'pm list --all --sort updated --limit 10', 'pm list --json | jq ".items[].id"'],
  async run(args, { io, services }) {
    const input = parseWith(schema, { ...args.values }, 'list');
    if (input.asc && input.desc) throw new UsageError('give --asc or --desc, not both', 'list');
    if (input.mine && input.assignee !== undefined) throw new UsageError('give --mine or --assignee, not both', 'list');
    if (input.after !== undefined && input.cursor !== undefined) throw new UsageError('give --after or --cursor, not both', 'list');
    const tracker = await services.tracker();
    const assignee = input.mine ? tracker.defaultActor : input.assignee;
    const query: ListQuery = {
      ...(input.status ? { status: input.status } : {}),
      ...(input.type ? { type: input.type } : {}),
      ...(input.tag ? { tag: input.tag } : {}),
      ...(input.priority ? { priority: input.priority } : {}),
      ...(assignee !== undefined ? { assignee } : {}),
      ...(input.parent !== undefined ? { parent: input.parent } : {}),
      ...(input.text !== undefined ? { text: input.text } : {}),
      ...(input.all ? { all: true } : {}),
      ...(input.sort ? { sort: input.sort } : {}),
      ...(input.asc ? { order: 'asc' as const } : input.desc ? { order: 'desc' as const } : {}),
      ...(input.limit !== undefined ? { limit: input.limit } : {}),
      ...(input.cursor !== undefined ? { cursor: input.cursor } : {}),
      ...(input.after !== undefined ? { after: input.after } : {}),
    };
    const result = await tracker.list(query, { parentTitles: true });
    await warnUnreadable(io, result.unreadable);
    return { value: result, human: renderList(result) };
  },
};
