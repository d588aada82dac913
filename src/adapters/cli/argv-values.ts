import { z } from 'zod';
import type { MutationOptions } from '../../domain/tracker/inputs.js';
import type { OptionSpec } from './command.js';

/**
 * zod schemas for the shapes argv values take across commands (priorities, revisions, comma
 * lists, key=value pairs). Each command composes them into the schema for its own options.
 */

/** A repeatable option whose values may also be comma lists: `--tag a --tag b,c`. */
export const commaList = z.array(z.string()).optional().transform((values, ctx) => {
  const items = values?.flatMap((v) => v.split(',')).map((v) => v.trim());
  const empty = values?.find((v) => v.split(',').some((part) => !part.trim()));
  if (empty !== undefined) {
    // `--tag a,` or `--tag ,` names nothing: refused rather than silently dropped.
    ctx.addIssue({ code: 'custom', message: `'${empty}' has an empty entry; give names separated by commas` });
    return z.NEVER;
  }
  return items?.length ? items : undefined;
});

/** A repeatable option taken verbatim (acceptance criteria, file paths may contain commas). */
export const repeated = z.array(z.string()).optional().transform((values) => (values?.length ? values : undefined));

/** Priority 0 (highest) to 4 (lowest); `P1` is accepted as 1. */
export const priorityValue = z.string().transform((raw, ctx) => {
  const match = /^[Pp]?([0-4])$/.exec(raw.trim());
  if (!match) {
    ctx.addIssue({ code: 'custom', message: `invalid priority '${raw}': expected an integer from 0 (highest) to 4 (lowest)` });
    return z.NEVER;
  }
  return Number(match[1]);
});

/** Repeatable priorities, each also a comma list: `--priority 0,1 --priority P2`. */
export const priorityList = commaList.pipe(z.array(priorityValue).optional());

/** A whole number within [min, max], e.g. `--limit 20`. */
export function integerValue(what: string, min: number, max: number) {
  return z.string().transform((raw, ctx) => {
    const n = /^\d+$/.test(raw.trim()) ? Number(raw) : NaN;
    if (!Number.isSafeInteger(n) || n < min || n > max) {
      ctx.addIssue({ code: 'custom', message: `invalid ${what} '${raw}': expected a whole number from ${min} to ${max}` });
      return z.NEVER;
    }
    return n;
  });
}

/** A lease length as the claim input takes it: whole minutes or seconds. */
export type LeaseLength = { readonly leaseMinutes: number } | { readonly leaseSeconds: number };

const LEASE_UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600 };

/**
 * `--lease` (docs/CLI.md "pm claim"): plain minutes as always (`30`), or a number with a unit —
 * `90s`, `5m`, `2h` — for leases shorter than a minute or not whole minutes (1 s to 7 days).
 */
export const leaseValue = z.string().transform((raw, ctx): LeaseLength => {
  const text = raw.trim();
  const match = /^(\d+)([smh])?$/.exec(text);
  const n = match ? Number(match[1]) : NaN;
  const seconds = match?.[2] ? n * LEASE_UNIT_SECONDS[match[2]]! : n * 60;
  if (!match || !Number.isSafeInteger(n) || n < 1 || seconds > 604_800) {
    ctx.addIssue({ code: 'custom', message: `invalid lease '${raw}': expected minutes (1-10080) or a number with a unit, e.g. 90s, 5m, 2h (at most 7 days)` });
    return z.NEVER;
  }
  return match[2] === undefined ? { leaseMinutes: n } : { leaseSeconds: seconds };
});

/** Repeatable `--set key=value`: returns [key, rawValue] pairs (coerced later against config). */
export const keyValueList = z.array(z.string()).optional().transform((values, ctx) => {
  const pairs: [string, string][] = [];
  for (const raw of values ?? []) {
    const at = raw.indexOf('=');
    if (at <= 0) {
      ctx.addIssue({ code: 'custom', message: `expected key=value, got '${raw}'` });
      return z.NEVER;
    }
    pairs.push([raw.slice(0, at).trim(), raw.slice(at + 1)]);
  }
  return pairs.length ? pairs : undefined;
});

/** A required positional item id (its shape is checked by the tracker). */
export const idArgument = z.string({ error: 'missing item id' }).min(1, 'missing item id');

/** The guards every mutating command accepts. */
export const GUARD_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  'expected-revision': { type: 'string', value: 'N', description: 'Refuse (exit 4) unless the item is still at revision N' },
  'idempotency-key': { type: 'string', value: 'KEY', description: 'Replaying the same request with this key returns the first receipt and writes nothing' },
};

/** `--strict`: refuse what is otherwise a warning (claim and update). */
export const STRICT_OPTION: Readonly<Record<string, OptionSpec>> = {
  strict: { type: 'boolean', description: "Refuse instead of warning: blocked work, an item somebody else has claimed (default: strict in config.yaml)" },
};

/** Only the idempotency key: for create, where no revision exists yet. */
export const IDEMPOTENCY_OPTION: Readonly<Record<string, OptionSpec>> = { 'idempotency-key': GUARD_OPTIONS['idempotency-key']! };

/** zod shapes of the guard options, spread into each mutating command's schema. */
export const guardShape = {
  'expected-revision': integerValue('revision', 1, Number.MAX_SAFE_INTEGER).optional(),
  'idempotency-key': z.string().min(1, 'must not be empty').max(200, 'at most 200 characters').optional(),
};

/** MutationOptions from parsed guard values. */
export function guardsFrom(values: { 'expected-revision'?: number; 'idempotency-key'?: string; strict?: boolean }): MutationOptions {
  return {
    ...(values.strict ? { strict: true } : {}),
    ...(values['expected-revision'] !== undefined ? { expectedRevision: values['expected-revision'] } : {}),
    ...(values['idempotency-key'] !== undefined ? { idempotencyKey: values['idempotency-key'] } : {}),
  };
}
