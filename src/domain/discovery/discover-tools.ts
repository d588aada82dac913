import type { Hasher } from '../../ports/hasher.js';
import type { JsonObject, McpToolDescriptor } from '../mcp/wire-types.js';
import { nearestDeclaredKey } from '../util/nearest-key.js';
import { canonicalJson } from '../util/canonical-json.js';
import { PM_DISCOVER_TOOL_NAME, PM_TOOL_DISCOVERY_LIMITS } from './discovery-capability.js';
import { decodePmDiscoveryCursor, encodePmDiscoveryCursor, type PmDiscoveryCursorBinding } from './discovery-cursor.js';
import type { PmMcpToolCatalog } from './tool-catalog.js';
import type { PmToolMatchField } from './tool-ranking.js';
import { estimatePmMcpJsonTokens, PM_MCP_TOKEN_ESTIMATE_METHOD } from './token-estimate.js';

/**
 * The discovery engine behind pm_discover (seed 004 "Decision": the public SDK owns ranking,
 * cursor binding, and token and omission receipts). Given a free-text need and/or exact tool
 * names it returns the matching tools of the catalogue with their full input schemas: named
 * tools first (in the order named), then the ranked matches, within a row limit and a token
 * budget, with a cursor for the rest. Tools the entry catalogue already lists are reported by
 * name, not re-sent. Every answer carries a receipt: the catalogue and profile it comes from,
 * how many tools matched and were returned, the estimated tokens of the answer, and each
 * omission with its reason and how to get what was left out. A pure function of the catalogue
 * and the request.
 */

/** A pm_discover request (the tool's arguments). */
export interface PmDiscoverToolsRequest {
  /** What the caller wants to do, in words. */
  readonly need?: string;
  /** Exact tool names wanted. */
  readonly names?: readonly string[];
  /** Most tools per answer. */
  readonly limit?: number;
  /** Most estimated tokens per answer. */
  readonly tokenBudget?: number;
  /** Include each tool's output schema (of its canonical `structuredContent.result`). */
  readonly outputSchema?: boolean;
  /** nextCursor of the previous answer to the same query. */
  readonly cursor?: string;
}

/** One returned tool: its descriptor (input schema in full) and why it came up. */
export interface PmDiscoveredTool extends McpToolDescriptor {
  /** True when the request named it. */
  readonly named?: true;
  readonly score?: number;
  /** Per matched need term, the field it matched in. */
  readonly matched?: Readonly<Record<string, PmToolMatchField>>;
}

/** A tool that matched but is already in the entry catalogue (no schema re-sent). */
export interface PmDiscoveryListedMatch {
  readonly name: string;
  readonly score?: number;
  readonly matched?: Readonly<Record<string, PmToolMatchField>>;
}

/** Why something the request could have had is not in the answer, and how to get it. */
export type PmDiscoveryOmission =
  | { readonly reason: 'limit' | 'token_budget'; readonly count: number; readonly names: readonly string[]; readonly recovery: string }
  | { readonly reason: 'too_large'; readonly name: string; readonly tokensNeeded: number; readonly recovery: string }
  | { readonly reason: 'not_matched' | 'weak_match'; readonly count: number; readonly names: readonly string[]; readonly recovery: string }
  | { readonly reason: 'unknown_name'; readonly names: readonly string[]; readonly suggestions?: Readonly<Record<string, string>>; readonly recovery: string }
  | { readonly reason: 'output_schema'; readonly count: number; readonly recovery: string };

/** The token and omission receipt of one answer. */
export interface PmDiscoveryReceipt {
  readonly profile: string;
  /** The catalogue id (a digest prefix): it changes when the profile or a tool contract changes. */
  readonly catalog: string;
  /** Tools the profile offers (pm_discover not counted). */
  readonly tools: number;
  readonly matched: number;
  readonly returned: number;
  /** Estimated tokens of this whole answer (the value of structuredContent.result). */
  readonly estimatedTokens: number;
  readonly tokenBudget: number;
  readonly estimate: typeof PM_MCP_TOKEN_ESTIMATE_METHOD;
  readonly omitted: readonly PmDiscoveryOmission[];
}

/** pm_discover's canonical result. */
export interface PmDiscoverToolsResult {
  readonly tools: readonly PmDiscoveredTool[];
  readonly listed: readonly PmDiscoveryListedMatch[];
  readonly receipt: PmDiscoveryReceipt;
  readonly nextCursor?: string;
}

