import { z } from 'zod';
import { parseWith } from '../argv.js';
import { GUARD_OPTIONS, guardShape, guardsFrom, idArgument } from '../argv-values.js';
import type { CliCommand } from '../command.js';
import { renderMutation } from '../render/item-view.js';
import { YES_OPTION, consentFor } from '../command-inputs.js';

const schema = z.object({ id: idArgument, yes: z.boolean().optional(), ...guardShape });

/** `pm delete <id>`: removes the item file after explicit consent; history is kept. */
export const deleteCommand: CliCommand = {
  name: 'delete',
  summary: 'Delete an item (needs consent: --yes, or answer the prompt)',
  description: 'Removes the item file; its history is kept and the id is never reused. Items others still point at (parent, blocker, related) are refused. Without --yes pm asks on a terminal; with no terminal it refuses (exit 6).',
  args: [{ name: 'id' }],
  options: { yes: YES_OPTION, ...GUARD_OPTIONS },
  examples: ['pm delete pm-a1b2c3', 'pm delete pm-a1b2c3 --yes --json'],
  async run(args, { io, services }) {
    const input = parseWith(schema, { ...args.values, id: args.positionals[0] }, 'delete', ['id']);
    const consent = consentFor(input.yes === true, io);
    const result = await (await services.tracker()).delete(input.id, { ...guardsFrom(input), ...(consent ? { consent } : {}) });
    return { value: result, human: renderMutation('Deleted', result) };
  },
};
