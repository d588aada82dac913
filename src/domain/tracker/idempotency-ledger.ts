import type { FileSystem } from '../../ports/file-system.js';
import { utf8Length } from '../util/utf8.js';
import { LEDGER_FILE_READ } from './file-caps.js';
import type { Receipt } from './receipt.js';
import type { TrackerPaths } from './tracker-paths.js';

/** A mutation announced before its history line is written (write-ahead; see below). */
export interface LedgerIntent {
  readonly itemId: string;
  readonly receiptId: string;
}

/** What the ledger knows of one key: the finished receipt, or only the intent. */
export interface LedgerRecord {
  readonly scope: string;
  readonly key: string;
  readonly fingerprint: string;
  readonly receipt?: Receipt;
  readonly intent?: LedgerIntent;
}

/**
 * Remembers which idempotency keys were used, by whom and for which request, in an
 * append-only file under the runtime area. Followed by byte offset so every process sees the
 * keys other processes recorded; read and written only under the write lock.
 *
 * Write-ahead, so a writer killed mid-mutation never lets a retry apply twice: the intent
 * (item id and receipt id) is recorded before the history line, the receipt after the item
 * file. A retry that finds only the intent asks the item's history whether that receipt was
 * written (the mutation happened: replay it) or not (it never happened: run it).
 */
export class IdempotencyLedger {
  private readonly records = new Map<string, LedgerRecord>();
  private offset = 0;

  constructor(
    private readonly fs: FileSystem,
    private readonly paths: TrackerPaths,
  ) {}

  async find(scope: string, key: string): Promise<LedgerRecord | undefined> {
    await this.follow();
    return this.records.get(compositeKey(scope, key));
  }

  /** Announces a mutation before its history line is written. */
  async intend(scope: string, key: string, fingerprint: string, intent: LedgerIntent): Promise<void> {
    await this.put({ scope, key, fingerprint, intent });
  }

  /** Records the receipt of a finished mutation. */
  async record(scope: string, key: string, fingerprint: string, receipt: Receipt): Promise<void> {
    await this.put({ scope, key, fingerprint, receipt });
  }

  /**
   * Appends one record. A torn line left by a failed or killed writer is cut off first, and a
   * failed append is cut back, so a record is never glued to a fragment (which would make its
   * line unreadable and lose it).
   */
  private async put(record: LedgerRecord): Promise<void> {
    const path = this.paths.idempotencyLedger;
    await this.follow();
    const size = (await this.fs.stat(path))?.size ?? 0;
    if (size > this.offset) await this.fs.truncate(path, this.offset);
    try {
      await this.fs.append(path, `${JSON.stringify(record)}\n`);
    } catch (error) {
      await this.fs.truncate(path, this.offset).catch(() => undefined);
      throw error;
    }
    this.records.set(compositeKey(record.scope, record.key), record);
  }

  private async follow(): Promise<void> {
    const sig = await this.fs.stat(this.paths.idempotencyLedger);
    const size = sig?.size ?? 0;
    if (size < this.offset) {
      this.records.clear();
      this.offset = 0;
    }
    if (size === this.offset) return;
    const text = await this.fs.readTextRange(this.paths.idempotencyLedger, this.offset, size, LEDGER_FILE_READ);
    const complete = text.lastIndexOf('\n') + 1;
    for (const line of text.slice(0, complete).split('\n')) {
      if (!line) continue;
      try {
        const record = JSON.parse(line) as LedgerRecord;
        this.records.set(compositeKey(record.scope, record.key), record);
      } catch {
        // A torn trailing line from a killed writer is skipped; the key simply was not recorded.
      }
    }
    this.offset += utf8Length(text.slice(0, complete));
  }
}

function compositeKey(scope: string, key: string): string {
  return `${scope}\u0000${key}`;
}
