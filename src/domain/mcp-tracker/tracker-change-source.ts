import type { Clock } from '../../ports/clock.js';
import type { FileSignature, FileSystem } from '../../ports/file-system.js';
import type { PmMcpChange, PmMcpChangeEmitter, PmMcpChangeSource } from '../mcp/subscriptions/change-source.js';
import { ITEM_ID_PATTERN } from '../tracker/item.js';
import { joinPath } from '../util/paths.js';

/**
 * The tracker's change source for listen streams (seed 004 "Transport behavior"; 2026-07-28
 * `basic/patterns/subscriptions`): one
 * watch over `.agents/pm/items/` through the FileSystem port, so an item changed by another
 * process (`pm update` in a shell, a git checkout) is seen like one changed by this server.
 *
 * Watch events only name an entry; whether an item was created, changed or deleted is decided
 * by `fs.stat` against the signatures known from a scan taken when the watch starts. Names that
 * are not `<item id>.md` (temp files of atomic writes, editor backups) are ignored; an event
 * without a name, or more pending names than the bound, triggers one rescan of the directory.
 *
 * What each change means for subscribers (pm's resource model):
 * - created or deleted item → `resources/list_changed`, plus `resources/updated` for
 *   `pm://items/<id>` (a subscriber may wait for an id to appear; re-reading a deleted one
 *   answers not-found);
 * - changed item → `resources/updated` for `pm://items/<id>`;
 * - any of them → `resources/updated` for `pm://context` and `pm://claims`, which are derived
 *   from every item (deliberately conservative: the source does not parse items, so a change
 *   that leaves the snapshot or the claims as they were still notifies).
 * `pm://items` itself is accepted as a subscription and receives every `pm://items/<id>` as a
 * sub-resource. `pm://guidance` is not covered (repository files outside the tracker are not
 * watched), so it is not acknowledged.
 */

/** The project snapshot resource. */
export const PM_MCP_CONTEXT_URI = 'pm://context';
/** The active claims resource. */
export const PM_MCP_CLAIMS_URI = 'pm://claims';
/** The item collection; subscribing to it covers every item as a sub-resource. */
export const PM_MCP_ITEMS_URI = 'pm://items';

/** `pm://items/<id>` for an item id. */
export function pmMcpItemUri(id: string): string {
  return `${PM_MCP_ITEMS_URI}/${id}`;
}

/** What happened to one item file. */
export type PmTrackerItemChangeKind = 'created' | 'changed' | 'deleted';

/** Tuning of {@link PmMcpTrackerChangeSource}. */
export interface PmMcpTrackerChangeSourceOptions {
  /** Distinct item names held between stat passes before falling back to one rescan (default 4096). */
  readonly maxPendingNames?: number;
  /** Concurrent `fs.stat` calls in one pass (default 32). */
  readonly statConcurrency?: number;
}

const ITEM_FILE_SUFFIX = '.md';

/** The item id named by a file in the items directory, or undefined for anything else. */
export function pmItemIdOfFileName(name: string): string | undefined {
  if (!name.endsWith(ITEM_FILE_SUFFIX)) return undefined;
  const id = name.slice(0, -ITEM_FILE_SUFFIX.length);
  return ITEM_ID_PATTERN.test(id) ? id : undefined;
}

/** The version of an item file's state that a change names: its signature, or `deleted`. */
export function pmItemVersion(signature: FileSignature | undefined): string {
  return signature ? signatureKey(signature) : PM_ITEM_DELETED;
}

/** The version of a deleted item. */
export const PM_ITEM_DELETED = 'deleted';

function signatureKey(signature: FileSignature): string {
  return `${signature.ino}:${signature.size}:${signature.mtimeMs}:${signature.ctimeMs}`;
}

/** The notifications an item change implies (see the module comment); `version` names the state it produced. */
export function pmMcpChangesForItem(id: string, kind: PmTrackerItemChangeKind, version?: string): PmMcpChange[] {
  const changes: PmMcpChange[] = kind === 'changed' ? [] : [{ kind: 'resourcesListChanged' }];
  changes.push({ kind: 'resourceUpdated', uri: pmMcpItemUri(id), ...(version !== undefined ? { version } : {}) });
  return changes;
}

/** A {@link PmMcpChangeSource} over the tracker's item files. */
export class PmMcpTrackerChangeSource implements PmMcpChangeSource {
  private readonly maxPendingNames: number;
  private readonly statConcurrency: number;

  /**
   * @param fs the FileSystem port (the node adapter for real files; its watch sees other processes' writes)
   * @param clock the Clock port: it closes the window in which a first event may stem from the first scan
   * @param itemsDir the tracker's items directory (`TrackerPaths.items`)
   */
  constructor(
    private readonly fs: FileSystem,
    private readonly clock: Clock,
    private readonly itemsDir: string,
    options: PmMcpTrackerChangeSourceOptions = {},
  ) {
    this.maxPendingNames = Math.max(1, options.maxPendingNames ?? 4096);
    this.statConcurrency = Math.max(1, options.statConcurrency ?? 32);
  }

  coversUri(uri: string): boolean {
    if (uri === PM_MCP_CONTEXT_URI || uri === PM_MCP_CLAIMS_URI || uri === PM_MCP_ITEMS_URI || uri === `${PM_MCP_ITEMS_URI}/`) return true;
    return uri.startsWith(`${PM_MCP_ITEMS_URI}/`) && ITEM_ID_PATTERN.test(uri.slice(PM_MCP_ITEMS_URI.length + 1));
  }

  start(emit: PmMcpChangeEmitter): () => void {
    const watch = new ItemsWatch(this.fs, this.clock, this.itemsDir, emit, this.maxPendingNames, this.statConcurrency);
    return () => watch.stop();
  }
}

