import { z } from 'zod';
import { nearestDeclaredKey } from '../util/nearest-key.js';

/**
 * Tool profiles (docs/MCP.md "Running pm-mcp"): PM_MCP_PROFILE = core (default, a
 * token-bounded everyday set) | standard | full | custom with PM_MCP_TOOLS, whose unknown or
 * empty names fail at startup with a clear message. tools/list order is deterministic, so a
 * client's cached list stays valid. Selection is a pure function of the
 * profile and the names; the advertised order is always the catalogue order below, whatever
 * order PM_MCP_TOOLS lists them in.
 */

/** Every tracker tool, in advertisement order. */
export const PM_MCP_TOOL_NAMES = [
  'pm_context', 'pm_next', 'pm_list', 'pm_get', 'pm_search',
  'pm_create', 'pm_update', 'pm_claim', 'pm_release', 'pm_close', 'pm_reopen', 'pm_comment',
  'pm_deps', 'pm_graph', 'pm_history', 'pm_delete', 'pm_validate', 'pm_export',
] as const;
export type PmMcpToolName = (typeof PM_MCP_TOOL_NAMES)[number];

export const PM_MCP_PROFILES = ['core', 'standard', 'full', 'custom'] as const;
export type PmMcpProfile = (typeof PM_MCP_PROFILES)[number];
export const PM_MCP_DEFAULT_PROFILE: PmMcpProfile = 'core';

const CORE: readonly PmMcpToolName[] = ['pm_context', 'pm_next', 'pm_list', 'pm_get', 'pm_search', 'pm_create', 'pm_update', 'pm_claim', 'pm_close', 'pm_comment'];
const STANDARD: readonly PmMcpToolName[] = [...CORE, 'pm_release', 'pm_reopen', 'pm_deps', 'pm_graph', 'pm_history'];

/** The fixed profiles' tool sets (custom is whatever PM_MCP_TOOLS names). */
export const PM_MCP_PROFILE_TOOLS: Readonly<Record<Exclude<PmMcpProfile, 'custom'>, readonly PmMcpToolName[]>> = Object.freeze({
  core: canonical(CORE),
  standard: canonical(STANDARD),
  full: [...PM_MCP_TOOL_NAMES],
});

function canonical(names: readonly PmMcpToolName[]): PmMcpToolName[] {
  return PM_MCP_TOOL_NAMES.filter((n) => names.includes(n));
}

/** A profile or tool list that cannot be served; thrown at startup, before anything is advertised. */
export class PmMcpToolSelectionError extends RangeError {
  override readonly name = 'PmMcpToolSelectionError';
}

export function isPmMcpToolName(name: string): name is PmMcpToolName {
  return (PM_MCP_TOOL_NAMES as readonly string[]).includes(name);
}

/** Splits a PM_MCP_TOOLS value ("pm_get, pm_list") into names; empty entries are kept so they can be refused. */
export function splitPmMcpToolList(value: string): string[] {
  return value.split(',').map((n) => n.trim());
}

/**
 * The tools a profile advertises, in catalogue order. `custom` takes `names` (an array or the
 * raw PM_MCP_TOOLS text); an empty list, an empty name or an unknown name is refused with a
 * message naming the valid tools (and the nearest one for a typo). Names given with a fixed
 * profile are refused too, since one of the two settings would be silently ignored.
 */
export function selectPmMcpTools(profile: string, names?: readonly string[] | string): readonly PmMcpToolName[] {
  const list = typeof names === 'string' ? splitPmMcpToolList(names) : names;
  if (profile !== 'custom') {
    if (!(PM_MCP_PROFILES as readonly string[]).includes(profile)) {
      throw new PmMcpToolSelectionError(`PM_MCP_PROFILE '${profile}' is not a profile; use one of: ${PM_MCP_PROFILES.join(', ')}`);
    }
    if (list !== undefined) throw new PmMcpToolSelectionError(`PM_MCP_TOOLS applies only with PM_MCP_PROFILE=custom (got PM_MCP_PROFILE=${profile})`);
    return PM_MCP_PROFILE_TOOLS[profile as Exclude<PmMcpProfile, 'custom'>];
  }
  const valid = `valid tools: ${PM_MCP_TOOL_NAMES.join(', ')}`;
  if (!list || list.length === 0 || (list.length === 1 && list[0] === '')) {
    throw new PmMcpToolSelectionError(`PM_MCP_PROFILE=custom needs PM_MCP_TOOLS, a comma-separated list of tool names; ${valid}`);
  }
  if (list.some((n) => n === '')) throw new PmMcpToolSelectionError(`PM_MCP_TOOLS has an empty name (check for doubled or trailing commas): '${list.join(',')}'; ${valid}`);
  const unknown = list.filter((n) => !isPmMcpToolName(n));
  if (unknown.length) {
    const described = unknown.map((n) => {
      const near = nearestDeclaredKey(n, PM_MCP_TOOL_NAMES);
      return near ? `'${n}' (did you mean '${near}'?)` : `'${n}'`;
    });
    throw new PmMcpToolSelectionError(`PM_MCP_TOOLS names unknown tools: ${described.join(', ')}; ${valid}`);
  }
  return canonical(list as PmMcpToolName[]);
}

/** The resolved tool selection the composition layer passes to the server factory. */
export interface PmMcpToolSelection {
  readonly profile: PmMcpProfile;
  readonly tools: readonly PmMcpToolName[];
}

/**
 * Parses `{PM_MCP_PROFILE, PM_MCP_TOOLS}` from the environment into a {@link PmMcpToolSelection}.
 * An unset or empty profile is `core`, or `custom` when PM_MCP_TOOLS names tools; an empty
 * PM_MCP_TOOLS counts as unset except under `custom`, where it is refused. Failures are zod
 * issues carrying the {@link selectPmMcpTools} message. Built on first use (a `z.lazy`).
 */
export const pmMcpToolEnvSchema = z.lazy(() => z
  .object({ PM_MCP_PROFILE: z.string().optional(), PM_MCP_TOOLS: z.string().optional() })
  .transform((env, ctx): PmMcpToolSelection => {
    try {
      return resolvePmMcpToolSelection(env.PM_MCP_PROFILE, env.PM_MCP_TOOLS);
    } catch (error) {
      const custom = (env.PM_MCP_PROFILE?.trim() || 'custom') === 'custom';
      ctx.addIssue({ code: 'custom', message: (error as Error).message, path: [custom ? 'PM_MCP_TOOLS' : 'PM_MCP_PROFILE'] });
      return z.NEVER;
    }
  }));

/**
 * The selection for a profile and tool list as a host received them (both possibly unset or
 * blank): no profile means `custom` when tools are named, else `core`; a blank tool list is
 * ignored by the fixed profiles and refused by `custom`. Throws PmMcpToolSelectionError.
 */
export function resolvePmMcpToolSelection(profile: string | undefined, tools: string | readonly string[] | undefined): PmMcpToolSelection {
  const blank = tools === undefined || (typeof tools === 'string' ? !tools.trim() : tools.length === 0);
  const chosen = profile?.trim() || (blank ? PM_MCP_DEFAULT_PROFILE : 'custom');
  return { profile: chosen as PmMcpProfile, tools: selectPmMcpTools(chosen, chosen === 'custom' || !blank ? tools : undefined) };
}
