import type { McpEra } from './protocol.js';
import { MCP_META, PM_MCP_LEGACY_PROTOCOL_VERSIONS } from './protocol.js';
import type { JsonObject, McpCachePolicy, McpImplementation } from './wire-types.js';

/**
 * Result envelopes. Modern (2026-07-28 `basic/index`, `server/utilities/caching`): every result
 * carries `resultType` and `_meta["io.modelcontextprotocol/serverInfo"]`; `complete` results of
 * discover/list/read also carry `ttlMs` and `cacheScope`. Legacy (initialize era): the body as
 * the old revisions define it — no `resultType`, no cache fields, no result-`_meta` serverInfo.
 */

/** Keys only the modern envelope may carry; stripped from legacy results. */
const MODERN_ONLY_RESULT_KEYS = ['resultType', 'ttlMs', 'cacheScope'] as const;

/** Options for {@link buildMcpCompleteResult}. */
export interface McpCompleteResultOptions {
  /** Server identity for `_meta["io.modelcontextprotocol/serverInfo"]` (omit to leave it out). */
  readonly serverInfo?: McpImplementation;
  /** Cache fields, for discover, list and read results (never for tools/call, prompts/get, completion). */
  readonly cache?: McpCachePolicy;
}

function checkCache(cache: McpCachePolicy): void {
  if (!Number.isSafeInteger(cache.ttlMs) || cache.ttlMs < 0) throw new RangeError(`ttlMs must be an integer >= 0 (got ${cache.ttlMs})`);
  if (cache.cacheScope !== 'public' && cache.cacheScope !== 'private') throw new RangeError(`cacheScope must be public or private (got ${String(cache.cacheScope)})`);
}

/**
 * Wraps a method body as a modern `resultType: "complete"` result (public SDK; seed 004
 * "Every modern result carries an explicit resultType … and serverInfo in result _meta").
 * Body `_meta` entries are kept; `serverInfo` is added beside them.
 */
export function buildMcpCompleteResult<T extends JsonObject>(body: T, options: McpCompleteResultOptions = {}): JsonObject {
  return buildMcpResult('complete', body, options);
}

/**
 * Wraps a body as a modern result of any `resultType` (`complete`, `input_required` from MRTR,
 * `task` from the tasks extension). Cache fields are only allowed on `complete` results:
 * interim results are never cacheable (2026-07-28 `server/utilities/caching`).
 */
export function buildMcpResult(resultType: string, body: JsonObject, options: McpCompleteResultOptions = {}): JsonObject {
  if (options.cache && resultType !== 'complete') throw new RangeError('only complete results carry ttlMs/cacheScope');
  const { _meta: bodyMeta, ...rest } = body as JsonObject & { _meta?: JsonObject };
  const meta: JsonObject = { ...(bodyMeta ?? {}) };
  if (options.serverInfo) meta[MCP_META.serverInfo] = options.serverInfo;
  const out: JsonObject = { resultType, ...rest };
  if (options.cache) {
    checkCache(options.cache);
    out.ttlMs = options.cache.ttlMs;
    out.cacheScope = options.cache.cacheScope;
  }
  if (Object.keys(meta).length) out._meta = meta;
  return out;
}

/**
 * Shapes a body for the legacy path: modern-only members are removed so 2025-11-25 and
 * 2025-06-18 clients see the shapes their revision defines.
 */
export function buildMcpLegacyResult(body: JsonObject): JsonObject {
  const out: JsonObject = { ...body };
  for (const key of MODERN_ONLY_RESULT_KEYS) delete out[key];
  if (out._meta && typeof out._meta === 'object') {
    const meta = { ...(out._meta as JsonObject) };
    delete meta[MCP_META.serverInfo];
    if (Object.keys(meta).length) out._meta = meta;
    else delete out._meta;
  }
  return out;
}

/** The era-appropriate envelope for a method outcome (the one place the dispatcher builds results). */
export function buildMcpEnvelope(
  era: McpEra,
  resultType: string,
  body: JsonObject,
  options: McpCompleteResultOptions,
): JsonObject {
  if (era === 'legacy') {
    if (resultType !== 'complete') throw new RangeError(`resultType ${resultType} has no legacy form`);
    return buildMcpLegacyResult(body);
  }
  return buildMcpResult(resultType, body, options);
}

/**
 * `Implementation` as the given revision defines it: 2025-06-18 knows only name, title and
 * version (2025-11-25 changelog); later revisions take it whole.
 */
export function implementationForRevision(info: McpImplementation, revision: string): McpImplementation {
  if (revision !== PM_MCP_LEGACY_PROTOCOL_VERSIONS[1]) return info;
  return { name: info.name, version: info.version, ...(info.title !== undefined ? { title: info.title } : {}) };
}
