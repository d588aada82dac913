import type { Clock } from '../../ports/clock.js';
import type { IdSource } from '../../ports/id-source.js';
import type { TaskError, TaskRecord, TaskStore } from '../../ports/task-store.js';
import type { TaskWorkers } from '../../ports/task-workers.js';
import { PmMcpInvalidParamsError } from '../errors/mcp-errors.js';
import { StoreUnavailableError } from '../errors/tracker-errors.js';
import { toMcpJsonRpcError } from '../mcp/error-mapper.js';
import type { JsonObject } from '../mcp/wire-types.js';
import { cancelPmTask, completePmTask, failPmTask, heartbeatPmTask, isPmTaskExpired, isPmTaskTerminal, newPmTask, PM_TASK_WORKER_GONE, PM_TASK_WORKER_STOPPED } from './task-lifecycle.js';

/** Options of {@link PmMcpTaskService}. */
export interface PmMcpTaskServiceOptions {
  /** Time to live of a task from creation (default one hour). */
  readonly ttlMs?: number;
  /** The polling interval suggested to clients (default 1 s). */
  readonly pollIntervalMs?: number;
  /** How often a running task's worker refreshes its heartbeat (default 10 s). */
  readonly heartbeatMs?: number;
  /** How old a heartbeat may get before a worker another host runs counts as gone (default 3 heartbeats). */
  readonly staleAfterMs?: number;
  /** Expired records are purged every this many task starts (default 64), and when the service starts. */
  readonly purgeEvery?: number;
  /** Unexpected throws of a task's work (they fail the task with -32603 and are reported here). */
  readonly onInternalError?: (error: unknown, taskId: string) => void;
}

/** What a task's work produces: the result the original request would have returned. */
export type PmTaskWork = (signal: AbortSignal) => Promise<JsonObject>;

const TASK_ID_CHARS = 26; // base36: about 134 bits, unguessable (SEP-2663 "Security Considerations")

/**
 * Durable tasks (seed 004 "MRTR, tasks, and cache behavior"; SEP-2663): a task is stored
 * before its handle is returned, runs in this process, and is read, updated and cancelled by
 * any process over the same TaskStore. Tasks are principal-scoped (another caller's task is
 * indistinguishable from a missing one), terminal states are immutable, a task expires at its
 * time to live (Clock port) and is purged, and a task whose worker is gone — the process died,
 * or stopped sending heartbeats from another host — becomes a `failed` task saying so on the
 * next read.
 */
export class PmMcpTaskService {
  private readonly running = new Map<string, AbortController>();
  private readonly ttlMs: number;
  private readonly pollIntervalMs: number;
  private readonly heartbeatMs: number;
  private readonly staleAfterMs: number;
  private readonly purgeEvery: number;
  private starts = 0;
  private beating = false;

  constructor(
    private readonly ports: { readonly store: TaskStore; readonly workers: TaskWorkers; readonly clock: Clock; readonly ids: IdSource },
    private readonly options: PmMcpTaskServiceOptions = {},
  ) {
    this.ttlMs = positive(options.ttlMs ?? 3_600_000, 'ttlMs');
    this.pollIntervalMs = positive(options.pollIntervalMs ?? 1_000, 'pollIntervalMs');
    this.heartbeatMs = positive(options.heartbeatMs ?? 10_000, 'heartbeatMs');
    this.staleAfterMs = positive(options.staleAfterMs ?? 3 * this.heartbeatMs, 'staleAfterMs');
    this.purgeEvery = positive(options.purgeEvery ?? 64, 'purgeEvery');
  }

  /** Purges what expired while no server ran (called once before serving). */
  async prepare(): Promise<void> {
    await this.ports.store.purgeExpired(this.ports.clock.now());
  }

  /**
   * Starts `work` as a task of `principal`. Resolves with the stored record — durable, so a
   * `tasks/get` from any process finds it — while the work goes on.
   */
  async start(principal: string, request: TaskRecord['request'], work: PmTaskWork, statusMessage = 'Working.'): Promise<TaskRecord> {
    const now = this.ports.clock.now();
    if (++this.starts % this.purgeEvery === 0) await this.ports.store.purgeExpired(now);
    const record = newPmTask({ taskId: `tsk_${this.ports.ids.randomBase36(TASK_ID_CHARS)}`, principal, request, worker: this.ports.workers.self(), now, ttlMs: this.ttlMs, pollIntervalMs: this.pollIntervalMs, statusMessage });
    await this.ports.store.create(record);
    const controller = new AbortController();
    this.running.set(record.taskId, controller);
    void this.run(record.taskId, work, controller);
    this.heartbeat();
    return record;
  }

  /**
   * The task as `principal` may see it: -32602 when it does not exist or is another caller's
   * (the same message), or when it expired (then it is purged). A task whose worker is gone is
   * failed here, once, and returned as such.
   */
  async get(taskId: string, principal: string): Promise<TaskRecord> {
    const record = await this.ports.store.get(taskId);
    if (!record || record.principal !== principal) throw taskNotFound(taskId);
    const now = this.ports.clock.now();
    if (isPmTaskExpired(record, now)) {
      await this.ports.store.delete(taskId);
      throw new PmMcpInvalidParamsError(`Task has expired: ${taskId} (its time to live ended at ${new Date(record.expiresAt).toISOString()}; run the tool again)`, { taskId, expired: true });
    }
    if (isPmTaskTerminal(record) || !this.vanished(record, now)) return record;
    return (await this.ports.store.update(taskId, (current) => (!isPmTaskTerminal(current) && this.vanished(current, now) ? failPmTask(current, PM_TASK_WORKER_GONE, now) : undefined))) ?? record;
  }

