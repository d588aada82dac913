import type { AnnouncementOutbox } from '../../ports/announcement-outbox.js';
import type { ChangeBus } from '../../ports/change-bus.js';
import type { Clock } from '../../ports/clock.js';
import { StoreUnavailableError } from '../errors/index.js';

/** What the queue tells the process log (the composition words it). */
export interface PmAnnouncementQueueLog {
  /**
   * A write's announcements are queued until the bus takes them again: they could not be sent
   * (`error`), or earlier ones are still queued (`error` undefined).
   */
  queued(count: number, error: unknown): void;
  /** They could neither be sent nor queued: listeners elsewhere miss this change until they re-read. */
  lost(count: number, error: unknown): void;
  /** `count` queued announcements went out (the database is back). */
  sent(count: number): void;
  /** Sending the queue failed for another reason than an unreachable bus (it is tried again). */
  flushFailed(error: unknown): void;
}

/** Options of {@link PmAnnouncementQueue}. */
export interface PmAnnouncementQueueOptions {
  /** First wait before a failed send of the queue is tried again (doubles up to `maxRetryMs`; default 250 ms). */
  readonly retryMs?: number;
  /** Longest wait between tries (default 5 s): how late a queued announcement may be once the database answers. */
  readonly maxRetryMs?: number;
}

/**
 * Announcements that cannot be lost (docs/DEPLOY.md "When PostgreSQL is down"; seed 004
 * "Transport behavior": listen streams hear changes whichever process made them). The item
 * file is written before its announcement is sent, so when the ChangeBus cannot take the
 * announcement (the database is down) the write stands and the announcement is kept in the
 * AnnouncementOutbox, durably; once the bus takes messages again they go out in order, before
 * any newer announcement of this process, and are cut from the queue only after they were sent.
 * A process killed between sending and cutting sends them again on its next start: receivers
 * drop the second arrival by the (item, version) it names (shared-change-source.ts).
 *
 * While anything may be queued, new announcements join the queue behind it; the queue is sent
 * when the bus reconnects ({@link flush}), on start, after each queued write, and on a timer
 * with a growing delay (up to `maxRetryMs`) until it is empty.
 */
export class PmAnnouncementQueue {
  /** True while the queue may hold something (unknown at start: an earlier process may have left entries). */
  private backlog = true;
  /** Serializes queueing and sending, so queued announcements keep their order. */
  private chain: Promise<unknown> = Promise.resolve();
  private retrying = false;
  private stopped = false;
  private retryMs: number;

  constructor(
    private readonly bus: ChangeBus,
    private readonly outbox: AnnouncementOutbox,
    private readonly clock: Clock,
    private readonly log: PmAnnouncementQueueLog,
    private readonly options: PmAnnouncementQueueOptions = {},
  ) {
    this.retryMs = options.retryMs ?? 250;
  }

  /** The longest message the bus carries (announcements are split to fit). */
  get maxMessageBytes(): number {
    return this.bus.maxMessageBytes;
  }

  /** Sends `messages` in order, or queues what could not be sent; never throws (the write already happened). */
  async announce(messages: readonly string[]): Promise<void> {
    if (!messages.length) return;
    let unsent = messages;
    let cause: unknown;
    if (!this.backlog) {
      try {
        for (const message of messages) {
          await this.bus.publish(message);
          unsent = unsent.slice(1);
        }
        return;
      } catch (error) {
        this.backlog = true; // from now on, newer announcements queue behind these
        cause = error;
      }
    }
    try {
      await this.serially(() => this.outbox.enqueue(unsent));
      this.log.queued(unsent.length, cause);
    } catch (error) {
      this.log.lost(unsent.length, error);
      return;
    }
    void this.flush();
  }

  /**
   * Sends every queued announcement in order and cuts each from the queue once sent; resolves
   * with how many went out. A failure leaves the rest queued and schedules another try.
   */
  flush(): Promise<number> {
    return this.serially(async () => {
      let sent = 0;
      try {
        for (;;) {
          const batch = await this.outbox.pending();
          if (!batch.length) {
            this.backlog = false;
            this.retryMs = this.options.retryMs ?? 250;
            if (sent) this.log.sent(sent);
            return sent;
          }
          const done: string[] = [];
          try {
            for (const entry of batch) {
              await this.bus.publish(entry.message);
              done.push(entry.id);
            }
          } finally {
            sent += done.length;
            if (done.length) await this.outbox.remove(done);
          }
        }
      } catch (error) {
        this.backlog = true;
        if (sent) this.log.sent(sent);
        if (!(error instanceof StoreUnavailableError)) this.log.flushFailed(error);
        this.retryLater();
        return sent;
      }
    });
  }

  /** Stops the retries (shutdown); what is queued stays for the next start. */
  stop(): void {
    this.stopped = true;
  }

  private retryLater(): void {
    if (this.retrying || this.stopped) return;
    this.retrying = true;
    const wait = this.retryMs;
    this.retryMs = Math.min(wait * 2, this.options.maxRetryMs ?? 5_000);
    void this.clock.sleep(wait).then(() => {
      this.retrying = false;
      if (!this.stopped) void this.flush();
    });
  }

  private serially<T>(work: () => Promise<T>): Promise<T> {
    const run = this.chain.then(work, work);
    this.chain = run.catch(() => undefined);
    return run;
  }
}
