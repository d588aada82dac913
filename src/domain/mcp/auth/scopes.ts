import type { McpToolAnnotations } from '../wire-types.js';

/**
 * Per-operation scopes of the pm MCP server (spec notes §14: "Scopes are per operation"; the
 * server MUST honour scope hierarchies when judging sufficiency). Two scopes: a read scope for
 * discovery, lists, reads, read-only tools, prompts, completion and subscriptions, and a write
 * scope for mutating tools. The write scope implies the read scope.
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
  readonly params?: unknown;
}

/** Looks up tools by name; `PmMcpToolRegistry` is one. */
export interface McpToolAnnotationLookup {
  get(name: string): { readonly annotations?: McpToolAnnotations } | undefined;
}

/** Methods that change state without being a tool call (tasks extension, SEP-2663). */
const MUTATING_METHODS: ReadonlySet<string> = new Set(['tasks/update', 'tasks/cancel']);

function toolName(params: unknown): string | undefined {
  if (!params || typeof params !== 'object' || Array.isArray(params)) return undefined;
  const name = (params as { name?: unknown }).name;
  return typeof name === 'string' ? name : undefined;
}

/**
 * The scopes one message needs (computed per request, before dispatch):
 * - `tools/call` of a tool without `readOnlyHint: true` → write (mutating; destructive tools
 *   included); of a read-only tool → read. An unknown tool needs read (it gets -32602 anyway).
 * - `tasks/update`, `tasks/cancel` → write (they steer a possibly mutating operation).
 * - everything else → read: `server/discover`, the list methods, `resources/read`,
 *   `prompts/get`, `completion/complete`, `subscriptions/listen`, `tasks/get`, legacy
 *   `initialize`/`ping`, notifications, and unknown methods (authenticated, then -32601).
 * Returns a fresh array with exactly one scope: the hierarchy makes write cover read.
 */
export function pmMcpRequiredScopes(message: McpScopedMessage, tools: McpToolAnnotationLookup | undefined, names: PmMcpScopeNames = PM_MCP_DEFAULT_SCOPES): string[] {
  if (message.method === 'tools/call') {
    const name = toolName(message.params);
    const tool = name === undefined ? undefined : tools?.get(name);
    return tool && tool.annotations?.readOnlyHint !== true ? [names.write] : [names.read];
  }
  return MUTATING_METHODS.has(message.method) ? [names.write] : [names.read];
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
