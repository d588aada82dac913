import { z } from 'zod';
import { parseWith } from '../argv.js';
import { GUARD_OPTIONS, STRICT_OPTION, guardShape, guardsFrom, idArgument, repeated } from '../argv-values.js';
import { FILTER_OPTION, IDS_ARGUMENT, assertSingleGuards, runEach, select } from '../bulk.js';
import { UsageError } from '../usage-error.js';
import type { CliCommand } from '../command.js';
import { renderMutation } from '../render/item-view.js';
import { YES_OPTION, consentFor } from '../command-inputs.js';

const text = z.string().trim().min(1, 'must not be empty').optional();
const closeSchema = z.object({ evidence: text, reason: text, cancel: z.boolean().optional(), yes: z.boolean().optional(), strict: z.boolean().optional(), filter: repeated, ...guardShape });

/**
 * `pm close <id...> --evidence TEXT`: done, with what shows it; `--cancel --reason TEXT`:
 * dropped, with why (recorded where the evidence goes: the closure's text).
 */
export const closeCommand: CliCommand = {
  name: 'close',
  summary: 'Close items with evidence (or cancel them with a reason)',
  description: "Closing needs evidence: what shows the work is done. Canceling needs a reason (--cancel --reason TEXT; --evidence is accepted too). Closing an item somebody else holds a live claim on warns (refused with --strict: an agent whose lease was taken over does not close the new holder's work). Canceling such an item needs consent: --yes, or answer the prompt on a terminal (otherwise exit 6). Several ids, or --filter, close each item on its own (docs/CLI.md \"Several items at once\").",
  args: [IDS_ARGUMENT],
  options: {
    evidence: { type: 'string', short: 'e', value: 'TEXT', description: 'What shows the work is done (required to close)' },
    cancel: { type: 'boolean', description: 'Mark it canceled instead of closed' },
    reason: { type: 'string', short: 'r', value: 'TEXT', description: 'With --cancel: why it is dropped (required to cancel)' },
    ...FILTER_OPTION,
    yes: { ...YES_OPTION, description: 'Consent up front (canceling an item somebody else holds a live claim on) and skip the --filter confirmation; required when stdin is not a terminal' },
    ...STRICT_OPTION,
    ...GUARD_OPTIONS,
  },
  examples: ['pm close pm-a1b2c3 --evidence "commit 4f2a9c1; test/login.test.ts passes"', 'pm close pm-a1b2c3 --cancel --reason "superseded by pm-x9y8z7"', 'pm close pm-a1b2c3 pm-d4e5f6 -e "released in 2.4"', 'pm close --filter tag=spike --cancel --reason "spikes done" --yes'],
  async run(args, { io, services }) {
    const input = parseWith(closeSchema, { ...args.values }, 'close');
    const statement = closureText(input);
    const tracker = await services.tracker();
    const selection = await select({ ids: args.positionals, ...(input.filter ? { filter: input.filter } : {}), yes: input.yes === true, verb: input.cancel ? 'Cancel' : 'Close', command: 'close' }, tracker, io);
    assertSingleGuards(selection, input, 'close');
    const consent = consentFor(input.yes === true, io);
    return runEach(selection, input.cancel ? 'Canceled' : 'Closed', async (id) => {
      const result = await tracker.close(id, { evidence: statement, ...(input.cancel ? { as: 'canceled' as const } : {}) }, { ...guardsFrom(input), ...(consent ? { consent } : {}) });
      return { value: result, human: renderMutation(input.cancel ? 'Canceled' : 'Closed', result), ...(result.warnings ? { warnings: result.warnings } : {}) };
    });
  },
};

/** The closure's text: evidence to close, a reason (or evidence) to cancel. */
function closureText(input: { evidence?: string | undefined; reason?: string | undefined; cancel?: boolean | undefined }): string {
  if (!input.cancel) {
    if (input.reason !== undefined) throw new UsageError('--reason goes with --cancel; to close, say what shows the work is done with --evidence', 'close');
    if (input.evidence === undefined) throw new UsageError('--evidence: required: say what shows the work is done (a commit, a passing test, a link)', 'close', { option: 'evidence' });
    return input.evidence;
  }
  if (input.reason !== undefined && input.evidence !== undefined) throw new UsageError('give --reason or --evidence, not both', 'close');
  const why = input.reason ?? input.evidence;
  if (why === undefined) throw new UsageError('--reason: required with --cancel: say why the item is dropped', 'close', { option: 'reason' });
  return why;
}

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
