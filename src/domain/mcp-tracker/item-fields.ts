import { z } from 'zod';
import type { JsonObject } from '../mcp/wire-types.js';
import { ValidationError } from '../errors/tracker-errors.js';
import { TERMINAL_STATUSES, type CustomFieldDefinition, type TrackerConfig } from '../tracker/config.js';
import {
  arraySchema, enumSchema, idSchema, integerSchema, MAX_BODY, MAX_SHORT_TEXT, MAX_TITLE, stringListSchema, stringSchema,
  zEnum, zId, zInt, zList, zStringList, zText,
} from './json-schemas.js';

/**
 * Argument fragments for the item fields `pm_create` and `pm_update` share, built from the
 * tracker's config.yaml so the advertised schema is exact: types and statuses are enums, custom
 * fields are declared one by one (and `custom` is absent when config declares none).
 */

const MAX_TAG = 64;
const MAX_PATH = 500;
const MAX_CRITERION = 500;
const MAX_CUSTOM_STRING = 1000;

/** The JSON Schema of one custom field value (also the elicitation form field pm_create asks with). */
export function customFieldJsonSchema(def: CustomFieldDefinition): JsonObject {
  const description = def.description ? { description: def.description } : {};
  switch (def.type) {
    case 'string': return { type: 'string', maxLength: def.maxLength ?? MAX_CUSTOM_STRING, ...description };
    case 'number': return { type: 'number', ...(def.min !== undefined ? { minimum: def.min } : {}), ...(def.max !== undefined ? { maximum: def.max } : {}), ...description };
    case 'boolean': return { type: 'boolean', ...description };
    case 'enum': return { type: 'string', enum: [...def.values], ...description };
  }
}

function customZod(def: CustomFieldDefinition): z.ZodType<string | number | boolean> {
  switch (def.type) {
    case 'string': return z.string().max(def.maxLength ?? MAX_CUSTOM_STRING);
    case 'number': {
      let n = z.number();
      if (def.min !== undefined) n = n.min(def.min);
      if (def.max !== undefined) n = n.max(def.max);
      return n;
    }
    case 'boolean': return z.boolean();
    case 'enum': return zEnum(def.values);
  }
}

/**
 * A required field stays optional in the schema — a 2026-07-28 host that can answer an
 * elicitation form is asked for it (seed 004 "MRTR, tasks, and cache behavior") — and says so.
 */
function requiredNote(def: CustomFieldDefinition, schema: JsonObject): JsonObject {
  if (def.required !== true) return schema;
  return { ...schema, description: `Required for new items${def.description ? `: ${def.description}` : '.'}` };
}

/**
 * The `custom` argument for config's custom fields. On update a value is removed through
 * `clear`, so every advertised field keeps its one type (docs/MCP.md "Clearing a field"); a
 * null value is still accepted for clients written against the earlier nullable schema.
 */
function customArgument(config: TrackerConfig, update: boolean): { json: Record<string, JsonObject>; zod: Record<string, z.ZodType> } {
  const fields = Object.entries(config.customFields);
  if (!fields.length) return { json: {}, zod: {} };
  const properties = Object.fromEntries(fields.map(([name, def]) => [name, update ? customFieldJsonSchema(def) : requiredNote(def, customFieldJsonSchema(def))]));
  const shape = Object.fromEntries(fields.map(([name, def]) => [name, (update ? customZod(def).nullable() : customZod(def)).optional()]));
  return {
    json: { custom: { type: 'object', properties, additionalProperties: false, description: update ? 'Custom fields to set; clear removes one.' : 'Custom fields.' } },
    zod: { custom: z.object(shape).strict().optional() },
  };
}

/** The fields pm_update's `clear` may name: parent, assignee and the config's custom fields. */
export function clearableFields(config: TrackerConfig): readonly string[] {
  return ['parent', 'assignee', ...Object.keys(config.customFields)];
}

/**
 * pm_update's arguments as the tracker's update: each field `clear` names becomes the removal
 * the tracker knows (null), so the wire schema needs no `anyOf`/type array that lossy schema
 * converters drop (docs/MCP.md "Clearing a field"). Naming a field in `clear` and setting it
 * in the same call is a ValidationError: pm would otherwise have to guess which was meant.
 */
export function applyUpdateClear<T extends { clear?: readonly string[] | undefined; custom?: Record<string, unknown> | undefined }>(args: T, config: TrackerConfig): Omit<T, 'clear'> {
  const { clear, ...input } = args;
  if (!clear?.length) return input;
  const out: Record<string, unknown> = { ...input };
  const custom: Record<string, unknown> = { ...(input.custom ?? {}) };
  for (const field of new Set(clear)) {
    const target = Object.prototype.hasOwnProperty.call(config.customFields, field) ? custom : out;
    if (target[field] !== undefined && target[field] !== null) throw new ValidationError(`pm_update: ${field} is both set and named in clear; send one of them`, { field, reason: 'clear_conflict' });
    target[field] = null;
  }
  if (Object.keys(custom).length) out.custom = custom;
  return out as Omit<T, 'clear'>;
}

