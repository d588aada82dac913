import { StorageError, storageFailureOf } from '../../domain/errors/storage-error.js';

/** The typed failure for a node:fs error of `action` on `path`, or the error itself when it is not a storage failure (storageFailureOf). */
export function asStorageError(error: unknown, action: string, path: string): unknown {
  if (error instanceof StorageError) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const reason = storageFailureOf(code);
  return reason === undefined ? error : StorageError.of(reason, action, path, code!);
}

/** Runs a file operation, translating a storage failure at this edge (see {@link asStorageError}). */
export async function translated<T>(action: string, path: string, operation: () => T | Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    throw asStorageError(error, action, path);
  }
}