  /** Asks the task to stop (cooperative): a task not yet terminal becomes `cancelled` and its work is told. */
  async cancel(taskId: string, principal: string): Promise<TaskRecord> {
    const record = await this.get(taskId, principal);
    if (isPmTaskTerminal(record)) return record;
    const now = this.ports.clock.now();
    const stored = (await this.ports.store.update(taskId, (current) => cancelPmTask(current, now))) ?? record;
    this.running.get(taskId)?.abort();
    return stored;
  }

  /** Tasks this process is running (tests, shutdown). */
  get runningCount(): number {
    return this.running.size;
  }

  /** Tells every running task's work to stop (shutdown); their records are failed by the next reader when this process is gone. */
  stopAll(): void {
    for (const controller of this.running.values()) controller.abort();
  }

  /**
   * Graceful shutdown: every task this process still runs is failed now, saying the server was
   * shut down ({@link PM_TASK_WORKER_STOPPED}; a client polling through another instance reads
   * that at once instead of waiting for the lease to run out), and its work is told to stop.
   * Resolves to how many tasks were failed.
   */
  async drain(): Promise<number> {
    const now = this.ports.clock.now();
    let failed = 0;
    for (const [taskId, controller] of [...this.running]) {
      try {
        const stored = await this.ports.store.update(taskId, (current) => failPmTask(current, PM_TASK_WORKER_STOPPED, now));
        if (stored?.status === 'failed' && stored.error?.data && (stored.error.data as { reason?: string }).reason === 'worker_stopped') failed++;
      } catch (error) {
        this.options.onInternalError?.(error, taskId);
      }
      controller.abort();
    }
    return failed;
  }

  private async run(taskId: string, work: PmTaskWork, controller: AbortController): Promise<void> {
    let outcome: { readonly result: JsonObject } | { readonly error: TaskError };
    try {
      outcome = { result: await work(controller.signal) };
    } catch (error) {
      const wire = toMcpJsonRpcError(error, 'modern');
      // Work stopped by its signal (a cancel, shutdown) is no fault; its record is terminal already or failed by the next reader.
      if (wire.code === -32603 && !('data' in wire) && !controller.signal.aborted) this.options.onInternalError?.(error, taskId);
      outcome = { error: wire };
    }
    try {
      await this.record(taskId, outcome);
    } catch (error) {
      this.options.onInternalError?.(error, taskId);
    } finally {
      this.running.delete(taskId);
    }
  }

  /**
   * Stores the outcome of a task's work. While a shared store is unreachable the outcome is
   * kept and stored again every heartbeat (until the task would have expired), so a result
   * computed during an outage is not lost; the heartbeats stop meanwhile, and a reader that
   * finds the lease run out fails the task as vanished — what a client reads is then final.
   */
  private async record(taskId: string, outcome: { readonly result: JsonObject } | { readonly error: TaskError }): Promise<void> {
    const deadline = this.ports.clock.now() + this.ttlMs;
    for (;;) {
      const now = this.ports.clock.now();
      try {
        await this.ports.store.update(taskId, (current) => ('result' in outcome ? completePmTask(current, outcome.result, now) : failPmTask(current, outcome.error, now)));
        return;
      } catch (error) {
        if (!(error instanceof StoreUnavailableError) || now >= deadline) throw error;
        await this.ports.clock.sleep(this.heartbeatMs);
      }
    }
  }

  /** One loop refreshes the heartbeats of every running task while there are any; a task found terminal (cancelled elsewhere) is told to stop. */
  private heartbeat(): void {
    if (this.beating) return;
    this.beating = true;
    void (async () => {
      while (this.running.size) {
        await this.ports.clock.sleep(this.heartbeatMs);
        const me = this.ports.workers.self();
        for (const [taskId, controller] of [...this.running]) {
          try {
            const stored = await this.ports.store.update(taskId, (current) => heartbeatPmTask(current, me, this.ports.clock.now()));
            if (!stored || isPmTaskTerminal(stored)) controller.abort();
          } catch (error) {
            // An unreachable shared store is reported by the requests that need it, not once per heartbeat.
            if (!(error instanceof StoreUnavailableError)) this.options.onInternalError?.(error, taskId);
          }
        }
      }
      this.beating = false;
    })();
  }

  private vanished(record: TaskRecord, now: number): boolean {
    const worker = record.worker;
    if (!worker) return true;
    if (worker.id === this.ports.workers.self().id) return !this.running.has(record.taskId);
    const state = this.ports.workers.state(worker);
    if (state !== 'unknown') return state === 'gone';
    return now - (record.heartbeatAt ?? record.updatedAt) > this.staleAfterMs;
  }
}

function taskNotFound(taskId: string): PmMcpInvalidParamsError {
  return new PmMcpInvalidParamsError(`Task not found: ${taskId}`, { taskId });
}

function positive(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value <= 0) throw new RangeError(`${name} must be a positive integer, got ${value}`);
  return value;
}
