import { ValidationError } from '../errors/index.js';
import { unknownValueMessage } from '../util/nearest-key.js';
import type { TrackerConfig } from './config.js';
import type { Item } from './item.js';

/** Guards the invariants an item must satisfy against the tracker's configuration. */
export function assertItemAgainstConfig(item: Item, config: TrackerConfig): void {
  if (!config.types.includes(item.type)) {
    throw new ValidationError(unknownValueMessage('type', item.type, config.types), { field: 'type', value: item.type, allowed: config.types });
  }
  if (!config.statuses.includes(item.status)) {
    throw new ValidationError(unknownValueMessage('status', item.status, config.statuses), { field: 'status', value: item.status, allowed: config.statuses });
  }
  if (!Number.isInteger(item.priority) || item.priority < 0 || item.priority > 4) {
    throw new ValidationError(`invalid priority ${item.priority}; expected an integer from 0 (highest) to 4 (lowest)`, { field: 'priority', value: item.priority });
  }
  if (!item.title.trim()) throw new ValidationError('title must not be empty', { field: 'title' });
  for (const [name, value] of Object.entries(item.custom)) assertCustomField(name, value, config);
}

/**
 * A status or type filter names only values config.yaml declares: a typo must not read as "no
 * items match" (the same refusal, and message, as an item with that status or type gets).
 */
export function assertKnownFilter(config: TrackerConfig, field: 'status' | 'type', values: readonly string[] | undefined): void {
  const allowed = field === 'status' ? config.statuses : config.types;
  const unknown = values?.find((value) => !allowed.includes(value));
  if (unknown !== undefined) throw new ValidationError(unknownValueMessage(field, unknown, allowed), { field, value: unknown, allowed });
}

/** The custom fields config.yaml declares `required: true` that `custom` does not set, in declaration order. */
export function missingRequiredCustomFields(custom: Readonly<Record<string, unknown>>, config: TrackerConfig): string[] {
  return Object.entries(config.customFields).filter(([name, def]) => def.required === true && (custom[name] === undefined || custom[name] === null)).map(([name]) => name);
}

/** A new item sets every required custom field (docs/TRACKER.md "Custom fields"). */
export function assertRequiredCustomFields(custom: Readonly<Record<string, unknown>>, config: TrackerConfig): void {
  const missing = missingRequiredCustomFields(custom, config);
  if (!missing.length) return;
  const names = missing.map((name) => `'${name}'`).join(', ');
  throw new ValidationError(`missing required custom field${missing.length > 1 ? 's' : ''} ${names} (declared required in config.yaml)`, { field: `custom.${missing[0]}`, missing });
}

/** Checks one custom field value against its declaration in config.yaml. */
export function assertCustomField(name: string, value: unknown, config: TrackerConfig): void {
  const def = config.customFields[name];
  const declared = Object.keys(config.customFields);
  if (!def) {
    throw new ValidationError(`unknown custom field '${name}'; declared fields: ${declared.length ? declared.join(', ') : '(none; declare them under customFields in config.yaml)'}`, { field: `custom.${name}` });
  }
  const fail = (expected: string) => new ValidationError(`custom field '${name}' must be ${expected}, got ${JSON.stringify(value)}`, { field: `custom.${name}`, value });
  switch (def.type) {
    case 'string':
      if (typeof value !== 'string') throw fail('a string');
      if (def.maxLength !== undefined && value.length > def.maxLength) throw fail(`at most ${def.maxLength} characters`);
      return;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) throw fail('a number');
      if (def.min !== undefined && value < def.min) throw fail(`at least ${def.min}`);
      if (def.max !== undefined && value > def.max) throw fail(`at most ${def.max}`);
      return;
    case 'boolean':
      if (typeof value !== 'boolean') throw fail('true or false');
      return;
    case 'enum':
      if (typeof value !== 'string' || !def.values.includes(value)) throw fail(`one of ${def.values.join(', ')}`);
      return;
  }
}

/** Parses a CLI-style custom value ("3", "true", "text") into the declared field type. */
export function coerceCustomValue(name: string, raw: string, config: TrackerConfig): string | number | boolean {
  const def = config.customFields[name];
  if (def?.type === 'number') {
    const n = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(n)) throw new ValidationError(`custom field '${name}' must be a number, got '${raw}'`, { field: `custom.${name}` });
    return n;
  }
  if (def?.type === 'boolean') {
    if (raw === 'true' || raw === 'false') return raw === 'true';
    throw new ValidationError(`custom field '${name}' must be true or false, got '${raw}'`, { field: `custom.${name}` });
  }
  return raw;
}

/** Tags are trimmed, de-duplicated and kept in the order given. */
export function normalizeList(values: readonly string[]): string[] {
  return [...new Set(values.map((v) => v.trim()).filter(Boolean))];
}