/** What answering needs besides the catalogue. */
export interface PmDiscoverToolsOptions {
  readonly hasher: Hasher;
  /**
   * The descriptor a caller should see for a tool (e.g. with another extension's `_meta`
   * decoration for this request); default the catalogue's.
   */
  readonly view?: (name: string) => McpToolDescriptor | undefined;
}

/**
 * A ranked match scoring below this share of the best match is reported by name only
 * (`weak_match`): a need usually means one or two tools, and every schema sent costs tokens.
 */
export const PM_TOOL_DISCOVERY_WEAK_MATCH = 1 / 3;

interface Candidate {
  readonly name: string;
  readonly named?: true;
  readonly score?: number;
  readonly matched?: Readonly<Record<string, PmToolMatchField>>;
}

function normalizedNeed(need: string | undefined): string {
  return (need ?? '').trim().replace(/\s+/g, ' ').toLowerCase();
}

function uniqueNames(names: readonly string[] | undefined): string[] {
  return [...new Set((names ?? []).map((n) => n.trim()).filter(Boolean))];
}

/** The hash binding a cursor to one query (need, names, output-schema choice). */
export function pmDiscoveryQueryKey(hasher: Hasher, request: PmDiscoverToolsRequest): string {
  return hasher.sha256Hex(canonicalJson({ need: normalizedNeed(request.need), names: uniqueNames(request.names), outputSchema: request.outputSchema === true })).slice(0, 16);
}

function clamp(value: number | undefined, fallback: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value ?? fallback));
}

/** The wrapped output schema: it describes `structuredContent` of a negotiated result, `{result: <the tool's value>}`. */
export function pmCanonicalOutputSchema(outputSchema: JsonObject): JsonObject {
  return { type: 'object', properties: { result: outputSchema }, required: ['result'] };
}

function describe(candidate: Candidate, descriptor: McpToolDescriptor, withOutput: boolean): PmDiscoveredTool {
  const { outputSchema, ...rest } = descriptor;
  return {
    ...rest,
    ...(withOutput && outputSchema ? { outputSchema: pmCanonicalOutputSchema(outputSchema) } : {}),
    ...(candidate.named ? { named: true as const } : {}),
    ...(candidate.score !== undefined ? { score: candidate.score, matched: candidate.matched ?? {} } : {}),
  };
}

/** The candidates of a request, in answer order, and what is reported instead of sent. */
function plan(catalog: PmMcpToolCatalog, request: PmDiscoverToolsRequest) {
  const names = uniqueNames(request.names);
  const need = normalizedNeed(request.need);
  const candidates: Candidate[] = [];
  const listed: PmDiscoveryListedMatch[] = [];
  const unknown: string[] = [];
  for (const name of names) {
    if (name === PM_DISCOVER_TOOL_NAME) listed.push({ name });
    else if (!catalog.get(name)) unknown.push(name);
    else candidates.push({ name, named: true });
  }
  const taken = new Set([...names]);
  let matched = candidates.length;
  const weak: string[] = [];
  if (need) {
    const ranks = catalog.index.rank(need);
    const cutoff = (ranks[0]?.score ?? 0) * PM_TOOL_DISCOVERY_WEAK_MATCH;
    for (const rank of ranks) {
      if (taken.has(rank.name)) continue;
      taken.add(rank.name);
      if (rank.score < cutoff) {
        if (!catalog.isEntry(rank.name)) weak.push(rank.name);
        continue;
      }
      matched++;
      if (catalog.isEntry(rank.name)) listed.push(rank);
      else candidates.push(rank);
    }
  } else if (!names.length) {
    for (const tool of catalog.tools) if (!catalog.isEntry(tool.name)) candidates.push({ name: tool.name });
    matched = candidates.length;
  }
  const notMatched = need ? catalog.tools.map((t) => t.name).filter((n) => !taken.has(n) && !catalog.isEntry(n)) : [];
  return { candidates, listed, unknown, matched, notMatched, weak };
}

