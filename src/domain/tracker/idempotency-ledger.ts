import type { FileSystem } from '../../ports/file-system.js';
import { utf8Length } from '../util/utf8.js';
import type { Receipt } from './receipt.js';
import type { TrackerPaths } from './tracker-paths.js';

interface LedgerRecord {
  readonly scope: string;
  readonly key: string;
  readonly fingerprint: string;
  readonly receipt: Receipt;
}

/**
 * Remembers which idempotency keys were used, by whom and for which request, in an
 * append-only file under the runtime area. Followed by byte offset so every process sees the
 * keys other processes recorded; read and written only under the write lock.
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

  async record(scope: string, key: string, fingerprint: string, receipt: Receipt): Promise<void> {
    const record: LedgerRecord = { scope, key, fingerprint, receipt };
    await this.fs.append(this.paths.idempotencyLedger, `${JSON.stringify(record)}\n`);
    this.records.set(compositeKey(scope, key), record);
  }

  private async follow(): Promise<void> {
    const sig = await this.fs.stat(this.paths.idempotencyLedger);
    const size = sig?.size ?? 0;
    if (size < this.offset) {
      this.records.clear();
      this.offset = 0;
    }
    if (size === this.offset) return;
    const text = await this.fs.readTextRange(this.paths.idempotencyLedger, this.offset, size);
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
