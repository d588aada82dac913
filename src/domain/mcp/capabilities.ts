import { PmMcpMissingClientCapabilityError } from '../errors/mcp-errors.js';
import type { McpRequestContext } from './request-context.js';
import type { JsonObject, McpClientCapabilities } from './wire-types.js';

/**
 * Client capability checks. A modern server MUST NOT rely on a capability the request did not
 * declare; if the work needs one it answers -32021 with `data.requiredCapabilities` naming
 * exactly what is missing (2026-07-28 `basic/index`; seed 004 "Transport behavior").
 */

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function missingIn(declared: unknown, required: unknown, path: readonly string[]): unknown {
  if (Array.isArray(required)) {
    const have = Array.isArray(declared) ? declared.map((v) => JSON.stringify(v)) : [];
    const absent = required.filter((v) => !have.includes(JSON.stringify(v)));
    return absent.length ? absent : undefined;
  }
  if (!isObject(required)) return JSON.stringify(declared) === JSON.stringify(required) ? undefined : required;
  if (!isObject(declared)) return required;
  const out: JsonObject = {};
  for (const [key, need] of Object.entries(required)) {
    // `elicitation: {}` declares form mode (2026-07-28 `client/elicitation`: an empty object means form only).
    if (path.length === 1 && path[0] === 'elicitation' && key === 'form' && Object.keys(declared).length === 0) continue;
    if (!(key in declared)) {
      out[key] = need;
      continue;
    }
    const sub = missingIn(declared[key], need, [...path, key]);
    if (sub !== undefined) out[key] = sub;
  }
  return Object.keys(out).length ? out : undefined;
}

/**
 * The part of `required` that `declared` lacks, shaped as `ClientCapabilities`
 * (e.g. `{elicitation: {form: {}}}` or `{extensions: {"io.modelcontextprotocol/tasks": {}}}`),
 * or undefined when everything is declared.
 */
export function findMissingMcpClientCapabilities(declared: McpClientCapabilities, required: McpClientCapabilities): McpClientCapabilities | undefined {
  const out: JsonObject = {};
  for (const [key, need] of Object.entries(required)) {
    const sub = key in declared ? missingIn(declared[key], need, [key]) : need;
    if (sub !== undefined) out[key] = sub;
  }
  return Object.keys(out).length ? (out as McpClientCapabilities) : undefined;
}

/** True when the request declared every capability in `required`. */
export function hasMcpClientCapabilities(ctx: Pick<McpRequestContext, 'clientCapabilities'>, required: McpClientCapabilities): boolean {
  return findMissingMcpClientCapabilities(ctx.clientCapabilities, required) === undefined;
}

/**
 * Throws -32021 (`PmMcpMissingClientCapabilityError`) with the structured map of what this
 * request failed to declare.
 */
export function assertMcpClientCapabilities(ctx: Pick<McpRequestContext, 'clientCapabilities'>, required: McpClientCapabilities, message?: string): void {
  const missing = findMissingMcpClientCapabilities(ctx.clientCapabilities, required);
  if (missing) throw new PmMcpMissingClientCapabilityError(missing as JsonObject, message);
}
