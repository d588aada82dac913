import type { OperationScope } from '../../../ports/transport.js';
import type { McpMethodTraits } from '../method-registry.js';

/**
 * Per-operation scopes of the pm MCP server (2026-07-28 `basic/authorization`: scopes are per
 * operation, and the server MUST honour scope hierarchies when judging sufficiency). Two
 * scopes: a read scope for discovery, lists, reads, read-only tools, prompts, completion and
 * subscriptions, and a write scope for mutating tools and the methods declared `write`. The
 * write scope implies the read scope. Which scope an operation needs is its method's own
 * declaration (method-spec.ts; tools/call decides per tool).
 */

/** The names of pm's two scopes (configurable: PM_MCP_AUTH_READ_SCOPE / PM_MCP_AUTH_WRITE_SCOPE). */
export interface PmMcpScopeNames {
  readonly read: string;
  readonly write: string;
}

/** The default scope names. */
export const PM_MCP_DEFAULT_SCOPES: PmMcpScopeNames = Object.freeze({ read: 'pm:read', write: 'pm:write' });

/** A scope hierarchy: each scope maps to the scopes it implies (transitively). */
export type McpScopeHierarchy = Readonly<Record<string, readonly string[]>>;

/** pm's hierarchy: the write scope implies the read scope. */
export function pmMcpScopeHierarchy(names: PmMcpScopeNames = PM_MCP_DEFAULT_SCOPES): McpScopeHierarchy {
  return Object.freeze({ [names.write]: Object.freeze([names.read]) });
}

/** The granted scopes plus every scope they imply under `hierarchy` (transitive closure). */
export function expandMcpScopes(granted: readonly string[], hierarchy: McpScopeHierarchy = {}): ReadonlySet<string> {
  const out = new Set<string>();
  const stack = [...granted];
  while (stack.length) {
    const scope = stack.pop()!;
    if (out.has(scope)) continue;
    out.add(scope);
    if (Object.prototype.hasOwnProperty.call(hierarchy, scope)) stack.push(...hierarchy[scope]!);
  }
  return out;
}

/** The required scopes the granted ones do not cover, honouring `hierarchy`. Empty: sufficient. */
export function missingMcpScopes(granted: readonly string[], required: readonly string[], hierarchy: McpScopeHierarchy = {}): readonly string[] {
  if (!required.length) return [];
  const have = expandMcpScopes(granted, hierarchy);
  return required.filter((scope) => !have.has(scope));
}

/** The part of a JSON-RPC message the scope decision reads. */
export interface McpScopedMessage {
  readonly method: string;
  readonly params?: Readonly<Record<string, unknown>>;
}

/** The configured name of an operation scope. */
export function pmMcpScopeName(scope: OperationScope, names: PmMcpScopeNames = PM_MCP_DEFAULT_SCOPES): string {
  return scope === 'write' ? names.write : names.read;
}

/**
 * The scopes one message needs, read from its method's declaration in `methods` (the server's
 * method registry): `tools/call` of a tool without `readOnlyHint: true` → write, of a read-only
 * or unknown tool → read; `tasks/update`, `tasks/cancel` and any method declared `write` →
 * write; everything else (discovery, lists, reads, prompts, completion, listen, notifications,
 * unknown methods) → read. Returns a fresh array with exactly one scope: the hierarchy makes
 * write cover read.
 */
export function pmMcpRequiredScopes(message: McpScopedMessage, methods: McpMethodTraits, names: PmMcpScopeNames = PM_MCP_DEFAULT_SCOPES): string[] {
  return [pmMcpScopeName(methods.scopeOf(message.method, message.params), names)];
}

/**
 * Reads the granted scopes of a token: `scope` as a space-separated string (RFC 8693 §4.2,
 * RFC 9068 §2.2.3), else `scp` as an array of strings or a space-separated string (a common
 * vendor form). Returns undefined when neither is present and null when a claim is malformed.
 */
export function readMcpScopeClaim(claims: Readonly<Record<string, unknown>>): readonly string[] | undefined | null {
  const split = (text: string) => text.split(' ').filter(Boolean);
  if (claims.scope !== undefined) return typeof claims.scope === 'string' ? split(claims.scope) : null;
  const scp = claims.scp;
  if (scp === undefined) return undefined;
  if (typeof scp === 'string') return split(scp);
  if (Array.isArray(scp) && scp.every((s) => typeof s === 'string')) return scp.filter(Boolean);
  return null;
}
