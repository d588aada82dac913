import { z } from 'zod';
import { ITEM_ID_PATTERN } from '../tracker/item.js';
import { MAX_TITLE_LENGTH } from '../tracker/field-limits.js';
import type { JsonObject } from '../mcp/wire-types.js';
import { lazy } from '../util/lazy.js';

/**
 * Bounded JSON Schema 2020-12 fragments and their zod twins for the tracker tools' inputSchema
 * and outputSchema (2026-07-28 `server/tools`; seed 004 "MRTR, tasks, and cache behavior": tool
 * schemas are validated as bounded JSON Schema 2020-12 documents). Inputs carry
 * explicit bounds (maxLength, maxItems, minimum/maximum); fragments are inlined (no `$ref`) so
 * initialize-era clients with draft-07 validators read them too.
 */

/** Longest item id the pattern admits (`<12 chars>-<16 chars>`). */
export const ITEM_ID_MAX_LENGTH = 29;
/** Most entries a list argument may carry. */
export const MAX_LIST_ARGUMENT = 50;
/** The tracker's own title limit (docs/TRACKER.md "Field limits"). */
export const MAX_TITLE = MAX_TITLE_LENGTH;
export const MAX_BODY = 20_000;
export const MAX_SHORT_TEXT = 200;
export const MAX_TEXT = 10_000;
export const MAX_CURSOR = 1024;
export const MAX_IDEMPOTENCY_KEY = 200;
/** Upper bound of revision numbers accepted as `expectedRevision`. */
export const MAX_REVISION = 2_147_483_647;

/** `{"type":"string", …}` with the given bounds and description. */
export function stringSchema(maxLength: number, description?: string, minLength = 1): JsonObject {
  return { type: 'string', ...(minLength ? { minLength } : {}), maxLength, ...(description ? { description } : {}) };
}

/** An array of `items`, bounded. */
export function arraySchema(items: JsonObject, maxItems = MAX_LIST_ARGUMENT, description?: string): JsonObject {
  return { type: 'array', items, maxItems, ...(description ? { description } : {}) };
}

/** A bounded array of bounded strings (empty entries are dropped by the tracker, so no minLength). */
export function stringListSchema(maxLength: number, description?: string, maxItems = MAX_LIST_ARGUMENT): JsonObject {
  return arraySchema({ type: 'string', maxLength }, maxItems, description);
}

/** An item id argument. */
export function idSchema(description?: string): JsonObject {
  return { type: 'string', pattern: ITEM_ID_PATTERN.source, maxLength: ITEM_ID_MAX_LENGTH, ...(description ? { description } : {}) };
}

/** An integer in [minimum, maximum]. */
export function integerSchema(minimum: number, maximum: number, description?: string): JsonObject {
  return { type: 'integer', minimum, maximum, ...(description ? { description } : {}) };
}

/** One of `values`. */
export function enumSchema(values: readonly string[], description?: string): JsonObject {
  return { type: 'string', enum: [...values], ...(description ? { description } : {}) };
}

/** The object-rooted schema of a tool's arguments (unknown keys are declared as not allowed). */
export function objectSchema(properties: Record<string, JsonObject>, required: readonly string[] = []): JsonObject & { type: 'object' } {
  return { type: 'object', properties, ...(required.length ? { required: [...required] } : {}), additionalProperties: false };
}

// zod twins ------------------------------------------------------------------------------

/** An item id argument (built on first use, with the tool catalogue). */
export const zId = lazy(() => z.string().max(ITEM_ID_MAX_LENGTH).regex(ITEM_ID_PATTERN, 'not an item id (expected <prefix>-<base36>, e.g. pm-a1b2c3)'));
export const zText = (max: number) => z.string().min(1).max(max);
export const zList = <T extends z.ZodType>(item: T, max = MAX_LIST_ARGUMENT) => z.array(item).max(max);
/** The zod twin of {@link stringListSchema}. */
export const zStringList = (maxLength: number, max = MAX_LIST_ARGUMENT) => z.array(z.string().max(maxLength)).max(max);
export const zInt = (min: number, max: number) => z.number().int().min(min).max(max);
/** z.enum over a non-empty list known only at run time (tracker config). */
export const zEnum = (values: readonly string[]) => z.enum(values as [string, ...string[]]);

// guards ---------------------------------------------------------------------------------

/**
 * `expectedRevision` and `idempotencyKey`, shared by every mutating tool (docs/TRACKER.md
 * "Mutations"). They carry no per-property description: the server instructions explain both
 * once, instead of once per tool in every tools/list.
 */
