/** One queued announcement: the bus message, and the id that removes it once sent. */
export interface QueuedAnnouncement {
  readonly id: string;
  readonly message: string;
}

/**
 * Announcements of changes this tracker's instances made while the ChangeBus could not take them
 * (docs/DEPLOY.md "When PostgreSQL is down"): kept durably, in order, until they are sent, so a
 * listener on another host hears every change once the database is back, also after the writer
 * restarted. Several processes serving one tracker share the queue: adding and removing never
 * lose what another process added in between.
 *
 * The queue is bounded. When it is full, the oldest entries collapse into one entry holding the
 * overflow message the adapter was made with (a "rescan" announcement: receivers re-read
 * everything), so the queue never grows without bound and never silently drops a change.
 */
export interface AnnouncementOutbox {
  /** Appends `messages` at the tail, in order; resolves once they are stored durably. */
  enqueue(messages: readonly string[]): Promise<void>;
  /** Every queued announcement, oldest first. */
  pending(): Promise<readonly QueuedAnnouncement[]>;
  /** Removes the entries with these ids (sent); entries added since stay. An unknown id is no error. */
  remove(ids: readonly string[]): Promise<void>;
}
