import { z } from 'zod';
import { parseWith } from '../argv.js';
import { GUARD_OPTIONS, STRICT_OPTION, guardShape, guardsFrom, idArgument, leaseValue } from '../argv-values.js';
import type { CliCommand } from '../command.js';
import { renderMutation } from '../render/item-view.js';
import { shortTime } from '../render/text.js';

const claimSchema = z.object({
  id: idArgument,
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
  args: [{ name: 'id' }],
  options: {
    lease: { type: 'string', value: 'LEN', description: 'Lease length: minutes (1-10080) or with a unit: 90s, 5m, 2h (at most 7 days)' },
    force: { type: 'boolean', description: "Take it even though somebody else's lease is still running" },
    renew: { type: 'boolean', description: 'Only renew your own lease (heartbeat); refused when you do not hold the claim' },
    holder: { type: 'string', value: 'NAME', description: 'Claim on behalf of NAME (default: the actor)' },
    ...STRICT_OPTION,
    ...GUARD_OPTIONS,
  },
  examples: ['pm claim pm-a1b2c3', 'pm claim pm-a1b2c3 --lease 30 --holder agent-7', 'pm claim pm-a1b2c3 --renew', 'pm claim pm-a1b2c3 --lease 90s'],
  async run(args, { services }) {
    const input = parseWith(claimSchema, { ...args.values, id: args.positionals[0] }, 'claim', ['id']);
    const result = await (await services.tracker()).claim(input.id, {
      ...(input.holder !== undefined ? { holder: input.holder } : {}),
      ...input.lease,
      ...(input.force ? { force: true } : {}),
      ...(input.renew ? { renew: true } : {}),
    }, { ...guardsFrom(input), ...(input.force ? { consent: () => true } : {}) }); // --force is the person's explicit consent to take the claim over
    const claim = result.item.claim;
    const takeover = result.receipt.takeover ? `; took over from ${result.receipt.takeover.from}, whose lease expired ${shortTime(result.receipt.takeover.expiredAt)}` : '';
    return { value: result, human: renderMutation('Claimed', result, claim ? ` for ${claim.holder} until ${shortTime(claim.expiresAt)}${takeover}` : ''), ...(result.warnings ? { warnings: result.warnings } : {}) };
  },
};

const releaseSchema = z.object({ id: idArgument, force: z.boolean().optional(), ...guardShape });

/** `pm release <id>`: give a claim back (in_progress returns to open). */
export const releaseCommand: CliCommand = {
  name: 'release',
  summary: 'Release your claim on an item',
  args: [{ name: 'id' }],
  options: {
    force: { type: 'boolean', description: "Release somebody else's unexpired claim" },
    ...GUARD_OPTIONS,
  },
  examples: ['pm release pm-a1b2c3'],
  async run(args, { services }) {
    const input = parseWith(releaseSchema, { ...args.values, id: args.positionals[0] }, 'release', ['id']);
    const result = await (await services.tracker()).release(input.id, input.force ? { force: true } : {}, guardsFrom(input));
    return { value: result, human: renderMutation('Released', result) };
  },
};
