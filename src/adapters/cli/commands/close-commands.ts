import { z } from 'zod';
import { parseWith } from '../argv.js';
import { GUARD_OPTIONS, STRICT_OPTION, guardShape, guardsFrom, idArgument } from '../argv-values.js';
import type { CliCommand } from '../command.js';
import { renderMutation } from '../render/item-view.js';
import { YES_OPTION, consentFor } from '../command-inputs.js';

const closeSchema = z.object({
  id: idArgument,
  evidence: z.string({ error: 'required: say what shows the work is done (a commit, a passing test, a link)' }).trim().min(1, 'must not be empty'),
  cancel: z.boolean().optional(),
  yes: z.boolean().optional(),
  strict: z.boolean().optional(),
  ...guardShape,
});

/** `pm close <id> --evidence TEXT`: done (or canceled), with what shows it. */
export const closeCommand: CliCommand = {
  name: 'close',
  summary: 'Close an item with evidence (or cancel it)',
  description: "Closing needs evidence: what shows the work is done. Closing an item somebody else holds a live claim on warns (refused with --strict: an agent whose lease was taken over does not close the new holder's work). Canceling such an item needs consent: --yes, or answer the prompt on a terminal (otherwise exit 6).",
  args: [{ name: 'id' }],
  options: {
    evidence: { type: 'string', short: 'e', value: 'TEXT', description: 'What shows the work is done (required)' },
    cancel: { type: 'boolean', description: 'Mark it canceled instead of closed' },
    yes: YES_OPTION,
    ...STRICT_OPTION,
    ...GUARD_OPTIONS,
  },
  examples: ['pm close pm-a1b2c3 --evidence "commit 4f2a9c1; test/login.test.ts passes"', 'pm close pm-a1b2c3 --cancel --evidence "superseded by pm-x9y8z7"'],
  async run(args, { io, services }) {
    const input = parseWith(closeSchema, { ...args.values, id: args.positionals[0] }, 'close', ['id']);
    const consent = consentFor(input.yes === true, io);
    const result = await (await services.tracker()).close(
      input.id,
      { evidence: input.evidence, ...(input.cancel ? { as: 'canceled' as const } : {}) },
      { ...guardsFrom(input), ...(consent ? { consent } : {}) },
    );
    return { value: result, human: renderMutation(input.cancel ? 'Canceled' : 'Closed', result), ...(result.warnings ? { warnings: result.warnings } : {}) };
  },
};

const reopenSchema = z.object({ id: idArgument, reason: z.string().optional(), ...guardShape });

/** `pm reopen <id>`: back to open; the reason is kept as a comment. */
export const reopenCommand: CliCommand = {
  name: 'reopen',
  summary: 'Reopen a closed or canceled item',
  args: [{ name: 'id' }],
  options: {
    reason: { type: 'string', short: 'r', value: 'TEXT', description: 'Why (recorded as a comment)' },
    ...GUARD_OPTIONS,
  },
  examples: ['pm reopen pm-a1b2c3 --reason "regressed in 2.3"'],
  async run(args, { services }) {
    const input = parseWith(reopenSchema, { ...args.values, id: args.positionals[0] }, 'reopen', ['id']);
    const result = await (await services.tracker()).reopen(input.id, input.reason, guardsFrom(input));
    return { value: result, human: renderMutation('Reopened', result) };
  },
};