/** How long after the first scan an event for a scanned id may still stem from a write during the scan. */
const UNCONFIRMED_WINDOW_MS = 250;

/** One running watch: known signatures, pending names, and a single sequential stat loop. */
class ItemsWatch {
  private readonly known = new Map<string, string>();
  private readonly pending = new Set<string>();
  /** Ids whose events arrived before the first scan finished: created and changed cannot be told apart. */
  private forced = new Set<string>();
  /**
   * Ids whose signature comes from the first scan and that have had no event since. A write can
   * land while the scan runs (so the scan already records the new signature) with its watch
   * event delivered only after the scan finished. Such a first event cannot tell a file created
   * during the scan from one changed during it, so it is reported as both (updated and
   * list_changed: at worst one extra notification, never a missed one). The window closes
   * shortly after the scan ({@link UNCONFIRMED_WINDOW_MS}): later events are new writes.
   */
  private readonly unconfirmed = new Set<string>();
  private rescan = false;
  private busy = true; // until the first scan is done
  private stopped = false;
  private readonly unwatch: () => void;

  constructor(
    private readonly fs: FileSystem,
    private readonly clock: Clock,
    private readonly dir: string,
    private readonly emit: PmMcpChangeEmitter,
    private readonly maxPendingNames: number,
    private readonly statConcurrency: number,
  ) {
    // Watch first, then scan: a write racing the scan is at worst reported twice, never missed.
    this.unwatch = fs.watch(dir, (name) => this.onEvent(name));
    void this.initialScan();
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.pending.clear();
    this.unwatch();
  }

  private onEvent(name: string | undefined): void {
    if (this.stopped) return;
    if (name === undefined) {
      this.rescan = true;
    } else {
      const id = pmItemIdOfFileName(name);
      if (id === undefined) return;
      if (this.pending.size >= this.maxPendingNames && !this.pending.has(id)) {
        this.pending.clear();
        this.rescan = true;
      } else if (!this.rescan) {
        this.pending.add(id);
      }
    }
    this.kick();
  }

  private async initialScan(): Promise<void> {
    try {
      for (const entry of await this.fs.scan(this.dir)) {
        const id = pmItemIdOfFileName(entry.name);
        if (id === undefined) continue;
        this.known.set(id, signatureKey(entry.signature));
        this.unconfirmed.add(id);
      }
    } catch {
      // An unreadable directory starts empty; later events still report what appears.
    }
    this.forced = new Set(this.pending);
    this.busy = false;
    this.kick();
    void this.clock.sleep(UNCONFIRMED_WINDOW_MS).then(() => this.unconfirmed.clear());
  }

  private kick(): void {
    if (this.busy || this.stopped) return;
    this.busy = true;
    void this.drain();
  }

  private async drain(): Promise<void> {
    try {
      while (!this.stopped && (this.rescan || this.pending.size)) {
        const changes: PmMcpChange[] = [];
        if (this.rescan) {
          this.rescan = false;
          this.pending.clear();
          await this.diffAll(changes);
        } else {
          const ids = [...this.pending];
          this.pending.clear();
          await this.check(ids, changes);
        }
        if (changes.length && !this.stopped) {
          changes.push({ kind: 'resourceUpdated', uri: PM_MCP_CONTEXT_URI }, { kind: 'resourceUpdated', uri: PM_MCP_CLAIMS_URI });
          this.emit(changes);
        }
      }
    } finally {
      this.busy = false;
    }
    if (!this.stopped && (this.rescan || this.pending.size)) this.kick();
  }

  /** Stats each id and records what happened to it. */
  private async check(ids: readonly string[], changes: PmMcpChange[]): Promise<void> {
    for (let i = 0; i < ids.length && !this.stopped; i += this.statConcurrency) {
      const batch = ids.slice(i, i + this.statConcurrency);
      const stats = await Promise.all(batch.map((id) => this.fs.stat(joinPath(this.dir, `${id}${ITEM_FILE_SUFFIX}`)).catch(() => null)));
      batch.forEach((id, index) => {
        const signature = stats[index];
        if (signature === null) return; // unreadable: the next event or rescan decides
        const forced = this.forced.delete(id);
        const unconfirmed = this.unconfirmed.delete(id);
        this.record(id, signature && signatureKey(signature), changes, forced || unconfirmed, unconfirmed);
      });
    }
  }

  /** Rescans the directory and records every difference from what is known. */
  private async diffAll(changes: PmMcpChange[]): Promise<void> {
    let entries;
    try {
      entries = await this.fs.scan(this.dir);
    } catch {
      return;
    }
    const seen = new Set<string>();
    for (const entry of entries) {
      const id = pmItemIdOfFileName(entry.name);
      if (id === undefined) continue;
      seen.add(id);
      this.record(id, signatureKey(entry.signature), changes, this.forced.delete(id));
    }
    for (const id of [...this.known.keys()]) if (!seen.has(id)) this.record(id, undefined, changes, false);
  }

  private record(id: string, key: string | undefined, changes: PmMcpChange[], forced: boolean, ambiguous = false): void {
    const before = this.known.get(id);
    let kind: PmTrackerItemChangeKind | undefined;
    if (key === undefined) {
      if (before !== undefined) kind = 'deleted';
      this.known.delete(id);
    } else {
      if (before === undefined) kind = 'created';
      else if (ambiguous && before === key) kind = 'created';
      else if (before !== key || forced) kind = 'changed';
      this.known.set(id, key);
    }
    if (kind) changes.push(...pmMcpChangesForItem(id, kind, key ?? PM_ITEM_DELETED));
  }
}