/** Answers one pm_discover request over `catalog` (-32602 for a cursor that is not a live cursor of this query). */
export function discoverPmTools(catalog: PmMcpToolCatalog, request: PmDiscoverToolsRequest, options: PmDiscoverToolsOptions): PmDiscoverToolsResult {
  const L = PM_TOOL_DISCOVERY_LIMITS;
  const limit = clamp(request.limit, L.limitDefault, 1, L.limitMax);
  const tokenBudget = clamp(request.tokenBudget, L.tokenBudgetDefault, L.tokenBudgetMin, L.tokenBudgetMax);
  const withOutput = request.outputSchema === true;
  const binding: PmDiscoveryCursorBinding = { query: pmDiscoveryQueryKey(options.hasher, request), profile: catalog.profile, catalog: catalog.id };
  const { candidates, listed, unknown, matched, notMatched, weak } = plan(catalog, request);
  const offset = request.cursor === undefined ? 0 : decodePmDiscoveryCursor(request.cursor, binding, candidates.length);
  const view = options.view ?? ((name: string) => catalog.get(name));
  const described = (c: Candidate) => describe(c, view(c.name) ?? catalog.get(c.name)!, withOutput);

  const fixed: PmDiscoveryOmission[] = [];
  if (unknown.length) {
    const suggestions = Object.fromEntries(unknown.flatMap((n) => {
      const near = nearestDeclaredKey(n, catalog.tools.map((t) => t.name));
      return near ? [[n, near]] : [];
    }));
    fixed.push({ reason: 'unknown_name', names: unknown, ...(Object.keys(suggestions).length ? { suggestions } : {}), recovery: `not offered under profile ${catalog.profile}: the profile bounds which tools exist` });
  }
  if (weak.length) fixed.push({ reason: 'weak_match', count: weak.length, names: weak, recovery: 'they matched far less than the best; name one in names to get its schema' });
  if (notMatched.length) fixed.push({ reason: 'not_matched', count: notMatched.length, names: notMatched, recovery: 'name a tool in names, or describe the need in other words' });

  const build = (count: number, tokensNeeded = 0): { result: PmDiscoverToolsResult; tokens: number } => {
    const tools = candidates.slice(offset, offset + count).map(described);
    const rest = candidates.slice(offset + count);
    const omitted: PmDiscoveryOmission[] = [...fixed];
    const next = offset + count;
    const nextCursor = rest.length && next >= 1 ? encodePmDiscoveryCursor(binding, next) : undefined;
    if (rest.length) {
      const reason = count >= limit ? 'limit' : 'token_budget';
      if (count === 0) {
        omitted.unshift({ reason: 'too_large', name: rest[0]!.name, tokensNeeded, recovery: `call again with tokenBudget of at least ${tokensNeeded}${nextCursor ? ' and this cursor' : ''}` });
      } else {
        omitted.unshift({ reason, count: rest.length, names: rest.map((c) => c.name), recovery: 'pass nextCursor as cursor with the same need, names and outputSchema' });
      }
    }
    const withSchemas = tools.filter((t) => catalog.get(t.name)?.outputSchema !== undefined).length;
    if (!withOutput && withSchemas) omitted.push({ reason: 'output_schema', count: withSchemas, recovery: 'outputSchema: true adds each output schema (it describes structuredContent)' });
    const receipt = { profile: catalog.profile, catalog: catalog.id, tools: catalog.tools.length, matched, returned: tools.length, estimatedTokens: 0, tokenBudget, estimate: PM_MCP_TOKEN_ESTIMATE_METHOD as typeof PM_MCP_TOKEN_ESTIMATE_METHOD, omitted };
    const result = { tools, listed, receipt, ...(nextCursor !== undefined ? { nextCursor } : {}) };
    // The receipt counts itself: settle the number (its digits are part of the size).
    for (let i = 0; i < 3; i++) {
      const tokens = estimatePmMcpJsonTokens(result);
      if (tokens === receipt.estimatedTokens) break;
      receipt.estimatedTokens = tokens;
    }
    return { result, tokens: receipt.estimatedTokens };
  };

  const available = Math.min(limit, candidates.length - offset);
  let best: ReturnType<typeof build> | undefined;
  for (let count = 1; count <= available; count++) {
    const next = build(count);
    if (next.tokens > tokenBudget) {
      // Not even the first tool fits: say what budget would take it. The retry's receipt echoes
      // that budget, so its extra digits (a byte each, at most a token each) are counted in.
      const extraDigits = Math.max(0, String(next.tokens).length - String(tokenBudget).length);
      best ??= build(0, next.tokens + extraDigits);
      break;
    }
    best = next;
  }
  return (best ?? build(0)).result;
}
