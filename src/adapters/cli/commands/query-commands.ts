import { z } from 'zod';
import type { NextQuery } from '../../../domain/tracker/next-query.js';
import type { SearchQuery } from '../../../domain/tracker/search-query.js';
import { parseWith } from '../argv.js';
import { UsageError } from '../usage-error.js';
import { commaList, guardShape, guardsFrom, IDEMPOTENCY_OPTION, integerValue, leaseValue } from '../argv-values.js';
import type { CliCommand } from '../command.js';
import { renderClaimNext, renderNext, renderSearch } from '../render/list-view.js';
import { warnUnreadable } from '../command-inputs.js';

const nextSchema = z.object({
  assignee: z.string().optional(), mine: z.boolean().optional(), type: commaList, tag: commaList,
  claim: z.boolean().optional(), lease: leaseValue.optional(), 'idempotency-key': guardShape['idempotency-key'],
});

/** `pm next`: the single best item to start now, and why. */
export const nextCommand: CliCommand = {
  name: 'next',
  summary: 'The best item to work on next, with the reason',
  description: 'Picks the item that is open (or whose claim expired), unblocked, not claimed by or assigned to somebody else, and not waiting on open children: highest priority first, then the oldest. --claim claims it for you in the same step under the write lock (claim-next: agents asking together get different items); exit 0 with "nothing ready" when there is none.',
  args: [],
  options: {
    assignee: { type: 'string', value: 'NAME', description: 'Who is asking (default: the actor): skip items assigned to or claimed by somebody else' },
    mine: { type: 'boolean', description: 'Only items assigned to you (the actor)' },
    type: { type: 'string', multiple: true, value: 'T', description: 'Only these types (repeatable or comma list)' },
    tag: { type: 'string', multiple: true, value: 'TAG', description: 'Only items carrying every tag given' },
    claim: { type: 'boolean', description: 'Claim the chosen item for you in the same step (claim-next)' },
    lease: { type: 'string', value: 'LEN', description: 'With --claim: lease length, minutes (1-10080) or with a unit: 90s, 5m, 2h' },
    ...IDEMPOTENCY_OPTION,
  },
  examples: ['pm next', 'pm next --claim', 'pm next --claim --tag backend --lease 30', 'pm next --mine', 'pm next --assignee alice --tag backend', 'pm next --json'],
  async run(args, { io, services }) {
    const input = parseWith(nextSchema, { ...args.values }, 'next');
    if (input.mine && input.assignee !== undefined) throw new UsageError('give --mine or --assignee, not both', 'next');
    if (!input.claim && (input.lease !== undefined || input['idempotency-key'] !== undefined)) throw new UsageError('--lease and --idempotency-key go with --claim', 'next');
    const tracker = await services.tracker();
    const query: NextQuery = {
      ...(input.mine ? { assignee: tracker.defaultActor, assignedOnly: true } : input.assignee !== undefined ? { assignee: input.assignee } : {}),
      ...(input.type ? { type: input.type } : {}),
      ...(input.tag ? { tag: input.tag } : {}),
    };
    if (input.claim) {
      // --assignee names who asks, so with --claim it is whom the item is claimed for (as pm claim --holder).
      const claimed = await tracker.claimNext(query, { ...input.lease, ...(input.assignee !== undefined ? { holder: input.assignee } : {}) }, guardsFrom(input));
      return { value: claimed, human: renderClaimNext(claimed), ...(claimed.warnings ? { warnings: claimed.warnings } : {}) };
    }
    const result = await tracker.next(query);
    await warnUnreadable(io, result.unreadable);
    return { value: result, human: renderNext(result) };
  },
};

const searchSchema = z.object({
  words: z.array(z.string()).transform((w) => w.join(' ').trim()).pipe(z.string().min(1, 'give at least one word to search for')),
  limit: integerValue('limit', 1, 200).optional(),
  status: commaList,
  open: z.boolean().optional(),
});

/** `pm search <words...>`: ranked lexical search over ids, titles, bodies and comments. */
export const searchCommand: CliCommand = {
  name: 'search',
  summary: 'Search titles, bodies and comments (ranked)',
  description: 'Items containing every word rank first (title matches weigh most); when no item has them all, partial matches are shown.',
  args: [{ name: 'words', variadic: true }],
  options: {
    limit: { type: 'string', short: 'n', value: 'N', description: 'At most N results, 1-200 (default: 20)' },
    status: { type: 'string', multiple: true, value: 'S', description: 'Only these statuses (repeatable or comma list)' },
    open: { type: 'boolean', description: 'Leave out closed and canceled items' },
  },
  examples: ['pm search login redirect', 'pm search "rate limit" --open --limit 5'],
  async run(args, { io, services }) {
    const input = parseWith(searchSchema, { ...args.values, words: args.positionals }, 'search', ['words']);
    const query: SearchQuery = {
      query: input.words,
      ...(input.limit !== undefined ? { limit: input.limit } : {}),
      ...(input.status ? { status: input.status } : {}),
      ...(input.open ? { openOnly: true } : {}),
    };
    const result = await (await services.tracker()).search(query);
    await warnUnreadable(io, result.unreadable);
    return { value: result, human: renderSearch(result) };
  },
};
