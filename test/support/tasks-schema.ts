/**
 * The tasks extension's wire shapes (SEP-2663), from the extension's own published schemas
 * (`@modelcontextprotocol/ext-tasks`, generated from its `schema/draft`): the core 2026-07-28
 * schema does not define them. Used by checkMcpMessage for `resultType: "task"` results and the
 * `tasks/*` methods.
 */
import { CancelTaskResultV2Schema, CreateTaskResultV2Schema, GetTaskResultV2Schema, UpdateTaskResultV2Schema } from '@modelcontextprotocol/ext-tasks/core/v2';

interface Parser {
  safeParse(value: unknown): { success: boolean; error?: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } };
}

const TASK_METHOD_RESULTS: Record<string, Parser> = {
  'tasks/get': GetTaskResultV2Schema,
  'tasks/update': UpdateTaskResultV2Schema,
  'tasks/cancel': CancelTaskResultV2Schema,
};

function issues(parser: Parser, value: unknown, where: string): string[] {
  const parsed = parser.safeParse(value);
  if (parsed.success) return [];
  return (parsed.error?.issues ?? []).slice(0, 8).map((i) => `${where} ext-tasks${i.path.length ? `/${i.path.map(String).join('/')}` : ''} ${i.message}`);
}

/** Problems of a modern result under the tasks extension, or undefined when the extension does not define it. */
export function checkTasksResult(method: string | undefined, result: Record<string, unknown>): string[] | undefined {
  if (result.resultType === 'task') return method === 'tools/call' ? issues(CreateTaskResultV2Schema, result, 'result') : [`resultType "task" on ${method ?? 'an unknown method'} (only tools/call may return a task)`];
  const parser = method ? TASK_METHOD_RESULTS[method] : undefined;
  return parser ? issues(parser, result, 'result') : undefined;
}
