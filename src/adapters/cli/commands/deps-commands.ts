import { z } from 'zod';
import type { DependencyInput } from '../../../domain/tracker/inputs.js';
import { parseWith } from '../argv.js';
import { GUARD_OPTIONS, guardShape, guardsFrom, idArgument } from '../argv-values.js';
import type { CliCommand, OptionSpec } from '../command.js';
import { buildDependencyView } from '../dependency-view.js';
import { renderMutation } from '../render/item-view.js';
import { renderDependencies } from '../render/report-view.js';
import { UsageError } from '../usage-error.js';

/** `pm deps <id>`: what the item waits for, what waits for it, what it relates to. */
export const depsCommand: CliCommand = {
  name: 'deps',
  summary: 'Show dependencies of an item (subcommands: deps add, deps remove)',
  description: 'Shows blockers, the items this one blocks, and related items. Change links with pm deps add <id> and pm deps remove <id>.',
  args: [{ name: 'id' }],
  options: {},
  examples: ['pm deps pm-a1b2c3', 'pm deps add pm-a1b2c3 --blocked-by pm-d4e5f6', 'pm deps remove pm-a1b2c3 --related pm-x9y8z7'],
  async run(args, { services }) {
    const { id } = parseWith(z.object({ id: idArgument }), { id: args.positionals[0] }, 'deps', ['id']);
    const view = await buildDependencyView(await services.tracker(), id);
    return { value: view, human: renderDependencies(view) };
  },
};

const linkOptions = (verb: string): Record<string, OptionSpec> => ({
  'blocked-by': { type: 'string', value: 'ID', description: `${verb} "<id> is blocked by ID"` },
  blocks: { type: 'string', value: 'ID', description: `${verb} "<id> blocks ID" (stored on ID as blocked by <id>)` },
  related: { type: 'string', value: 'ID', description: `${verb} a related link` },
  ...GUARD_OPTIONS,
});

const linkSchema = z.object({
  id: idArgument,
  'blocked-by': z.string().optional(),
  blocks: z.string().optional(),
  related: z.string().optional(),
  ...guardShape,
});

function linkFrom(input: z.output<typeof linkSchema>, command: string): DependencyInput {
  const given = ([['blockedBy', input['blocked-by']], ['blocks', input.blocks], ['related', input.related]] as const).filter(([, v]) => v !== undefined);
  if (given.length !== 1) throw new UsageError('give exactly one of --blocked-by, --blocks or --related', command);
  const [kind, target] = given[0]!;
  return { kind, target: target! };
}

const describe = (link: DependencyInput, id: string) =>
  link.kind === 'blockedBy' ? `${id} blocked by ${link.target}` : link.kind === 'blocks' ? `${id} blocks ${link.target}` : `${id} related to ${link.target}`;

/** `pm deps add <id> --blocked-by X | --blocks X | --related X` (a cycle is refused, exit 4). */
export const depsAddCommand: CliCommand = {
  name: 'deps add',
  summary: 'Add a dependency link',
  description: 'Adds one link. A blocker link that would close a cycle is refused (exit 4). The link is stored on the item that waits: with --blocks ID, that is ID (and --expected-revision refers to ID).',
  args: [{ name: 'id' }],
  options: linkOptions('Record'),
  examples: ['pm deps add pm-a1b2c3 --blocked-by pm-d4e5f6', 'pm deps add pm-a1b2c3 --blocks pm-d4e5f6'],
  async run(args, { services }) {
    const input = parseWith(linkSchema, { ...args.values, id: args.positionals[0] }, 'deps add', ['id']);
    const link = linkFrom(input, 'deps add');
    const result = await (await services.tracker()).addDependency(input.id, link, guardsFrom(input));
    return { value: result, human: renderMutation(`Linked (${describe(link, input.id)}):`, result) };
  },
};

/** `pm deps remove <id> --blocked-by X | --blocks X | --related X`. */
export const depsRemoveCommand: CliCommand = {
  name: 'deps remove',
  summary: 'Remove a dependency link',
  description: 'Removes one link. With --blocks ID the link is stored on ID, so --expected-revision refers to ID.',
  args: [{ name: 'id' }],
  options: linkOptions('Remove'),
  examples: ['pm deps remove pm-a1b2c3 --blocked-by pm-d4e5f6'],
  async run(args, { services }) {
    const input = parseWith(linkSchema, { ...args.values, id: args.positionals[0] }, 'deps remove', ['id']);
    const link = linkFrom(input, 'deps remove');
    const result = await (await services.tracker()).removeDependency(input.id, link, guardsFrom(input));
    return { value: result, human: renderMutation(`Unlinked (${describe(link, input.id)}):`, result) };
  },
};
