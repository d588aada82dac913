import { z } from 'zod';

/**
 * Process configuration, parsed once by zod at startup from the environment (and CLI
 * globals). Nothing else in pm reads process.env.
 */
export const settingsSchema = z.object({
  cwd: z.string().min(1),
  /** PM_ROOT: a project directory holding .agents/pm, or the .agents/pm directory itself. */
  root: z.string().min(1).optional(),
  /** PM_ACTOR: who mutations are recorded as (default: the OS user). */
  actor: z.string().min(1).max(200),
  /** PM_DURABLE=1: fsync item files before the atomic rename. */
  durable: z.boolean().default(false),
  /** PM_LOCK_TIMEOUT_MS: how long a write waits for the tracker lock. */
  lockTimeoutMs: z.number().int().min(1).max(600_000).default(10_000),
  /** PM_MCP_PROFILE: which tools the MCP servers advertise (core | standard | full | custom). */
  mcpProfile: z.string().min(1).optional(),
  /** PM_MCP_TOOLS: the tool names of the custom profile, comma-separated. */
  mcpTools: z.string().optional(),
  /**
   * PM_MCP_SKILLS_DECLARATION: whether skills requests must declare the Skills extension with
   * its exact revision (`required`, seed 000) or may omit it (`optional`, what standard
   * SEP-2640 clients send); docs/SKILLS.md.
   */
  skillsDeclaration: z.enum(['required', 'optional']).default('required'),
});

export type Settings = z.infer<typeof settingsSchema>;

/**
 * Parses the settings of this process. `fallbackUser` (the OS user, or a function asked only
 * when PM_ACTOR is unset) names the actor otherwise. The parse runs once, so it skips zod's
 * compiled fast path (compiling it would cost more than this one parse).
 */
export function settingsFromEnv(env: NodeJS.ProcessEnv, cwd: string, fallbackUser: string | (() => string), overrides: Partial<Settings> = {}): Settings {
  const lock = env.PM_LOCK_TIMEOUT_MS;
  const parsed = settingsSchema.safeParse({
    cwd,
    ...(env.PM_ROOT ? { root: env.PM_ROOT } : {}),
    actor: env.PM_ACTOR || (typeof fallbackUser === 'function' ? fallbackUser() : fallbackUser) || 'unknown',
    durable: env.PM_DURABLE === '1' || env.PM_DURABLE === 'true',
    ...(lock !== undefined ? { lockTimeoutMs: Number(lock) } : {}),
    ...(env.PM_MCP_PROFILE ? { mcpProfile: env.PM_MCP_PROFILE } : {}),
    ...(env.PM_MCP_TOOLS !== undefined ? { mcpTools: env.PM_MCP_TOOLS } : {}),
    ...(env.PM_MCP_SKILLS_DECLARATION ? { skillsDeclaration: env.PM_MCP_SKILLS_DECLARATION } : {}),
    ...overrides,
  }, { jitless: true });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new SettingsError(`invalid configuration: ${issue.path.join('.')}: ${issue.message}`);
  }
  return parsed.data;
}

/** A configuration error found at startup (reported before anything runs). */
export class SettingsError extends Error {}
