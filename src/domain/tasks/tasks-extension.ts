import { z } from 'zod';
import { PmMcpInvalidParamsError, PmMcpMissingClientCapabilityError } from '../errors/mcp-errors.js';
import type { McpMethodOutcome } from '../mcp/method-outcome.js';
import type { PmMcpMethodRegistry } from '../mcp/method-registry.js';
import { MCP_TASKS_CANCEL_METHOD, MCP_TASKS_EXTENSION_ID, MCP_TASKS_GET_METHOD, MCP_TASKS_UPDATE_METHOD } from '../mcp/methods/task-method-specs.js';
import { detachMcpRequestContext, hasMcpExtension, mcpCallerOf, type McpRequestContext } from '../mcp/request-context.js';
import type { PmMcpServerDescriptor } from '../mcp/server-descriptor.js';
import type { PmMcpServerExtension } from '../mcp/server-extension.js';
import type { JsonObject } from '../mcp/wire-types.js';
import { lazy } from '../util/lazy.js';
import { pmDetailedTask, pmTaskMembers } from './task-lifecycle.js';
import type { PmMcpTaskService } from './task-service.js';

/**
 * The tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663; seed 004 "MRTR, tasks, and
 * cache behavior"), plugged in by registration alone:
 * - `server/discover` offers it (`{}`); the initialize-era path never does (the extension is
 *   undefined under 2025-11-25), so there `tasks/*` are -32601 and the old `task` parameter of
 *   tools/call is ignored;
 * - an interceptor on `tools/call`: for a request that declared the extension, a tool that
 *   declares itself `longRunning` is started as a durable task and answered with the flat
 *   `CreateTaskResult` once the record is stored; every other call runs inline;
 * - `tasks/get`, `tasks/update` and `tasks/cancel`, each -32021 without the extension declared on
 *   the request, -32602 for a task that does not exist, expired, or is another caller's.
 * pm's tasks never ask for input, so `tasks/update` acknowledges and ignores its responses.
 */

const taskIdParams = lazy(() => z.object({ taskId: z.string().min(1).max(200) }));
const taskUpdateParams = lazy(() => z.object({ taskId: z.string().min(1).max(200), inputResponses: z.record(z.string(), z.record(z.string(), z.unknown())) }));
const toolCallName = (params: unknown) => (params as { name?: unknown }).name;

/** What the extension runs over. */
export interface PmMcpTasksExtensionOptions {
  readonly tasks: PmMcpTaskService;
}

/** The tasks extension (see the module comment). */
export function pmMcpTasksExtension(options: PmMcpTasksExtensionOptions): PmMcpServerExtension {
  const { tasks } = options;
  return {
    id: MCP_TASKS_EXTENSION_ID,
    offer: {},
    prepare: () => tasks.prepare(),
    register: (methods, server) => {
      registerTaskMethods(methods, tasks);
      registerTaskInterceptor(methods, server, tasks);
      methods.onDrain(() => tasks.stopAll());
    },
  };
}

function requireTasks(ctx: McpRequestContext): void {
  if (hasMcpExtension(ctx, MCP_TASKS_EXTENSION_ID)) return;
  throw new PmMcpMissingClientCapabilityError({ extensions: { [MCP_TASKS_EXTENSION_ID]: {} } }, `${ctx.method} needs the ${MCP_TASKS_EXTENSION_ID} extension declared in this request's io.modelcontextprotocol/clientCapabilities`);
}

function registerTaskMethods(methods: PmMcpMethodRegistry, tasks: PmMcpTaskService): void {
  methods.register({
    ...MCP_TASKS_GET_METHOD,
    params: taskIdParams,
    async handle({ taskId }, ctx) {
      requireTasks(ctx);
      return { body: pmDetailedTask(await tasks.get(taskId, mcpCallerOf(ctx))) };
    },
  });
  methods.register({
    ...MCP_TASKS_UPDATE_METHOD,
    params: taskUpdateParams,
    async handle({ taskId }, ctx) {
      requireTasks(ctx);
      await tasks.get(taskId, mcpCallerOf(ctx)); // pm's tasks ask for nothing: every response is for a key not outstanding
      return { body: {} };
    },
  });
  methods.register({
    ...MCP_TASKS_CANCEL_METHOD,
    params: taskIdParams,
    async handle({ taskId }, ctx) {
      requireTasks(ctx);
      await tasks.cancel(taskId, mcpCallerOf(ctx));
      return { body: {} };
    },
  });
}

function registerTaskInterceptor(methods: PmMcpMethodRegistry, server: PmMcpServerDescriptor, tasks: PmMcpTaskService): void {
  methods.addInterceptor({
    id: MCP_TASKS_EXTENSION_ID,
    method: 'tools/call',
    variant: (ctx) => (ctx.era === 'modern' && hasMcpExtension(ctx, MCP_TASKS_EXTENSION_ID) ? 'task' : undefined),
    async intercept(params, ctx, next): Promise<McpMethodOutcome> {
      const name = toolCallName(params);
      const tool = typeof name === 'string' ? server.tools?.get(name) : undefined;
      if (!tool?.longRunning) return next(params);
      const record = await tasks.start(mcpCallerOf(ctx), { method: 'tools/call', name: tool.name }, async (signal) => {
        const outcome = await next(params, detachMcpRequestContext(ctx, signal));
        if (outcome.resultType === 'input_required' || outcome.resultType === 'task') {
          throw new PmMcpInvalidParamsError(`${tool.name} asked for ${outcome.resultType} inside a task, which pm's tasks do not support`, { tool: tool.name });
        }
        return { resultType: 'complete', ...outcome.body } as JsonObject;
      }, `Running ${tool.name}.`);
      return { resultType: 'task', body: pmTaskMembers(record) };
    },
  });
}
