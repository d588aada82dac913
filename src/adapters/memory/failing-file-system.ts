import { StorageError, storageFailureOf } from '../../domain/errors/storage-error.js';
import type { DirectoryEntry, DirectoryListing, FileNodeInfo, FileSignature, FileSystem, OwnFileRead, RawFileRead, RawReadExpectation, WatchListener } from '../../ports/file-system.js';

/** The storage failures a {@link FailingFileSystem} injects, by the platform code they stand for. */
export type StorageFaultCode = 'ENOSPC' | 'EIO' | 'EROFS' | 'EACCES';

/** Which write call fails, and how. */
export interface StorageFault {
  /** The write call that fails, counted from 1 since the fault was armed. */
  readonly at: number;
  readonly code: StorageFaultCode;
  /**
   * `once`: that call alone fails (the space comes back right after). `lasting`: that call and
   * every later write fails until {@link FailingFileSystem.heal} — a disk that stays full (where
   * cutting a file back or removing one still works, as it frees space), a mount that stays
   * read-only, a device that stays broken; as nothing after the fault reaches the disk, it also
   * stands for a process killed at that call.
   */
  readonly mode: 'once' | 'lasting';
  /**
   * A failing append first writes part of its text, as a disk that fills up mid-write does
   * (default: true for ENOSPC). The part ends inside the text's first line, so a torn line is left.
   */
  readonly torn?: boolean;
}

type WriteCall = 'writeAtomic' | 'createExclusive' | 'append' | 'truncate' | 'remove' | 'ensureDir';

/**
 * A FileSystem decorator that fails the Nth write call with a storage error, the way SQLite
 * tests its I/O error paths: a test arms a fault, runs an operation, and enumerates N until the
 * operation completes without reaching it (docs/TRACKER.md "Mutations"). Reads pass through.
 * The failure is the domain's `StorageError`, as the node adapter throws it for the same code.
 * Everything else reaches the wrapped file system unchanged, its options (a tracker-file read's
 * `maxBytes`) included, so its refusals of links, special nodes and oversized files hold.
 */
export class FailingFileSystem implements FileSystem {
  private fault: StorageFault | undefined;
  private calls = 0;
  private failing = false;
  /** How many write calls failed since construction. */
  failures = 0;
  /** The write calls seen since the fault was last armed (or since construction), by kind. */
  readonly log: WriteCall[] = [];

  readonly settleWatch?: () => Promise<void>;
  readonly removeAbandonedTemps?: (dir: string, names: readonly string[]) => Promise<string[]>;

  constructor(private readonly inner: FileSystem) {
    if (inner.settleWatch) this.settleWatch = () => inner.settleWatch!();
    if (inner.removeAbandonedTemps) this.removeAbandonedTemps = (dir, names) => inner.removeAbandonedTemps!(dir, names);
  }

  /** Arms a fault, counting write calls from this moment. */
  failAt(fault: StorageFault): void {
    this.fault = fault;
    this.calls = 0;
    this.failing = false;
    this.log.length = 0;
  }

  /** Clears any fault: every later call succeeds (the space came back, the mount is writable). */
  heal(): void {
    this.fault = undefined;
    this.failing = false;
  }

  /** Whether the armed fault has fired. */
  get fired(): boolean {
    return this.failing || (this.fault !== undefined && this.calls >= this.fault.at);
  }

  /** Write calls seen since the fault was armed. */
  get writeCalls(): number {
    return this.calls;
  }

  readText(path: string, own?: OwnFileRead): Promise<string | undefined> {
    return this.inner.readText(path, own);
  }

  readTextRange(path: string, start: number, end?: number, own?: OwnFileRead): Promise<string> {
    return this.inner.readTextRange(path, start, end, own);
  }

  async writeAtomic(path: string, content: string): Promise<void> {
    this.check('writeAtomic', 'write', path);
    await this.inner.writeAtomic(path, content);
  }

  async createExclusive(path: string, content: string): Promise<boolean> {
    this.check('createExclusive', 'create', path);
    return this.inner.createExclusive(path, content);
  }

  async append(path: string, content: string): Promise<void> {
    const error = this.failure('append', 'append to', path);
    if (!error) return this.inner.append(path, content);
    if (this.fault?.torn ?? this.fault?.code === 'ENOSPC') {
      const firstLine = content.indexOf('\n');
      const part = content.slice(0, Math.max(1, Math.floor((firstLine < 0 ? content.length : firstLine) / 2)));
      await this.inner.append(path, part);
    }
    throw error;
  }

  async truncate(path: string, size: number): Promise<void> {
    this.check('truncate', 'cut back', path);
    await this.inner.truncate(path, size);
  }

  async remove(path: string): Promise<void> {
    this.check('remove', 'remove', path);
    await this.inner.remove(path);
  }

  stat(path: string): Promise<FileSignature | undefined> {
    return this.inner.stat(path);
  }

  isDirectory(path: string): Promise<boolean> {
    return this.inner.isDirectory(path);
  }

  scan(dir: string): Promise<DirectoryEntry[]> {
    return this.inner.scan(dir);
  }

  visitFiles(dir: string, visit: (name: string, signature: FileSignature) => void): Promise<void> {
    return this.inner.visitFiles(dir, visit);
  }

  async ensureDir(path: string): Promise<void> {
    this.check('ensureDir', 'create the directory', path);
    await this.inner.ensureDir(path);
  }

  watch(dir: string, listener: WatchListener): () => void {
    return this.inner.watch(dir, listener);
  }

  watchTree(dir: string, listener: WatchListener): () => void {
    return this.inner.watchTree(dir, listener);
  }

  inspect(path: string): Promise<FileNodeInfo | undefined> {
    return this.inner.inspect(path);
  }

  listEntries(dir: string, options: { readonly limit: number }): Promise<DirectoryListing> {
    return this.inner.listEntries(dir, options);
  }

  readBytes(path: string, expect: RawReadExpectation): Promise<RawFileRead> {
    return this.inner.readBytes(path, expect);
  }

  private check(call: WriteCall, action: string, path: string): void {
    const error = this.failure(call, action, path);
    if (error) throw error;
  }

  /** Counts a write call; the error it fails with, if the armed fault says so. */
  private failure(call: WriteCall, action: string, path: string): StorageError | undefined {
    this.calls++;
    this.log.push(call);
    const fault = this.fault;
    if (!fault) return undefined;
    if (this.calls === fault.at) this.failing = fault.mode === 'lasting';
    else if (!this.failing) return undefined;
    // A disk that stays full still lets a file be cut back or removed: that frees space.
    if (this.calls !== fault.at && fault.code === 'ENOSPC' && (call === 'truncate' || call === 'remove')) return undefined;
    this.failures++;
    return StorageError.of(storageFailureOf(fault.code)!, action, path, fault.code);
  }
}
