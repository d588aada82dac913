import { z } from 'zod';
import { MAX_LIST_LIMIT, type ListQuery } from '../../../domain/tracker/list-query.js';
import type { ReadyQuery } from '../../../domain/tracker/backlog-views.js';
import { parseWith } from '../argv.js';
import { commaList, integerValue, priorityList } from '../argv-values.js';
import type { CliCommand, OptionSpec } from '../command.js';
import { warnUnreadable } from '../command-inputs.js';
import { renderBlocked, renderReady, renderTree } from '../render/backlog-view.js';
import { UsageError } from '../usage-error.js';

/** The filters ready and blocked share with list (same names, same meaning). */
const FILTERS: Readonly<Record<string, OptionSpec>> = {
  type: { type: 'string', multiple: true, value: 'T', description: 'Only these types (repeatable or comma list)' },
  tag: { type: 'string', multiple: true, value: 'TAG', description: 'Only items carrying every tag given (repeatable or comma list)' },
  priority: { type: 'string', short: 'p', multiple: true, value: 'N', description: 'Only these priorities, 0-4 or P0-P4 (repeatable or comma list)' },
  parent: { type: 'string', value: 'ID', description: 'Only children of ID' },
  limit: { type: 'string', short: 'n', value: 'N', description: `At most N items, 1-${MAX_LIST_LIMIT} (default: 50)` },
};

const filterShape = {
  type: commaList, tag: commaList, priority: priorityList,
  parent: z.string().min(1, 'must not be empty').optional(),
  limit: integerValue('limit', 1, MAX_LIST_LIMIT).optional(),
};

const readySchema = z.object({ ...filterShape, assignee: z.string().min(1, 'must not be empty').optional(), mine: z.boolean().optional() });

/** `pm ready`: every item ready to start, ranked as next ranks them, each with the reason. */
export const readyCommand: CliCommand = {
  name: 'ready',
  summary: 'Every item ready to start, ranked, with the reason',
  description: 'The items pm next chooses from, in its order (priority, then oldest): open (or their claim expired), every blocker closed or canceled, not claimed by or assigned to somebody else, no open children. --json: { items (list\'s item shape plus reason), total, counts }.',
  args: [],
  options: {
    ...FILTERS,
    assignee: { type: 'string', value: 'NAME', description: 'Who is asking (default: the actor): skip items assigned to or claimed by somebody else' },
    mine: { type: 'boolean', description: 'Only items assigned to you (the actor)' },
  },
  examples: ['pm ready', 'pm ready --tag backend -p 0,1', 'pm ready --mine', 'pm ready --json | jq -r ".items[].id"'],
  async run(args, { io, services }) {
    const input = parseWith(readySchema, { ...args.values }, 'ready');
    if (input.mine && input.assignee !== undefined) throw new UsageError('give --mine or --assignee, not both', 'ready');
    const tracker = await services.tracker();
    const query: ReadyQuery = {
      ...(input.mine ? { assignee: tracker.defaultActor, assignedOnly: true } : input.assignee !== undefined ? { assignee: input.assignee } : {}),
      ...(input.type ? { type: input.type } : {}),
      ...(input.tag ? { tag: input.tag } : {}),
      ...(input.priority ? { priority: input.priority } : {}),
      ...(input.parent !== undefined ? { parent: input.parent } : {}),
      ...(input.limit !== undefined ? { limit: input.limit } : {}),
    };
    const result = await tracker.readyItems(query);
    await warnUnreadable(io, result.unreadable);
    return { value: result, human: renderReady(result) };
  },
};

const blockedSchema = z.object({ ...filterShape, status: commaList, assignee: z.string().min(1, 'must not be empty').optional(), after: z.string().optional() });

/** `pm blocked`: what waits on unfinished work, and on what. */
export const blockedCommand: CliCommand = {
  name: 'blocked',
  summary: 'Items held back by open blockers, with those blockers',
  description: 'Items (not closed or canceled, unless --status names them) with a blocker that is not closed or canceled, or is missing; under each, the blockers it waits on with their status and title. --json: list\'s shape ({ items, total, nextCursor? }) plus blockers: { id: { id, title, status } or { id, missing: true } }.',
  args: [],
  options: {
    status: { type: 'string', multiple: true, value: 'S', description: 'Only these statuses (repeatable or comma list)' },
    ...FILTERS,
    assignee: { type: 'string', value: 'NAME', description: 'Only items assigned to NAME' },
    after: { type: 'string', value: 'ID', description: 'Continue after item ID (what a cut page suggests)' },
  },
  examples: ['pm blocked', 'pm blocked --tag backend', 'pm blocked --json'],
  async run(args, { io, services }) {
    const input = parseWith(blockedSchema, { ...args.values }, 'blocked');
    const query: ListQuery = {
      ...(input.status ? { status: input.status } : {}),
      ...(input.type ? { type: input.type } : {}),
      ...(input.tag ? { tag: input.tag } : {}),
      ...(input.priority ? { priority: input.priority } : {}),
      ...(input.parent !== undefined ? { parent: input.parent } : {}),
      ...(input.assignee !== undefined ? { assignee: input.assignee } : {}),
      ...(input.limit !== undefined ? { limit: input.limit } : {}),
      ...(input.after !== undefined ? { after: input.after } : {}),
    };
    const result = await (await services.tracker()).blocked(query);
    await warnUnreadable(io, result.unreadable);
    return { value: result, human: renderBlocked(result) };
  },
};

const treeSchema = z.object({ id: z.string().min(1, 'must not be empty').optional() });

/** `pm tree [<id>]`: an epic (or any item) with its children, theirs, and their progress. */
export const treeCommand: CliCommand = {
  name: 'tree',
  summary: "An item's children (and theirs) with their progress",
  description: 'With an id: that item and everything under it, closed children included, each parent with how many of its children are done. Without: the tree of every open item that has no parent and has children. --json: { roots: [{ item (list\'s item shape), progress: { done, total }, children: [...] }] }.',
  args: [{ name: 'id', optional: true }],
  options: {},
  examples: ['pm tree', 'pm tree pm-a1b2c3', 'pm tree pm-a1b2c3 --json'],
  async run(args, { io, services }) {
    const { id } = parseWith(treeSchema, { id: args.positionals[0] }, 'tree', ['id']);
    const result = await (await services.tracker()).tree(id);
    await warnUnreadable(io, result.unreadable);
    return { value: result, human: renderTree(result) };
  },
};
