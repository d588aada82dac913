import type { OperationScope } from '../../ports/transport.js';
import type { McpEra } from './protocol.js';

/**
 * What one JSON-RPC method declares about itself. Every rule that depends on the method reads
 * its declaration instead of a table kept elsewhere: the era decision (a modern-only method
 * sent without `_meta` is a malformed modern request), the Streamable HTTP `Mcp-Name` header
 * (seed 004 "Transport behavior": required for the methods that name their target), the
 * authorization scope (2026-07-28 `basic/authorization`: scopes are per operation), the SSE
 * requirement of streaming answers, whether it may run before the server is prepared, and
 * which interim results it may produce (seed 004 "MRTR, tasks, and cache behavior").
 */

/** The interim (non-`complete`) result types: MRTR's `input_required`, the tasks extension's `task`. */
export type McpInterimResultType = 'input_required' | 'task';

/** The params field `Mcp-Name` mirrors. */
export type McpNameSource = 'name' | 'uri' | 'taskId';

/** A method's declaration (see the module comment). */
export interface McpMethodSpec {
  readonly method: string;
  /** The eras that serve it; elsewhere it is -32601. */
  readonly eras: readonly McpEra[];
  /** The params field mirrored by the `Mcp-Name` header over Streamable HTTP; absent: no `Mcp-Name`. */
  readonly nameSource?: McpNameSource;
  /** The scope it needs when it does not depend on the params (default `read`). */
  readonly scope?: OperationScope;
  /** True when it answers with a stream of messages (over HTTP the client must accept SSE). */
  readonly streams?: boolean;
  /** True when it may run before the server's `prepare` hook has finished. */
  readonly beforeReady?: boolean;
  /** The interim result types it may produce (none: only `complete`). */
  readonly interim?: readonly McpInterimResultType[];
  /**
   * True when an initialize-era revision defines a method of the same name (2025-11-25's
   * experimental `tasks/get` and `tasks/cancel`): sent without modern `_meta`, such a request is
   * a legacy request (-32601 there), not a malformed modern one.
   */
  readonly legacyName?: boolean;
}

/** Freezes a declaration (and its lists) so no registry can change it later. */
export function defineMcpMethodSpec<const S extends McpMethodSpec>(spec: S): S {
  return Object.freeze({
    ...spec,
    eras: Object.freeze([...spec.eras]),
    ...(spec.interim ? { interim: Object.freeze([...spec.interim]) } : {}),
  });
}

/** True when the declaration serves only the modern era. */
export function isMcpModernOnlySpec(spec: Pick<McpMethodSpec, 'eras'>): boolean {
  return !spec.eras.includes('legacy');
}

/**
 * True when a request for this method is modern even without modern `_meta` (so a bare probe
 * is told which `_meta` is missing): modern-only methods whose name no legacy revision uses.
 */
export function claimsBareMcpRequests(spec: Pick<McpMethodSpec, 'eras' | 'legacyName'>): boolean {
  return isMcpModernOnlySpec(spec) && spec.legacyName !== true;
}
