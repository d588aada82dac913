import { EXIT, PM_ERROR_CODES, PmError } from './pm-error.js';

/**
 * Why the storage refused a write or a read, as a stable machine word (docs/TRACKER.md "What
 * reaches the disk when"): the disk or quota is full, the file system is mounted read-only,
 * pm may not write there, or the device failed.
 */
export type StorageFailure = 'storage_full' | 'read_only' | 'permission_denied' | 'storage_error';

/**
 * The platform error codes that mean the storage itself failed, and what each is to pm (docs/TRACKER.md
 * "What reaches the disk when"); one table for the node file system's edge and the fault injector.
 */
const FAILURES_BY_CODE: Readonly<Record<string, StorageFailure>> = Object.freeze({
  ENOSPC: 'storage_full',
  EDQUOT: 'storage_full',
  EFBIG: 'storage_full',
  EROFS: 'read_only',
  EACCES: 'permission_denied',
  EPERM: 'permission_denied',
  EIO: 'storage_error',
});

/** The storage failure a platform error code stands for, or undefined when the code is not one (ENOENT, EEXIST...). */
export function storageFailureOf(code: string | undefined): StorageFailure | undefined {
  return code === undefined ? undefined : FAILURES_BY_CODE[code];
}

/** What a person does about each kind of storage failure. */
const REMEDIES: Readonly<Record<StorageFailure, string>> = Object.freeze({
  storage_full: 'free space on that file system (or raise the quota), then retry; a retry with the same idempotency key completes the change exactly once',
  read_only: 'the file system is mounted read-only: remount it read-write, or run pm where it can write',
  permission_denied: 'pm may not write there: fix the permissions of the tracker directory or run pm as its owner',
  storage_error: 'the device reported an I/O error: check the disk (dmesg, SMART), then retry',
});

const WHAT: Readonly<Record<StorageFailure, string>> = Object.freeze({
  storage_full: 'no space left',
  read_only: 'the file system is read-only',
  permission_denied: 'permission denied',
  storage_error: 'I/O error',
});

/**
 * The storage failed under an operation (a full disk, a read-only mount, a permission, an I/O
 * error). Adapters at the file system's edge translate the platform's error codes into this
 * class, so every host reports the failure the same way: JSON-RPC -31055 with its `reason` and
 * `remedy`, CLI exit 9 (docs/CLI.md "Exit codes"). The write protocol guarantees what a failed
 * mutation leaves behind (docs/TRACKER.md "Mutations"), so the message can say what to do next.
 */
export class StorageError extends PmError {
  readonly jsonRpcCode = PM_ERROR_CODES.storage;
  readonly reason: StorageFailure;
  readonly exitCode = EXIT.storage;

  constructor(reason: StorageFailure, message: string, data: Record<string, unknown> = {}) {
    super(message, { remedy: REMEDIES[reason], ...data });
    this.reason = reason;
  }

  /**
   * The failure of `action` (e.g. "append to") on `path`, with the platform's `code` (ENOSPC,
   * EROFS, ...) kept in the data for diagnosis.
   */
  static of(reason: StorageFailure, action: string, path: string, code: string): StorageError {
    return new StorageError(reason, `cannot ${action} ${path}: ${WHAT[reason]} (${code}); ${REMEDIES[reason]}`, { path, code });
  }

  /** The same failure, its message prefixed with what it meant for the request (`context`). */
  about(context: string, data: Record<string, unknown> = {}): StorageError {
    const error = new StorageError(this.reason, `${context}: ${this.message}`, { ...this.data, ...data });
    error.stack = this.stack;
    return error;
  }
}
