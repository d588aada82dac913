import { RefusedFileError } from '../../domain/errors/index.js';
import { collapseOldest } from '../../domain/util/bounded-queue.js';
import { utf8Length } from '../../domain/util/utf8.js';
import type { AnnouncementOutbox, QueuedAnnouncement } from '../../ports/announcement-outbox.js';
import type { FileSystem, OwnFileRead } from '../../ports/file-system.js';
import type { Locker } from '../../ports/locker.js';

/** Options of {@link FileAnnouncementOutbox}. */
export interface FileAnnouncementOutboxOptions {
  /** The queue file (`.agents/pm/.runtime/announcements.jsonl`); its lock is `<file>.lock`. */
  readonly file: string;
  /** The message standing for entries folded away when the queue is full (a rescan). */
  readonly overflowMessage: string;
  /** A fresh entry id (random: several processes append to one file). */
  readonly newId: () => string;
  /** How long to wait for the queue's lock. */
  readonly lockTimeoutMs: number;
  /** Most entries kept (default 1 000); beyond it, the oldest collapse into one overflow entry. */
  readonly maxEntries?: number;
}

/** The file's cap: 1 000 entries of at most ~8 KB each (a NOTIFY payload), with room to spare. */
const OUTBOX_READ: OwnFileRead = Object.freeze({ maxBytes: 16 * 1024 * 1024 });

/** The queue as read: its whole entries, and whether anything else was there (a torn or damaged line). */
interface OutboxState {
  readonly entries: readonly QueuedAnnouncement[];
  /** True when the file holds something that is no entry: it is rewritten with an overflow entry in its place. */
  readonly damaged: boolean;
  /** The file's size when read. */
  readonly size: number;
}

/**
 * The AnnouncementOutbox as one JSON-lines file in the tracker's git-ignored runtime area
 * (docs/DEPLOY.md "When PostgreSQL is down"), one `{"id","message"}` per line, shared by every
 * process serving this checkout. Every change of the file happens under its lock (the Locker
 * port, recovered when its holder died), so an append by one process is never lost to another
 * one's rewrite: adding appends whole lines with the same safe-append rule as the idempotency
 * ledger (a failed append is cut back to the size it had), and removing sent entries rewrites
 * the file atomically with what is left (the file is removed when nothing is).
 *
 * Whatever is not a whole entry — the torn last line of a writer killed mid-append, a line
 * damaged by hand, or a file over its cap — stands for announcements that may be lost, so it
 * is replaced by one overflow entry (a rescan for receivers) before anything else is added or
 * read: nothing pm wrote can fail its own read, and nothing is dropped silently.
 */
export class FileAnnouncementOutbox implements AnnouncementOutbox {
  private readonly max: number;

  constructor(
    private readonly fs: FileSystem,
    private readonly locker: Locker,
    private readonly options: FileAnnouncementOutboxOptions,
  ) {
    this.max = options.maxEntries ?? 1_000;
  }

  async enqueue(messages: readonly string[]): Promise<void> {
    if (!messages.length) return;
    await this.locked(async () => {
      const state = await this.read();
      const added = messages.map((message) => ({ id: this.options.newId(), message }));
      if (state.damaged || state.entries.length + added.length > this.max) return this.rewrite([...this.healed(state), ...added]);
      try {
        await this.fs.append(this.options.file, added.map(line).join(''));
      } catch (error) {
        await this.fs.truncate(this.options.file, state.size).catch(() => undefined);
        throw error;
      }
    });
  }

  async pending(): Promise<readonly QueuedAnnouncement[]> {
    return this.locked(async () => {
      const state = await this.read();
      if (!state.damaged) return state.entries;
      const healed = this.healed(state);
      await this.rewrite(healed);
      return healed;
    });
  }

  async remove(ids: readonly string[]): Promise<void> {
    if (!ids.length) return;
    const sent = new Set(ids);
    await this.locked(async () => {
      const state = await this.read();
      const left = this.healed(state).filter((entry) => !sent.has(entry.id));
      if (left.length === state.entries.length && !state.damaged) return;
      await this.rewrite(left);
    });
  }

  /** The entries with one overflow entry first when the file held something else. */
  private healed(state: OutboxState): QueuedAnnouncement[] {
    return state.damaged ? [this.overflow(), ...state.entries] : [...state.entries];
  }

  private overflow(): QueuedAnnouncement {
    return { id: this.options.newId(), message: this.options.overflowMessage };
  }

  private async rewrite(entries: readonly QueuedAnnouncement[]): Promise<void> {
    const bounded = collapseOldest(entries, this.max, () => this.overflow());
    if (bounded.length === 0) await this.fs.remove(this.options.file);
    else await this.fs.writeAtomic(this.options.file, bounded.map(line).join(''));
  }

  private async read(): Promise<OutboxState> {
    let text: string | undefined;
    try {
      text = await this.fs.readText(this.options.file, OUTBOX_READ);
    } catch (error) {
      // Over its cap: what it held collapses into one overflow entry. A link or special node is refused as it is.
      if (error instanceof RefusedFileError && error.reason === 'too_large') return { entries: [], damaged: true, size: 0 };
      throw error;
    }
    if (text === undefined) return { entries: [], damaged: false, size: 0 };
    const entries: QueuedAnnouncement[] = [];
    let damaged = !text.endsWith('\n') && text !== '';
    for (const raw of text.split('\n')) {
      if (!raw) continue;
      const entry = parse(raw);
      if (entry) entries.push(entry);
      else damaged = true;
    }
    return { entries, damaged, size: utf8Length(text) };
  }

  private async locked<T>(work: () => Promise<T>): Promise<T> {
    await this.fs.ensureDir(this.options.file.slice(0, this.options.file.lastIndexOf('/')));
    const release = await this.locker.acquire(`${this.options.file}.lock`, { timeoutMs: this.options.lockTimeoutMs });
    try {
      return await work();
    } finally {
      await release();
    }
  }
}

function line(entry: QueuedAnnouncement): string {
  return `${JSON.stringify({ id: entry.id, message: entry.message })}\n`;
}

function parse(raw: string): QueuedAnnouncement | undefined {
  try {
    const value = JSON.parse(raw) as { id?: unknown; message?: unknown };
    return typeof value.id === 'string' && typeof value.message === 'string' ? { id: value.id, message: value.message } : undefined;
  } catch {
    return undefined;
  }
}
