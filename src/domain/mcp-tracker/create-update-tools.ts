import type { CreateInput, UpdateInput } from '../tracker/inputs.js';
import { GUARD_PROPERTIES, guardShape, IDEMPOTENCY_PROPERTY, idempotencyShape, idSchema, MUTATION_PROPERTIES, MUTATION_REQUIRED, zId } from './json-schemas.js';
import { completeRequiredCustomFields } from './custom-field-elicitation.js';
import { applyUpdateClear, createFields, updateFields } from './item-fields.js';
import { defineTrackerTool, mutationData, mutationOptions, mutationText, type PmTrackerToolDeps, requestTracker } from './tool-kit.js';

/**
 * `pm_create` and `pm_update`. Both return the receipt in
 * `structuredContent`; create takes an idempotencyKey (a retried create returns the first
 * item instead of a duplicate) but no expectedRevision, since there is no revision yet.
 */

export function pmCreateTool(deps: PmTrackerToolDeps) {
  const fields = createFields(deps.tracker.config);
  return defineTrackerTool({
    name: 'pm_create',
    title: 'Create item',
    description: 'Creates a work item. Only title is required; type, status and priority default from the project config (custom fields the config requires must be set; a 2026-07-28 host that supports elicitation forms is asked for missing ones). Pass an idempotencyKey so a retry cannot create a duplicate.',
    properties: { ...fields.json, ...IDEMPOTENCY_PROPERTY },
    required: ['title'],
    shape: { ...fields.zod, ...idempotencyShape() },
    output: { properties: MUTATION_PROPERTIES, required: MUTATION_REQUIRED },
    effect: 'write',
    idempotent: false,
    async run(args, ctx) {
      const { idempotencyKey, ...input } = args;
      const custom = completeRequiredCustomFields(deps.tracker.config, (input as { custom?: Record<string, string | number | boolean> }).custom ?? {}, input.title, ctx);
      const create = { ...input, ...(Object.keys(custom).length ? { custom } : {}) } as CreateInput;
      const result = await requestTracker(deps, ctx).create(create, mutationOptions(deps, ctx, { idempotencyKey }));
      return { data: mutationData(result), text: mutationText(`Created ${result.item.id}`, result) };
    },
  });
}

export function pmUpdateTool(deps: PmTrackerToolDeps) {
  const fields = updateFields(deps.tracker.config);
  return defineTrackerTool({
    name: 'pm_update',
    title: 'Update item',
    description: 'Changes fields of an item; only the fields given change. add*/remove* edit lists in place; check/uncheckAcceptance mark criteria by 1-based index; clear removes parent, assignee or a custom field. Closing goes through pm_close.',
    properties: { id: idSchema(), ...fields.json, ...GUARD_PROPERTIES },
    required: ['id'],
    shape: { id: zId(), ...fields.zod, ...guardShape() },
    output: { properties: MUTATION_PROPERTIES, required: MUTATION_REQUIRED },
    effect: 'write',
    idempotent: false,
    async run(args, ctx) {
      const { id, expectedRevision, idempotencyKey, ...rest } = args;
      const input = applyUpdateClear(rest, deps.tracker.config);
      const result = await requestTracker(deps, ctx).update(id, input as UpdateInput, mutationOptions(deps, ctx, { expectedRevision, idempotencyKey }));
      return { data: mutationData(result), text: mutationText(`Updated ${id}`, result), ...(result.warnings ? { warnings: result.warnings } : {}) };
    },
  });
}
