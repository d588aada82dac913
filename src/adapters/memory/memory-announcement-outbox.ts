import type { AnnouncementOutbox, QueuedAnnouncement } from '../../ports/announcement-outbox.js';
import { collapseOldest } from '../../domain/util/bounded-queue.js';

/**
 * An AnnouncementOutbox in memory (tests, embedding hosts): what it queues lives as long as the
 * object. Bounded like the file adapter: beyond `maxEntries`, the oldest collapse into one
 * entry holding `overflowMessage`.
 */
export class MemoryAnnouncementOutbox implements AnnouncementOutbox {
  private queue: readonly QueuedAnnouncement[] = [];
  private next = 1;

  constructor(
    private readonly overflowMessage: string,
    private readonly maxEntries = 1_000,
  ) {}

  async enqueue(messages: readonly string[]): Promise<void> {
    const added = messages.map((message) => ({ id: this.newId(), message }));
    this.queue = collapseOldest([...this.queue, ...added], this.maxEntries, () => ({ id: this.newId(), message: this.overflowMessage }));
  }

  async pending(): Promise<readonly QueuedAnnouncement[]> {
    return [...this.queue];
  }

  async remove(ids: readonly string[]): Promise<void> {
    const sent = new Set(ids);
    this.queue = this.queue.filter((entry) => !sent.has(entry.id));
  }

  private newId(): string {
    return `m${this.next++}`;
  }
}
