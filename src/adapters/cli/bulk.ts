import { z } from 'zod';
import { ConsentRequiredError, PmError } from '../../domain/errors/index.js';
import { EXIT } from '../../domain/errors/pm-error.js';
import { MAX_LIST_LIMIT, type ListQuery } from '../../domain/tracker/list-query.js';
import type { Tracker } from '../../domain/tracker/tracker.js';
import { parseWith } from './argv.js';
import { commaList, priorityList } from './argv-values.js';
import type { CliIo, CommandOutcome, OptionSpec, PositionalSpec } from './command.js';
import { UsageError } from './usage-error.js';

/**
 * Several items in one command (docs/CLI.md "Several items at once"): close, update, claim and
 * release take several ids, or `--filter` selections confirmed by their count. Each item is
 * its own guarded mutation with its own receipt (the write lock's group commit keeps many
 * cheap); a failure on one item is reported and the others still go ahead; exit 10 says some failed.
 */

/** The ids positional of a command that accepts several items or a filter. */
export const IDS_ARGUMENT: PositionalSpec = { name: 'id', variadic: true, orOption: 'filter' };

/** `--filter KEY=VALUE`: the selection instead of ids. */
export const FILTER_OPTION: Readonly<Record<string, OptionSpec>> = {
  filter: { type: 'string', multiple: true, value: 'KEY=VALUE', description: 'Instead of ids: every item matching status, type, tag, priority, assignee, parent or text (repeatable; closed items only with status=...); asks to confirm the count (--yes skips)' },
};

/** `-y`/`--yes` of a command whose only question is the confirmation of a --filter selection. */
export const SELECTION_YES: OptionSpec = { type: 'boolean', short: 'y', description: 'With --filter: apply to the selected items without asking (required when stdin is not a terminal)' };

const FILTER_KEYS = ['status', 'type', 'tag', 'priority', 'assignee', 'parent', 'text'] as const;

const filterSchema = z.object({
  status: commaList, type: commaList, tag: commaList, priority: priorityList,
  assignee: z.string().min(1, 'must not be empty').optional(), parent: z.string().min(1, 'must not be empty').optional(), text: z.string().min(1, 'must not be empty').optional(),
});

/** The list query a `--filter` selection stands for; every key at most once. */
export function filterQuery(raw: readonly string[], command: string): ListQuery {
  const values: Record<string, string[]> = {};
  for (const pair of raw) {
    const at = pair.indexOf('=');
    const key = at > 0 ? pair.slice(0, at).trim() : '';
    if (!(FILTER_KEYS as readonly string[]).includes(key)) throw new UsageError(`--filter: expected KEY=VALUE with KEY one of ${FILTER_KEYS.join(', ')}, got '${pair}'`, command);
    const value = pair.slice(at + 1);
    if (!value.trim()) throw new UsageError(`--filter: ${key} needs a value`, command);
    (values[key] ??= []).push(value);
  }
  const single = (key: string) => (values[key] ? values[key].join(',') : undefined);
  const parsed = parseWith(filterSchema, { status: values.status, type: values.type, tag: values.tag, priority: values.priority, assignee: single('assignee'), parent: single('parent'), text: single('text') }, command);
  return {
    ...(parsed.status ? { status: parsed.status } : {}),
    ...(parsed.type ? { type: parsed.type } : {}),
    ...(parsed.tag ? { tag: parsed.tag } : {}),
    ...(parsed.priority ? { priority: parsed.priority } : {}),
    ...(parsed.assignee !== undefined ? { assignee: parsed.assignee } : {}),
    ...(parsed.parent !== undefined ? { parent: parsed.parent } : {}),
    ...(parsed.text !== undefined ? { text: parsed.text } : {}),
  };
}

/** What the command was given: ids, or a filter; `yes` skips the confirmation. */
export interface SelectionInput {
  readonly ids: readonly string[];
  readonly filter?: readonly string[];
  readonly yes: boolean;
  readonly verb: string;
  readonly command: string;
}

/** The ids to act on and whether they came from a filter (then the JSON is always the bulk shape). */
export interface Selection {
  readonly ids: readonly string[];
  readonly bulk: boolean;
}

/**
 * The ids a command acts on. A filter selects through the index (every page, by id) and asks
 * "Close 12 items? [y/N]" on a terminal; without one and without --yes it refuses (exit 6)
 * instead of waiting for an answer nobody can give.
 */
