import { z } from 'zod';
import { parseWith } from '../argv.js';
import { GUARD_OPTIONS, STRICT_OPTION, guardShape, guardsFrom, leaseValue, repeated } from '../argv-values.js';
import { FILTER_OPTION, IDS_ARGUMENT, SELECTION_YES, assertSingleGuards, runEach, select } from '../bulk.js';
import type { CliCommand, CommandOutcome } from '../command.js';
import type { Tracker } from '../../../domain/tracker/tracker.js';
import { renderMutation } from '../render/item-view.js';
import { shortTime } from '../render/text.js';

const claimSchema = z.object({
  filter: repeated,
  yes: z.boolean().optional(),
  lease: leaseValue.optional(),
  force: z.boolean().optional(),
  renew: z.boolean().optional(),
  holder: z.string().min(1).max(200).optional(),
  strict: z.boolean().optional(),
  ...guardShape,
});

/** `pm claim <id>`: take an item for a lease, so nobody else starts it too. */
export const claimCommand: CliCommand = {
  name: 'claim',
  summary: 'Claim an item for a while (sets in_progress and the assignee)',
  description: 'A claim is a lease: it expires after --lease (minutes, or with a unit: 90s, 5m, 2h; default from config.yaml, 120 minutes). Claiming again renews your own lease; --renew only renews (a heartbeat: exit 4 when you no longer hold the claim). An item claimed by somebody else is refused (exit 4) unless the lease expired (a takeover, recorded in history) or you pass --force. Claiming an item assigned to somebody else warns (refused with --strict). To take the best ready item in one step, use pm next --claim.',
  args: [IDS_ARGUMENT],
  options: {
    lease: { type: 'string', value: 'LEN', description: 'Lease length: minutes (1-10080) or with a unit: 90s, 5m, 2h (at most 7 days)' },
    force: { type: 'boolean', description: "Take it even though somebody else's lease is still running" },
    renew: { type: 'boolean', description: 'Only renew your own lease (heartbeat); refused when you do not hold the claim' },
    holder: { type: 'string', value: 'NAME', description: 'Claim on behalf of NAME (default: the actor)' },
    ...STRICT_OPTION,
    ...FILTER_OPTION,
    yes: SELECTION_YES,
    ...GUARD_OPTIONS,
  },
  examples: ['pm claim pm-a1b2c3', 'pm claim pm-a1b2c3 --lease 30 --holder agent-7', 'pm claim pm-a1b2c3 --renew', 'pm claim pm-a1b2c3 --lease 90s', 'pm claim pm-a1b2c3 pm-d4e5f6'],
  async run(args, { io, services }) {
    const input = parseWith(claimSchema, { ...args.values }, 'claim');
    const tracker = await services.tracker();
    const selection = await select({ ids: args.positionals, ...(input.filter ? { filter: input.filter } : {}), yes: input.yes === true, verb: 'Claim', command: 'claim' }, tracker, io);
    assertSingleGuards(selection, input, 'claim');
    return runEach(selection, 'Claimed', (id) => claimOne(tracker, id, input));
  },
};

/** One claim, rendered as `pm claim` prints it. */
async function claimOne(tracker: Tracker, id: string, input: z.output<typeof claimSchema>): Promise<CommandOutcome> {
  const result = await tracker.claim(id, {
    ...(input.holder !== undefined ? { holder: input.holder } : {}),
    ...input.lease,
    ...(input.force ? { force: true } : {}),
    ...(input.renew ? { renew: true } : {}),
  }, { ...guardsFrom(input), ...(input.force ? { consent: () => true } : {}) }); // --force is the person's explicit consent to take the claim over
  const claim = result.item.claim;
  const takeover = result.receipt.takeover ? `; took over from ${result.receipt.takeover.from}, whose lease expired ${shortTime(result.receipt.takeover.expiredAt)}` : '';
  return { value: result, human: renderMutation('Claimed', result, claim ? ` for ${claim.holder} until ${shortTime(claim.expiresAt)}${takeover}` : ''), ...(result.warnings ? { warnings: result.warnings } : {}) };
}

const releaseSchema = z.object({ force: z.boolean().optional(), filter: repeated, yes: z.boolean().optional(), ...guardShape });

/** `pm release <id>`: give a claim back (in_progress returns to open). */
export const releaseCommand: CliCommand = {
  name: 'release',
  summary: 'Release your claim on items',
  args: [IDS_ARGUMENT],
  options: {
    force: { type: 'boolean', description: "Release somebody else's unexpired claim" },
    ...FILTER_OPTION,
    yes: SELECTION_YES,
    ...GUARD_OPTIONS,
  },
  examples: ['pm release pm-a1b2c3', 'pm release --filter assignee=agent-7 --yes'],
  async run(args, { io, services }) {
    const input = parseWith(releaseSchema, { ...args.values }, 'release');
    const tracker = await services.tracker();
    const selection = await select({ ids: args.positionals, ...(input.filter ? { filter: input.filter } : {}), yes: input.yes === true, verb: 'Release', command: 'release' }, tracker, io);
    assertSingleGuards(selection, input, 'release');
    return runEach(selection, 'Released', async (id) => {
      const result = await tracker.release(id, input.force ? { force: true } : {}, guardsFrom(input));
      return { value: result, human: renderMutation('Released', result) };
    });
  },
};
