import { z } from 'zod';
import { macKeysSchema } from './mac-key-settings.js';
import { OTEL_ENV_NAMES, otelSettingsInput, otelSettingsSchema } from './otel-settings.js';

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
  /** PM_LOCK_TIMEOUT_MS: the longest wait for another pm process (the write lock, the index's writer or build, the index watcher: docs/TRACKER.md "Waits"). */
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
  /**
   * PM_MCP_TASK_TTL_MS: how long a durable task lives from creation before it expires and is
   * purged (default one hour; 1 s to 7 days); docs/INTERACTION.md "Durable tasks".
   */
  taskTtlMs: z.number().int().min(1_000).max(7 * 24 * 3_600_000).default(3_600_000),
  /**
   * PM_MCP_TASK_STORE: where durable tasks, used MRTR states and the requestState keys live —
   * `file` (the tracker's runtime area; the default) or a `postgres://` / `postgresql://` URL
   * shared by several pm-mcp-http instances (docs/DEPLOY.md).
   */
  taskStore: z
    .string()
    .refine((v) => v === 'file' || /^postgres(ql)?:\/\/[^\s]+$/.test(v), 'must be "file" or a postgres:// URL')
    .default('file'),
  /** PM_MCP_PG_SCHEMA: the PostgreSQL schema holding pm's tables (one per tracker sharing a database; default `pm`). */
  pgSchema: z.string().regex(/^[a-z_][a-z0-9_]{0,62}$/, 'must be a lower-case SQL identifier (letters, digits, _)').default('pm'),
  /**
   * PM_MCP_TASK_HEARTBEAT_MS: how often a running task's worker renews its lease (default 10 s);
   * a worker silent for three of them counts as vanished.
   */
  taskHeartbeatMs: z.number().int().min(50).max(600_000).default(10_000),
  /**
   * PM_MCP_LEGACY: whether the MCP servers serve initialize-era (2025-11-25, 2025-06-18)
   * clients (`on`, the default) or refuse them with -32022 (`off`: the ratchet's last step;
   * `on` again is the rollback). docs/MCP.md "Deprecation ratchet".
   */
  legacyAdapter: z.enum(['on', 'off']).default('on'),
  /**
   * PM_INDEX_WATCHER: whether one-shot `pm` queries ask the tracker's index watcher to bring the
   * index up to date instead of checking every item file (`auto`: and start one once a check
   * lists 5,000 item files; `on`: start one after any check; `off`: neither). Unset: config.yaml's
   * `index.watcher`, else `auto`. docs/TRACKER.md "The derived index".
   */
  indexWatcher: z.enum(['auto', 'on', 'off']).optional(),
  /**
   * PM_INDEX_DRIVER: how the derived index is kept — `auto` (the default: node:sqlite on Node
   * 22.16+ and 24, better-sqlite3 on older Node, bun:sqlite under Bun), one of those drivers by
   * name, or `memory` (no index file: every process reads the item files). A driver that cannot
   * load leaves the index in memory after a warning. docs/TRACKER.md "SQLite drivers".
   */
  indexDriver: z.enum(['auto', 'node:sqlite', 'better-sqlite3', 'bun:sqlite', 'memory']).default('auto'),
  /**
   * PM_CACHES: `off` bypasses every bounded cache of the process (BoundedCache.bypass, applied by
   * buildContainer), so what the caches buy can be measured from outside and a suspected cache
   * fault ruled out; `on` (the default) keeps them. docs/ARCHITECTURE.md "Speed-ups and what they buy".
   */
  caches: z.enum(['on', 'off']).default('on'),
  /** PM_INDEX_WATCHER_IDLE_MS: how long a watcher without requests lives (default 15 min). */
  indexWatcherIdleMs: z.number().int().min(1_000).max(7 * 24 * 3_600_000).default(900_000),
  /**
   * PM_MCP_MAC_KEYS: the requestState keys shared by configuration, first seals, all verify
   * (mac-key-settings.ts); unset, the task store keeps them. docs/DEPLOY.md.
   */
  macKeys: macKeysSchema,
  /** OpenTelemetry, from the standard OTEL_* variables only (otel-settings.ts); off by default. */
  otel: otelSettingsSchema,
});

