import { EXIT, INTERNAL_ERROR, INVALID_PARAMS, PM_ERROR_CODES, PmError } from './pm-error.js';

/** Input that breaks a rule: unknown status, bad priority, malformed argument. */
export class ValidationError extends PmError {
  readonly jsonRpcCode = INVALID_PARAMS;
  readonly reason = 'invalid_input';
  readonly exitCode = EXIT.usage;
}

/** An id or name that does not exist. */
export class NotFoundError extends PmError {
  readonly jsonRpcCode = INVALID_PARAMS;
  readonly reason = 'not_found';
  readonly exitCode = EXIT.notFound;
}

/** No tracker root was found (run `pm init`). */
export class TrackerNotFoundError extends PmError {
  readonly jsonRpcCode = INVALID_PARAMS;
  readonly reason = 'tracker_not_found';
  readonly exitCode = EXIT.notFound;
}

/** The caller's expectedRevision is stale: somebody else changed the item first. */
export class StaleRevisionError extends PmError {
  readonly jsonRpcCode = PM_ERROR_CODES.conflict;
  readonly reason = 'stale_revision';
  readonly exitCode = EXIT.conflict;
}

/** A state conflict other than a stale revision: claimed by someone else, cycle, in use. */
export class ConflictError extends PmError {
  readonly jsonRpcCode = PM_ERROR_CODES.conflict;
  readonly reason: string;
  readonly exitCode = EXIT.conflict;
  constructor(message: string, reason: string, data: Record<string, unknown> = {}) {
    super(message, data);
    this.reason = reason;
  }
}

/** An idempotency key reused for a different request. */
export class IdempotencyConflictError extends PmError {
  readonly jsonRpcCode = PM_ERROR_CODES.conflict;
  readonly reason = 'idempotency_key_reused';
  readonly exitCode = EXIT.conflict;
}

/** The write lock could not be acquired in time. */
export class LockTimeoutError extends PmError {
  readonly jsonRpcCode = PM_ERROR_CODES.locked;
  readonly reason = 'lock_timeout';
  readonly exitCode = EXIT.locked;
}

/** A file on disk does not parse or breaks the schema; nothing was changed. */
export class CorruptDataError extends PmError {
  readonly jsonRpcCode = PM_ERROR_CODES.corrupt;
  readonly reason = 'corrupt_data';
  readonly exitCode = EXIT.corrupt;
}

/** The operation is destructive and the caller did not give explicit consent. */
export class ConsentRequiredError extends PmError {
  readonly jsonRpcCode = PM_ERROR_CODES.consentRequired;
  readonly reason = 'consent_required';
  readonly exitCode = EXIT.consent;
}

/**
 * An item's history chain does not verify (a line was edited, removed or reordered by hand),
 * so a further change would extend a record nobody can trust; nothing was changed. Same code
 * and exit as other corrupt data (docs/TRACKER.md "History").
 */
export class HistoryUnverifiableError extends PmError {
  readonly jsonRpcCode = PM_ERROR_CODES.corrupt;
  readonly reason = 'history_unverifiable';
  readonly exitCode = EXIT.corrupt;
}

/**
 * The shared store (PM_MCP_TASK_STORE: PostgreSQL) cannot be reached; nothing was changed and
 * the same request may be sent again once it is back (seed 004 "MRTR, tasks, and cache
 * behavior": stores shared by several instances).
 */
export class StoreUnavailableError extends PmError {
  readonly jsonRpcCode = PM_ERROR_CODES.storeUnavailable;
  readonly reason = 'store_unavailable';
  readonly exitCode = EXIT.failure;
}

/** Why a tracker file was refused: a link, a node that is not a regular file, or over its cap. */
export type FileRefusal = 'symlink' | 'not_a_regular_file' | 'too_large';

/**
 * A file pm reads or writes as its own (an item, a history log, a task record) is a symbolic
 * link, a FIFO, device or other non-regular node, or larger than its cap, so pm neither opens
 * it through the link nor blocks on it nor reads it whole; nothing was changed
 * (docs/TRACKER.md "What pm reads and writes"). The reason names the refusal.
 */
export class RefusedFileError extends PmError {
  readonly jsonRpcCode = PM_ERROR_CODES.corrupt;
  readonly reason: FileRefusal;
  readonly exitCode = EXIT.corrupt;
  constructor(path: string, reason: FileRefusal, detail: string) {
    super(`${path}: ${detail}`, { path, refusal: reason });
    this.reason = reason;
  }
}

/**
 * The derived index went away under a call: it was found damaged and removed, or it cannot be
 * written and the process now keeps its index in memory (docs/TRACKER.md "When the index is
 * damaged or cannot be written"). Nothing the call asked for was lost: the item files are the
 * truth, and the index sync checks every file again and repeats the query; it reaches a caller
 * only when the index keeps failing.
 */
export class IndexResetError extends PmError {
  readonly jsonRpcCode = INTERNAL_ERROR;
  readonly reason = 'index_reset';
  readonly exitCode = EXIT.failure;
}
