import { z } from 'zod';

/** The statuses every tracker has; config may add more but never drop these. */
export const CORE_STATUSES = ['draft', 'open', 'in_progress', 'blocked', 'closed', 'canceled'] as const;
/** Statuses after which an item no longer blocks anything and is not "ready". */
export const TERMINAL_STATUSES: ReadonlySet<string> = new Set(['closed', 'canceled']);
export const DEFAULT_TYPES = ['Epic', 'Feature', 'Task', 'Chore', 'Issue', 'Decision'] as const;

/** `required: true`: a new item must set the field (docs/TRACKER.md "Custom fields"). */
const fieldBase = () => ({ description: z.string().optional(), required: z.boolean().optional() });
const customField = () =>
  z.discriminatedUnion('type', [
    z.object({ type: z.literal('string'), ...fieldBase(), maxLength: z.number().int().positive().optional() }).strict(),
    z.object({ type: z.literal('number'), ...fieldBase(), min: z.number().optional(), max: z.number().optional() }).strict(),
    z.object({ type: z.literal('boolean'), ...fieldBase() }).strict(),
    z.object({ type: z.literal('enum'), ...fieldBase(), values: z.array(z.string().min(1)).min(1) }).strict(),
  ]);
export type CustomFieldDefinition = z.infer<ReturnType<typeof customField>>;

/**
 * Schema of `.agents/pm/config.yaml` (docs/TRACKER.md "config.yaml"). Built on first use (a
 * `z.lazy`): processes that never read the configuration, and pm-mcp until its first turn is
 * answered, do not pay for its constructors, which keeps them off the start-up path.
 */
export const trackerConfigSchema = z.lazy(() => z.object({
  version: z.literal(1).default(1),
  idPrefix: z.string().regex(/^[a-z][a-z0-9]{0,11}$/, 'idPrefix must be 1-12 lowercase letters or digits, starting with a letter').default('pm'),
  types: z.array(z.string().regex(/^[A-Za-z][A-Za-z0-9_-]*$/)).min(1).default([...DEFAULT_TYPES]),
  statuses: z.array(z.string().regex(/^[a-z][a-z0-9_]*$/)).default([...CORE_STATUSES]),
  defaults: z.object({
    type: z.string().default('Task'),
    status: z.string().default('open'),
    priority: z.number().int().min(0).max(4).default(2),
  }).strict().default({ type: 'Task', status: 'open', priority: 2 }),
  claimLeaseMinutes: z.number().int().min(1).max(10080).default(120),
  /** Refuse what is otherwise a warning: claiming blocked work, changing somebody else's claimed item. */
  strict: z.boolean().default(false),
  customFields: z.record(z.string().regex(/^[a-zA-Z][a-zA-Z0-9_]*$/), customField()).default({}),
  /**
   * The derived index: `watcher` says whether one-shot queries use the tracker's index watcher
   * (`auto`, the default when absent: and start one on a large tracker; `on`: at any size;
   * `off`: never). $PM_INDEX_WATCHER, when set, wins. docs/TRACKER.md "The derived index".
   */
  index: z.object({ watcher: z.enum(['auto', 'on', 'off']).optional() }).strict().optional(),
}).strict().superRefine((config, ctx) => {
  for (const status of CORE_STATUSES) {
    if (!config.statuses.includes(status)) ctx.addIssue({ code: 'custom', path: ['statuses'], message: `statuses must include the core status '${status}'` });
  }
  if (!config.types.includes(config.defaults.type)) ctx.addIssue({ code: 'custom', path: ['defaults', 'type'], message: `default type '${config.defaults.type}' is not in types` });
  if (!config.statuses.includes(config.defaults.status)) ctx.addIssue({ code: 'custom', path: ['defaults', 'status'], message: `default status '${config.defaults.status}' is not in statuses` });
  if (new Set(config.types).size !== config.types.length) ctx.addIssue({ code: 'custom', path: ['types'], message: 'types must be unique' });
}));

export type TrackerConfig = z.infer<typeof trackerConfigSchema>;

/** The configuration `pm init` writes when given no options. */
export function defaultTrackerConfig(overrides: Partial<Pick<TrackerConfig, 'idPrefix'>> = {}): TrackerConfig {
  return trackerConfigSchema.parse({ ...overrides });
}
