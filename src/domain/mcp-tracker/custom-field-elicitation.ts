import { PmMcpInputRequiredError, PmMcpInvalidParamsError, ValidationError } from '../errors/index.js';
import { hasMcpClientCapabilities } from '../mcp/capabilities.js';
import { mcpInteractionOf } from '../mcp/interaction/interaction.js';
import type { McpRequestContext } from '../mcp/request-context.js';
import type { TrackerConfig } from '../tracker/config.js';
import { missingRequiredCustomFields } from '../tracker/item-rules.js';
import { customFieldJsonSchema } from './item-fields.js';

/** The input-request key under which pm_create asks for missing required custom fields. */
export const PM_MCP_CUSTOM_FIELDS_INPUT = 'customFields';

type CustomValues = Record<string, string | number | boolean>;

/** The `elicitation/create` form asking for the missing required custom fields of a new item. */
export function pmMcpCustomFieldsElicitation(config: TrackerConfig, missing: readonly string[], title: string): { readonly method: string; readonly params: Record<string, unknown> } {
  const properties = Object.fromEntries(missing.map((name) => [name, { title: name, ...customFieldJsonSchema(config.customFields[name]!) }]));
  const names = missing.join(', ');
  return {
    method: 'elicitation/create',
    params: { mode: 'form', message: `The new item "${title}" needs ${missing.length > 1 ? 'the required custom fields' : 'the required custom field'} ${names}.`, requestedSchema: { type: 'object', properties, required: [...missing] } },
  };
}

function answeredValues(answer: unknown, missing: readonly string[]): CustomValues {
  const result = answer as { action?: unknown; content?: unknown };
  if (!result || typeof result !== 'object' || !['accept', 'decline', 'cancel'].includes(result.action as string)) {
    throw new PmMcpInvalidParamsError(`Malformed inputResponses.${PM_MCP_CUSTOM_FIELDS_INPUT}: an ElicitResult with action accept, decline or cancel`, { field: `inputResponses.${PM_MCP_CUSTOM_FIELDS_INPUT}` });
  }
  if (result.action !== 'accept') {
    throw new ValidationError(`Nothing was created: the request for the required custom field${missing.length > 1 ? 's' : ''} ${missing.join(', ')} was ${result.action === 'decline' ? 'declined' : 'cancelled'}`, { field: `custom.${missing[0]}`, missing: [...missing] });
  }
  const content = result.content;
  if (content !== undefined && (typeof content !== 'object' || content === null || Array.isArray(content))) {
    throw new PmMcpInvalidParamsError(`Malformed inputResponses.${PM_MCP_CUSTOM_FIELDS_INPUT}.content: an object of field values`, { field: `inputResponses.${PM_MCP_CUSTOM_FIELDS_INPUT}.content` });
  }
  const values: CustomValues = {};
  for (const name of missing) {
    const value = (content as Record<string, unknown> | undefined)?.[name];
    if (value !== undefined) values[name] = value as string | number | boolean; // the tracker checks the type against config.yaml
  }
  return values;
}

/**
 * Completes a new item's required custom fields (docs/TRACKER.md "Custom fields"; seed 004
 * "MRTR, tasks, and cache behavior"). When some are missing and this is a 2026-07-28 request
 * whose client declared form elicitation, the host is asked with an `elicitation/create` form
 * (`input_required`; the missing names sealed into `requestState`, so the answer counts only
 * for this very call); an accepted answer fills them in, a declined or cancelled one creates
 * nothing and says so. Otherwise the values are returned unchanged and the tracker refuses the
 * create naming the missing fields. Only the asked-for fields are taken from an answer.
 */
export function completeRequiredCustomFields(config: TrackerConfig, custom: CustomValues, title: string, ctx: McpRequestContext): CustomValues {
  const missing = missingRequiredCustomFields(custom, config);
  if (!missing.length || ctx.era !== 'modern' || !hasMcpClientCapabilities(ctx, { elicitation: { form: {} } })) return custom;
  const interaction = mcpInteractionOf(ctx);
  const asked = interaction.state?.[PM_MCP_CUSTOM_FIELDS_INPUT];
  const answer = Array.isArray(asked) && asked.join('\n') === missing.join('\n') ? interaction.responses[PM_MCP_CUSTOM_FIELDS_INPUT] : undefined;
  if (answer !== undefined) return { ...custom, ...answeredValues(answer, missing) };
  throw new PmMcpInputRequiredError(
    { [PM_MCP_CUSTOM_FIELDS_INPUT]: pmMcpCustomFieldsElicitation(config, missing, title) },
    { state: { [PM_MCP_CUSTOM_FIELDS_INPUT]: missing }, message: `pm_create needs the required custom fields ${missing.join(', ')}` },
  );
}