export const GUARD_PROPERTIES: Record<string, JsonObject> = {
  expectedRevision: integerSchema(1, MAX_REVISION),
  idempotencyKey: stringSchema(MAX_IDEMPOTENCY_KEY),
};
export const guardShape = lazy(() => ({
  expectedRevision: zInt(1, MAX_REVISION).optional(),
  idempotencyKey: zText(MAX_IDEMPOTENCY_KEY).optional(),
}));
/** `idempotencyKey` only (create has no revision to expect). */
export const IDEMPOTENCY_PROPERTY: Record<string, JsonObject> = { idempotencyKey: GUARD_PROPERTIES.idempotencyKey! };
export const idempotencyShape = lazy(() => ({ idempotencyKey: guardShape().idempotencyKey }));

// outputs --------------------------------------------------------------------------------

const str: JsonObject = { type: 'string' };
const int: JsonObject = { type: 'integer' };
const strList: JsonObject = { type: 'array', items: str };
/**
 * `schema` or null, written as `anyOf` with one `type` per branch: a `type` array
 * (`["string", "null"]`) is valid 2020-12 but not portable — consumers that translate tool
 * schemas into a single-`type` dialect reject the tool or drop the constraint (the MCP
 * Inspector's schema-portability check warns on it; docs/MCP.md "Portable schemas").
 */
export const nullableJsonSchema = (schema: JsonObject): JsonObject => ({ anyOf: [schema, { type: 'null' }] });
const nullable = nullableJsonSchema;

/**
 * An open object (outputs may grow new members). Only a tool's top-level structuredContent
 * lists `required`; nested objects declare their members' types only, which keeps the
 * advertised tools/list small (every byte of it is model context).
 */
export function outputObject(properties: Record<string, JsonObject>, required?: readonly string[]): JsonObject {
  return { type: 'object', properties, ...(required?.length ? { required: [...required] } : {}) };
}

/** `ItemSummary` (list, next, search, context). */
export const SUMMARY_SCHEMA = outputObject(
  { id: str, title: str, type: str, status: str, priority: int, tags: strList, parent: str, assignee: str, claimHolder: str, claimExpired: { type: 'boolean' }, blockedBy: strList, activeBlockers: strList, updated: str, revision: int },
);

export const CLAIM_SCHEMA = outputObject({ holder: str, claimedAt: str, expiresAt: str });
const CLOSURE_SCHEMA = outputObject({ at: str, by: str, evidence: str });

/** A whole item (pm_get, pm://items/{id}). */
export const ITEM_SCHEMA = outputObject(
  {
    id: str, title: str, type: str, status: str, priority: int, tags: strList, parent: str, assignee: str,
    claim: CLAIM_SCHEMA,
    blockedBy: strList, related: strList,
    acceptance: { type: 'array', items: outputObject({ text: str, done: { type: 'boolean' } }) },
    files: strList, tests: strList,
    custom: { type: 'object', additionalProperties: { anyOf: [str, { type: 'number' }, { type: 'boolean' }] } },
    closure: CLOSURE_SCHEMA,
    comments: { type: 'array', items: outputObject({ id: str, author: str, at: str, text: str }) },
    created: str, updated: str, revision: int, body: str,
  }
);

/** The item as a mutation left it, without body and comments (token-frugal). */
export const BRIEF_SCHEMA = outputObject(
  { id: str, title: str, type: str, status: str, priority: int, revision: int, updated: str, parent: str, assignee: str, claim: CLAIM_SCHEMA, closure: CLOSURE_SCHEMA },
);

/** The immutable receipt every mutation returns. */
export const RECEIPT_SCHEMA = outputObject(
  {
    receiptId: str, op: str, itemId: str, actor: str, at: str, seq: int,
    revisionBefore: nullable(int), revisionAfter: nullable(int),
    digestBefore: nullable(str), digestAfter: nullable(str), idempotencyKey: str,
    takeover: outputObject({ from: str, expiredAt: str }),
    client: str,
  }
);

/** `{item, receipt, changed, replayed}` of a mutation (item null only when a replayed item was deleted since). */
export const MUTATION_PROPERTIES: Record<string, JsonObject> = {
  item: nullable(BRIEF_SCHEMA),
  receipt: RECEIPT_SCHEMA,
  changed: { type: 'boolean' },
  replayed: { type: 'boolean' },
};
export const MUTATION_REQUIRED = ['item', 'receipt', 'changed', 'replayed'] as const;

export const OUTPUT = { str, int, strList, nullable, bool: { type: 'boolean' } as JsonObject };
