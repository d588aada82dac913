/**
 * What a platform error code means to pm (src/domain/errors/storage-error.ts; docs/TRACKER.md
 * "What reaches the disk when"): one table for the node file system's edge and the fault
 * injector, and the typed error each storage failure becomes.
 */
import { asStorageError } from '../../../../src/adapters/node/storage-errors.js';
import { StorageError, storageFailureOf } from '../../../../src/domain/errors/storage-error.js';

describe('storageFailureOf', () => {
  it('names the storage failures, and nothing else', () => {
    expect(['ENOSPC', 'EDQUOT', 'EFBIG', 'EROFS', 'EACCES', 'EPERM', 'EIO'].map(storageFailureOf)).toEqual(['storage_full', 'storage_full', 'storage_full', 'read_only', 'permission_denied', 'permission_denied', 'storage_error']);
    expect([undefined, 'ENOENT', 'EEXIST', 'EISDIR'].map(storageFailureOf)).toEqual([undefined, undefined, undefined, undefined]);
  });
});

describe('asStorageError', () => {
  it('types a storage failure with its path, code and -31055, and passes any other error through', () => {
    const typed = asStorageError(Object.assign(new Error('no space'), { code: 'ENOSPC' }), 'append to', '/t/history/pm-a.jsonl');
    expect(typed).toBeInstanceOf(StorageError);
    expect((typed as StorageError).toJsonRpcError()).toMatchObject({ code: -31055, data: { reason: 'storage_full', code: 'ENOSPC', path: '/t/history/pm-a.jsonl' } });
    const missing = Object.assign(new Error('missing'), { code: 'ENOENT' });
    expect(asStorageError(missing, 'read', '/t/x')).toBe(missing);
  });
});
