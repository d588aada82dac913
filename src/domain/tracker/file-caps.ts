import type { FileSignature, OwnFileRead } from '../../ports/file-system.js';
import { RefusedFileError } from '../errors/index.js';

/**
 * The largest item file pm reads: the byte budget of the parsed-items cache (16 MiB), ~25 times
 * an item with 5,000 comments (600 KB). A larger file (or a device that never ends) is refused
 * before a byte is read, so one file cannot take a process's memory (docs/TRACKER.md "What pm
 * reads and writes").
 */
export const ITEM_FILE_MAX_BYTES = 16 * 1024 * 1024;

/** The largest history log pm reads whole or in part: a few lines per change, 4x an item's cap. */
export const HISTORY_FILE_MAX_BYTES = 64 * 1024 * 1024;

/** How an item file is read (a regular file, no link, at most {@link ITEM_FILE_MAX_BYTES}). */
export const ITEM_FILE_READ: OwnFileRead = Object.freeze({ maxBytes: ITEM_FILE_MAX_BYTES });

/** How a history log is read (a regular file, no link, at most {@link HISTORY_FILE_MAX_BYTES}). */
export const HISTORY_FILE_READ: OwnFileRead = Object.freeze({ maxBytes: HISTORY_FILE_MAX_BYTES });

/**
 * Throws the refusal for a tracker file whose signature (lstat) is not a regular file's: a
 * mutation stops before it writes anything rather than writing beside a link or a FIFO.
 */
export function refuseUnlessRegular(path: string, signature: FileSignature | undefined): void {
  const kind = signature?.kind;
  if (kind === undefined) return;
  if (kind === 'symlink') throw new RefusedFileError(path, 'symlink', 'is a symbolic link, not a regular file; pm neither reads nor writes through it');
  throw new RefusedFileError(path, 'not_a_regular_file', `is ${kind === 'directory' ? 'a directory' : 'a FIFO, socket or device'}, not a regular file; pm neither reads nor writes it`);
}

/**
 * How config.yaml and the project files pm edits (`.gitattributes`) are read: a regular file
 * only, no link (a config.yaml linked to /dev/zero is refused before a byte is read, not read
 * until memory runs out), at most 1 MiB, far above any real one (docs/TRACKER.md "What pm reads
 * and writes").
 */
export const PROJECT_FILE_READ: OwnFileRead = Object.freeze({ maxBytes: 1024 * 1024 });

/**
 * How the idempotency ledger is read: a regular file only, no link. It grows with every keyed
 * mutation and is read from where the last read stopped, so its cap (1 GiB) only bounds what a
 * foreign file could make pm read.
 */
export const LEDGER_FILE_READ: OwnFileRead = Object.freeze({ maxBytes: 1024 * 1024 * 1024 });