export async function select(input: SelectionInput, tracker: Tracker, io: CliIo): Promise<Selection> {
  const filter = input.filter?.length ? input.filter : undefined;
  if (filter && input.ids.length) throw new UsageError('give ids or --filter, not both', input.command);
  if (!filter) {
    if (!input.ids.length) throw new UsageError('missing <id...>: give one or more ids, or --filter KEY=VALUE', input.command);
    return { ids: [...new Set(input.ids)], bulk: input.ids.length > 1 };
  }
  const ids = await selectedIds(tracker, filterQuery(filter, input.command));
  if (ids.length === 0 || input.yes) return { ids, bulk: true };
  const question = `${input.verb} ${ids.length} item${ids.length === 1 ? '' : 's'} (${preview(ids)})? [y/N] `;
  if (!io.interactive) throw new ConsentRequiredError(`--filter selected ${ids.length} item(s); pass --yes to ${input.verb.toLowerCase()} them (there is no terminal to ask)`, { count: ids.length });
  if (!(await io.confirm(question))) throw new ConsentRequiredError(`declined: nothing was changed`, { count: ids.length });
  return { ids, bulk: true };
}

async function selectedIds(tracker: Tracker, query: ListQuery): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await tracker.list({ ...query, sort: 'id', order: 'asc', limit: MAX_LIST_LIMIT, ...(cursor ? { cursor } : {}) });
    ids.push(...page.items.map((item) => item.id));
    cursor = page.nextCursor;
  } while (cursor);
  return ids;
}

function preview(ids: readonly string[]): string {
  return ids.length <= 5 ? ids.join(', ') : `${ids.slice(0, 5).join(', ')} and ${ids.length - 5} more`;
}

/** One item's outcome in a bulk run (`--json`: `results[]`). */
export type BulkResult =
  | { readonly id: string; readonly ok: true; readonly result: unknown }
  | { readonly id: string; readonly ok: false; readonly error: { readonly code: number; readonly reason: string; readonly message: string; readonly exitCode: number } };

/**
 * Applies `apply` to each id in turn. One id not from a filter: exactly the single command
 * (its result, its errors thrown). Otherwise every id is tried, failures are listed with their
 * reason, and one summary line follows; exit 10 when any failed.
 */
export async function runEach(selection: Selection, pastVerb: string, apply: (id: string) => Promise<CommandOutcome>): Promise<CommandOutcome> {
  if (!selection.bulk && selection.ids.length === 1) return apply(selection.ids[0]!);
  const results: BulkResult[] = [];
  const human: string[] = [];
  const warnings: string[] = [];
  for (const id of selection.ids) {
    try {
      const outcome = await apply(id);
      results.push({ id, ok: true, result: outcome.value });
      human.push(outcome.human);
      warnings.push(...(outcome.warnings ?? []).map((w) => `${id}: ${w}`));
    } catch (error) {
      if (!(error instanceof PmError)) throw error;
      const rpc = error.toJsonRpcError();
      results.push({ id, ok: false, error: { code: rpc.code, reason: error.reason, message: error.message, exitCode: error.exitCode } });
      human.push(`Failed ${id}: ${error.message} (exit ${error.exitCode})\n`);
    }
  }
  const failed = results.filter((r) => !r.ok).map((r) => r.id);
  const done = results.length - failed.length;
  const summary = selection.ids.length === 0
    ? 'No item matches the filter; nothing to do.'
    : `${pastVerb} ${done} of ${results.length} item${results.length === 1 ? '' : 's'}${failed.length ? `; ${failed.length} failed (${preview(failed)})` : ''}.`;
  return {
    value: { results, succeeded: done, failed: failed.length },
    human: `${human.join('')}${summary}\n`,
    ...(failed.length ? { exitCode: EXIT.partial } : {}),
    ...(warnings.length ? { warnings } : {}),
  };
}

/** Guards name one item's revision or one request: refused with several ids or a filter. */
export function assertSingleGuards(selection: Selection, values: { 'expected-revision'?: number; 'idempotency-key'?: string }, command: string): void {
  if (selection.ids.length === 1 && !selection.bulk) return;
  if (values['expected-revision'] !== undefined) throw new UsageError('--expected-revision names one item\'s revision: give one id', command);
  if (values['idempotency-key'] !== undefined) throw new UsageError('--idempotency-key names one request: give one id', command);
}