/** The environment variable behind each setting, for error messages. */
const ENV_NAMES: Readonly<Record<string, string>> = {
  root: 'PM_ROOT',
  actor: 'PM_ACTOR',
  lockTimeoutMs: 'PM_LOCK_TIMEOUT_MS',
  mcpProfile: 'PM_MCP_PROFILE',
  mcpTools: 'PM_MCP_TOOLS',
  skillsDeclaration: 'PM_MCP_SKILLS_DECLARATION',
  taskTtlMs: 'PM_MCP_TASK_TTL_MS',
  taskStore: 'PM_MCP_TASK_STORE',
  pgSchema: 'PM_MCP_PG_SCHEMA',
  taskHeartbeatMs: 'PM_MCP_TASK_HEARTBEAT_MS',
  legacyAdapter: 'PM_MCP_LEGACY',
  indexWatcher: 'PM_INDEX_WATCHER',
  indexWatcherIdleMs: 'PM_INDEX_WATCHER_IDLE_MS',
  indexDriver: 'PM_INDEX_DRIVER',
  caches: 'PM_CACHES',
  macKeys: 'PM_MCP_MAC_KEYS',
  ...OTEL_ENV_NAMES,
};

export type Settings = z.infer<typeof settingsSchema>;

/**
 * Parses the settings of this process. `fallbackUser` (the OS user, or a function asked only
 * when PM_ACTOR is unset) names the actor otherwise. The parse runs once, so it skips zod's
 * compiled fast path (compiling it would cost more than this one parse).
 */
export function settingsFromEnv(env: NodeJS.ProcessEnv, cwd: string, fallbackUser: string | (() => string), overrides: Partial<Settings> = {}): Settings {
  const lock = env.PM_LOCK_TIMEOUT_MS;
  const taskTtl = env.PM_MCP_TASK_TTL_MS;
  const heartbeat = env.PM_MCP_TASK_HEARTBEAT_MS;
  const watcherIdle = env.PM_INDEX_WATCHER_IDLE_MS;
  const parsed = settingsSchema.safeParse({
    cwd,
    ...(env.PM_ROOT ? { root: env.PM_ROOT } : {}),
    actor: env.PM_ACTOR || (typeof fallbackUser === 'function' ? fallbackUser() : fallbackUser) || 'unknown',
    durable: env.PM_DURABLE === '1' || env.PM_DURABLE === 'true',
    ...(lock !== undefined ? { lockTimeoutMs: Number(lock) } : {}),
    ...(env.PM_MCP_PROFILE ? { mcpProfile: env.PM_MCP_PROFILE } : {}),
    ...(env.PM_MCP_TOOLS !== undefined ? { mcpTools: env.PM_MCP_TOOLS } : {}),
    ...(env.PM_MCP_SKILLS_DECLARATION ? { skillsDeclaration: env.PM_MCP_SKILLS_DECLARATION } : {}),
    ...(taskTtl !== undefined ? { taskTtlMs: Number(taskTtl) } : {}),
    ...(env.PM_MCP_TASK_STORE ? { taskStore: env.PM_MCP_TASK_STORE } : {}),
    ...(env.PM_MCP_PG_SCHEMA ? { pgSchema: env.PM_MCP_PG_SCHEMA } : {}),
    ...(heartbeat !== undefined ? { taskHeartbeatMs: Number(heartbeat) } : {}),
    ...(env.PM_MCP_LEGACY !== undefined ? { legacyAdapter: env.PM_MCP_LEGACY } : {}),
    ...(env.PM_INDEX_WATCHER ? { indexWatcher: env.PM_INDEX_WATCHER } : {}),
    ...(watcherIdle !== undefined ? { indexWatcherIdleMs: Number(watcherIdle) } : {}),
    ...(env.PM_INDEX_DRIVER ? { indexDriver: env.PM_INDEX_DRIVER } : {}),
    ...(env.PM_CACHES ? { caches: env.PM_CACHES } : {}),
    ...(env.PM_MCP_MAC_KEYS !== undefined ? { macKeys: env.PM_MCP_MAC_KEYS } : {}),
    otel: otelSettingsInput(env),
    ...overrides,
  }, { jitless: true });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.join('.');
    const name = ENV_NAMES[field];
    throw new SettingsError(`invalid configuration: ${name ? `${name} (${field})` : field}: ${issue.message}`);
  }
  return parsed.data;
}

/** A configuration error found at startup (reported before anything runs). */
export class SettingsError extends Error {}
