import { PmMcpInterimResultUnsupportedError } from '../errors/mcp-errors.js';
import { findMissingMcpClientCapabilities } from './capabilities.js';
import type { McpMethodOutcome } from './method-outcome.js';
import type { McpMethodSpec } from './method-spec.js';
import { MCP_TASKS_EXTENSION_ID } from './methods/task-method-specs.js';
import { PM_MCP_PROTOCOL_VERSION } from './protocol.js';
import { hasMcpExtension, type McpRequestContext } from './request-context.js';
import type { JsonObject, McpClientCapabilities } from './wire-types.js';

/**
 * The one place interim results are admitted (seed 004 "MRTR, tasks, and cache behavior";
 * 2026-07-28 `basic/patterns/mrtr`): a method produces only the interim types it declares
 * (`input_required` from tools/call, resources/read and prompts/get; `task` from tools/call),
 * only for a modern request, and only when the request declared what the interim result needs
 * (the client capability an input request uses; the tasks extension for a task handle).
 */

/** A server fault: a handler produced an interim result its method does not declare. */
export class McpUndeclaredInterimResultError extends Error {
  constructor(method: string, resultType: string) {
    super(`${method} produced a ${resultType} result, which its declaration does not allow`);
    this.name = 'McpUndeclaredInterimResultError';
  }
}

/**
 * The client capability an MRTR input request needs (2026-07-28 `InputRequest`): elicitation by
 * its mode (form when absent; `elicitation: {}` declares form mode only), roots, sampling.
 */
function inputRequestCapabilities(request: { readonly method: string; readonly params?: Readonly<Record<string, unknown>> }): McpClientCapabilities | undefined {
  switch (request.method) {
    case 'elicitation/create':
      return { elicitation: { [request.params?.mode === 'url' ? 'url' : 'form']: {} } };
    case 'roots/list':
      return { roots: {} };
    case 'sampling/createMessage':
      return { sampling: {} };
    default:
      return undefined;
  }
}

function mergeCapabilities(into: JsonObject, more: JsonObject): void {
  for (const [key, value] of Object.entries(more)) {
    const have = into[key];
    if (have && typeof have === 'object' && value && typeof value === 'object') mergeCapabilities(have as JsonObject, value as JsonObject);
    else into[key] = value;
  }
}

/** The client capabilities an interim outcome needs the request to have declared. */
export function mcpInterimRequirements(outcome: McpMethodOutcome): McpClientCapabilities {
  if (outcome.resultType === 'task') return { extensions: { [MCP_TASKS_EXTENSION_ID]: {} } };
  const required: JsonObject = {};
  if (outcome.resultType !== 'input_required') return required as McpClientCapabilities;
  for (const request of Object.values(outcome.body.inputRequests ?? {})) {
    const needs = inputRequestCapabilities(request);
    if (needs) mergeCapabilities(required, needs as JsonObject);
  }
  return required as McpClientCapabilities;
}

function describe(outcome: McpMethodOutcome): string {
  return outcome.resultType === 'task' ? 'to continue as a task (resultType "task")' : 'input from the client (resultType "input_required")';
}

/**
 * Checks an outcome before it is enveloped. `complete` always passes. An undeclared interim
 * type throws {@link McpUndeclaredInterimResultError} (a server fault: -32603, reported). On the
 * legacy path, or when a modern request lacks what the interim result needs, throws
 * PmMcpInterimResultUnsupportedError (-32021) saying what the client must send instead.
 */
export function assertMcpInterimOutcome(spec: Pick<McpMethodSpec, 'method' | 'interim'>, outcome: McpMethodOutcome, ctx: Pick<McpRequestContext, 'era' | 'clientCapabilities' | 'extensions'>): void {
  const resultType = outcome.resultType;
  if (resultType === undefined || resultType === 'complete') return;
  if (!spec.interim?.includes(resultType)) throw new McpUndeclaredInterimResultError(spec.method, resultType);
  const required = mcpInterimRequirements(outcome);
  if (ctx.era === 'legacy') {
    throw new PmMcpInterimResultUnsupportedError(
      resultType,
      required,
      `${spec.method} needs ${describe(outcome)}, which initialize-era requests cannot receive: send it as an MCP ${PM_MCP_PROTOCOL_VERSION} request (_meta io.modelcontextprotocol/protocolVersion "${PM_MCP_PROTOCOL_VERSION}") declaring ${JSON.stringify(required)} in io.modelcontextprotocol/clientCapabilities`,
      PM_MCP_PROTOCOL_VERSION,
    );
  }
  const missing = resultType === 'task' ? (hasMcpExtension(ctx, MCP_TASKS_EXTENSION_ID) ? undefined : required) : findMissingMcpClientCapabilities(ctx.clientCapabilities, required);
  if (missing) {
    throw new PmMcpInterimResultUnsupportedError(resultType, missing as JsonObject, `${spec.method} needs ${describe(outcome)}; declare ${JSON.stringify(missing)} in this request's io.modelcontextprotocol/clientCapabilities`);
  }
}
