import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A fresh directory under os.tmpdir() per test, removed afterwards: tests of node adapters and
 * integration tests work on real files without ever touching the repository.
 */
export function useTempDir(prefix = 'pm-test-'): () => string {
  let dir: string | undefined;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), prefix));
  });
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });
  return () => {
    if (!dir) throw new Error('temp dir used outside a test');
    return dir;
  };
}
