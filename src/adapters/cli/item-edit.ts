import { ValidationError } from '../../domain/errors/tracker-errors.js';
import type { UpdateInput } from '../../domain/tracker/inputs.js';
import type { Item } from '../../domain/tracker/item.js';
import { canonicalJson } from '../../domain/util/canonical-json.js';

/**
 * Fields `pm edit` leaves to the tracker or to their own commands: a hand edit of one of them
 * is refused with the command that changes it (docs/CLI.md "pm edit").
 */
const OWNED_ELSEWHERE: readonly { field: keyof Item; how: string }[] = [
  { field: 'id', how: 'an id never changes' },
  { field: 'created', how: 'pm records it' },
  { field: 'updated', how: 'pm records it' },
  { field: 'revision', how: 'pm records it' },
  { field: 'comments', how: 'use pm comment' },
  { field: 'claim', how: 'use pm claim or pm release' },
  { field: 'closure', how: 'use pm close or pm reopen' },
  { field: 'blockedBy', how: 'use pm deps add/remove --blocked-by' },
  { field: 'related', how: 'use pm deps add/remove --related' },
];

const same = (a: unknown, b: unknown) => canonicalJson(a ?? null) === canonicalJson(b ?? null);

/**
 * The update that turns `before` into `edited` (the item file as the user saved it), through
 * the same inputs `pm update` takes; an empty object when nothing editable changed. Refuses
 * (ValidationError, exit 2) a change to a field pm or another command owns, naming each one.
 */
export function editToUpdate(before: Item, edited: Item): UpdateInput {
  const refused = OWNED_ELSEWHERE.filter(({ field }) => !same(before[field], edited[field]));
  if (refused.length > 0) {
    const list = refused.map(({ field, how }) => `${field} (${how})`).join('; ');
    throw new ValidationError(`pm edit cannot change ${list}`, { fields: refused.map((r) => r.field) });
  }
  const update: Record<string, unknown> = {};
  for (const field of ['title', 'type', 'status', 'priority'] as const) if (before[field] !== edited[field]) update[field] = edited[field];
  if (before.body.trim() !== edited.body.trim()) update.body = edited.body;
  if ((before.parent ?? null) !== (edited.parent ?? null)) update.parent = edited.parent ?? null;
  if ((before.assignee ?? null) !== (edited.assignee ?? null)) update.assignee = edited.assignee ?? null;
  if (!same(before.tags, edited.tags)) update.tags = edited.tags;
  Object.assign(update, acceptanceChange(before, edited), listChange('Files', before.files, edited.files), listChange('Tests', before.tests, edited.tests));
  const custom: Record<string, string | number | boolean | null> = {};
  for (const key of new Set([...Object.keys(before.custom), ...Object.keys(edited.custom)])) {
    if (!same(before.custom[key], edited.custom[key])) custom[key] = edited.custom[key] ?? null;
  }
  if (Object.keys(custom).length > 0) update.custom = custom;
  return update as UpdateInput;
}

/** Criteria with the same texts in the same order: marks; otherwise the new list, then its done marks. */
function acceptanceChange(before: Item, edited: Item): Partial<UpdateInput> {
  if (same(before.acceptance, edited.acceptance)) return {};
  const indexes = (keep: (done: boolean) => boolean) => edited.acceptance.flatMap((c, i) => (keep(c.done) ? [i + 1] : []));
  const sameTexts = same(before.acceptance.map((c) => c.text), edited.acceptance.map((c) => c.text));
  if (sameTexts) {
    const check = edited.acceptance.flatMap((c, i) => (c.done && !before.acceptance[i]!.done ? [i + 1] : []));
    const uncheck = edited.acceptance.flatMap((c, i) => (!c.done && before.acceptance[i]!.done ? [i + 1] : []));
    return { ...(check.length ? { checkAcceptance: check } : {}), ...(uncheck.length ? { uncheckAcceptance: uncheck } : {}) };
  }
  const done = indexes((d) => d);
  return { acceptance: edited.acceptance.map((c) => c.text), ...(done.length ? { checkAcceptance: done } : {}) };
}

function listChange(name: 'Files' | 'Tests', before: readonly string[], after: readonly string[]): Partial<UpdateInput> {
  const add = after.filter((v) => !before.includes(v));
  const remove = before.filter((v) => !after.includes(v));
  return { ...(add.length ? { [`add${name}`]: add } : {}), ...(remove.length ? { [`remove${name}`]: remove } : {}) };
}