/** The fields a new item may set (pm_create). */
export function createFields(config: TrackerConfig) {
  const open = config.statuses.filter((s) => !TERMINAL_STATUSES.has(s));
  const custom = customArgument(config, false);
  const strings = (max: number) => stringListSchema(max);
  return {
    json: {
      title: stringSchema(MAX_TITLE),
      type: enumSchema(config.types, `Default ${config.defaults.type}.`),
      status: enumSchema(open, `Default ${config.defaults.status}.`),
      priority: integerSchema(0, 4, `0 highest, 4 lowest; default ${config.defaults.priority}.`),
      body: stringSchema(MAX_BODY, 'Description (Markdown).', 0),
      tags: strings(MAX_TAG),
      parent: idSchema(),
      assignee: stringSchema(MAX_SHORT_TEXT),
      blockedBy: arraySchema(idSchema(), undefined, 'Items that must finish first.'),
      related: arraySchema(idSchema()),
      acceptance: stringListSchema(MAX_CRITERION, 'Acceptance criteria.'),
      files: strings(MAX_PATH),
      tests: strings(MAX_PATH),
      ...custom.json,
    },
    zod: {
      title: zText(MAX_TITLE),
      type: zEnum(config.types).optional(),
      status: zEnum(open).optional(),
      priority: zInt(0, 4).optional(),
      body: z.string().max(MAX_BODY).optional(),
      tags: zStringList(MAX_TAG).optional(),
      parent: zId().optional(),
      assignee: zText(MAX_SHORT_TEXT).optional(),
      blockedBy: zList(zId()).optional(),
      related: zList(zId()).optional(),
      acceptance: zStringList(MAX_CRITERION).optional(),
      files: zStringList(MAX_PATH).optional(),
      tests: zStringList(MAX_PATH).optional(),
      ...custom.zod,
    },
  };
}

/** The fields an update may change (pm_update); lists are edited in place with add/remove. */
export function updateFields(config: TrackerConfig) {
  const open = config.statuses.filter((s) => !TERMINAL_STATUSES.has(s));
  const custom = customArgument(config, true);
  const strings = (max: number, description?: string) => stringListSchema(max, description);
  const indexes = (description: string) => arraySchema(integerSchema(1, 1000), undefined, description);
  const clearable = clearableFields(config);
  return {
    json: {
      title: stringSchema(MAX_TITLE),
      body: stringSchema(MAX_BODY, 'Replaces the description.', 0),
      type: enumSchema(config.types),
      status: enumSchema(open, 'Use pm_close to close or cancel.'),
      priority: integerSchema(0, 4),
      parent: idSchema(),
      assignee: stringSchema(MAX_SHORT_TEXT),
      tags: strings(MAX_TAG, 'Replaces all tags.'),
      addTags: strings(MAX_TAG),
      removeTags: strings(MAX_TAG),
      acceptance: strings(MAX_CRITERION, 'Replaces all criteria (unchecked).'),
      addAcceptance: strings(MAX_CRITERION),
      checkAcceptance: indexes('1-based criteria to mark done.'),
      uncheckAcceptance: indexes('1-based criteria to mark not done.'),
      addFiles: strings(MAX_PATH),
      removeFiles: strings(MAX_PATH),
      addTests: strings(MAX_PATH),
      removeTests: strings(MAX_PATH),
      ...custom.json,
      clear: arraySchema(enumSchema(clearable), clearable.length, 'Fields to remove (not also set in this call).'),
    },
    zod: {
      title: zText(MAX_TITLE).optional(),
      body: z.string().max(MAX_BODY).optional(),
      type: zEnum(config.types).optional(),
      status: zEnum(open).optional(),
      priority: zInt(0, 4).optional(),
      // null still removes the field (clients of the earlier nullable schema); `clear` is what is advertised.
      parent: zId().nullable().optional(),
      assignee: zText(MAX_SHORT_TEXT).nullable().optional(),
      tags: zStringList(MAX_TAG).optional(),
      addTags: zStringList(MAX_TAG).optional(),
      removeTags: zStringList(MAX_TAG).optional(),
      acceptance: zStringList(MAX_CRITERION).optional(),
      addAcceptance: zStringList(MAX_CRITERION).optional(),
      checkAcceptance: zList(zInt(1, 1000)).optional(),
      uncheckAcceptance: zList(zInt(1, 1000)).optional(),
      addFiles: zStringList(MAX_PATH).optional(),
      removeFiles: zStringList(MAX_PATH).optional(),
      addTests: zStringList(MAX_PATH).optional(),
      removeTests: zStringList(MAX_PATH).optional(),
      ...custom.zod,
      clear: zList(zEnum(clearable), clearable.length).optional(),
    },
  };
}
