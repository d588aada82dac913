/**
 * Discovery beside the tasks extension: a request that negotiated both gets a task handle for a
 * long-running tool, and the result tasks/get later returns is canonical, as the inline call's
 * would be (the task runs the rest of the tools/call chain, result shapers included).
 */
import { MemoryTaskStore } from '../../../../src/adapters/memory/memory-task-store.js';
import { MemoryTaskWorkers } from '../../../../src/adapters/memory/memory-task-workers.js';
import { PureSha256Hasher } from '../../../../src/adapters/memory/pure-hasher.js';
import { PM_CANONICAL_RESULT_POINTER, PM_TOOL_DISCOVERY_EXTENSION_ID, pmMcpToolDiscoveryExtension } from '../../../../src/domain/discovery/index.js';
import { PmMcpTaskService, pmMcpTasksExtension } from '../../../../src/domain/tasks/index.js';
import { expectCleanHarness, TrackerMcpHarness, type Env } from '../../../support/mcp-tracker-harness.js';

const BOTH = { 'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {}, [PM_TOOL_DISCOVERY_EXTENSION_ID]: {} } } };
const TASKS_ONLY = { 'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } } };
const flush = () => new Promise((resolve) => setImmediate(resolve));

test('a task started by a discovering host completes with a canonical result; a plain task host keeps the compatibility text', async () => {
  const internal: unknown[] = [];
  const h = await TrackerMcpHarness.create({
    serverExtensions: (env: Env) => [
      pmMcpTasksExtension({ tasks: new PmMcpTaskService({ store: new MemoryTaskStore(), workers: new MemoryTaskWorkers(), clock: env.clock, ids: env.ids }, { onInternalError: (e) => internal.push(e) }) }),
      pmMcpToolDiscoveryExtension({ hasher: new PureSha256Hasher(), profile: 'full' }),
    ],
  });
  await h.seed();
  const inline = (await h.modern('tools/call', { name: 'pm_validate', arguments: { limit: 5 } })).result!;
  for (const [meta, canonical] of [[BOTH, true], [TASKS_ONLY, false]] as const) {
    const task = (await h.modern('tools/call', { name: 'pm_validate', arguments: { limit: 5 } }, meta)).result as { resultType: string; taskId: string };
    expect(task.resultType).toBe('task');
    await flush();
    const got = (await h.modern('tasks/get', { taskId: task.taskId }, meta)).result as { status: string; result: { content: unknown; structuredContent: unknown } };
    expect(got.status).toBe('completed');
    if (canonical) {
      expect(got.result.content).toEqual([{ type: 'text', text: PM_CANONICAL_RESULT_POINTER }]);
      expect(got.result.structuredContent).toEqual({ result: inline.structuredContent });
    } else {
      expect(got.result.content).toEqual(inline.content);
      expect(got.result.structuredContent).toEqual(inline.structuredContent);
    }
  }
  expectCleanHarness(h);
  expect(internal).toEqual([]);
});
