import type { GitHooks } from '../../../src/ports/git-hooks.js';

/** A repository for the contract: its work tree's top, a directory below it, and where its hooks are expected. */
export interface GitHooksSubject {
  readonly hooks: GitHooks;
  readonly top: string;
  readonly below: string;
  readonly hooksDir: string;
  /** Whether git would run the hook at `path` (it exists and is executable). */
  executable(path: string): Promise<boolean>;
}

/**
 * The shared contract of the GitHooks port (docs/TRACKER.md "Merges": pm's post-merge hook), run
 * against the in-memory hooks and the system git. `subject(hooksPath)` makes a repository whose
 * `core.hooksPath` is `hooksPath` (a path relative to the top) when given.
 */
export function describeGitHooksContract(label: string, subject: (hooksPath?: string) => Promise<GitHooksSubject>): void {
  describe(`${label}: GitHooks (contract)`, () => {
    it('finds the hooks directory from the top and from below it', async () => {
      const { hooks, top, below, hooksDir } = await subject();
      expect(await hooks.hookPath(top, 'post-merge')).toBe(`${hooksDir}/post-merge`);
      expect(await hooks.hookPath(below, 'post-merge')).toBe(`${hooksDir}/post-merge`);
    });

    it('honours core.hooksPath', async () => {
      const { hooks, below, top } = await subject('.githooks');
      expect(await hooks.hookPath(below, 'post-merge')).toBe(`${top}/.githooks/post-merge`);
    });

    it("tells a directory's path from the top of its work tree", async () => {
      const { hooks, top, below } = await subject();
      expect(await hooks.workTreePath(top)).toBe('');
      expect(await hooks.workTreePath(below)).toBe(below.slice(top.length + 1));
    });

    it('writes executable hooks (creating the directory), reads them back and removes them; missing ones are no error', async () => {
      const { hooks, below, executable } = await subject('.githooks');
      const path = await hooks.hookPath(below, 'post-merge');
      expect(await hooks.read(path)).toBeUndefined();
      await hooks.write(path, '#!/bin/sh\necho one\n');
      await hooks.write(path, '#!/bin/sh\necho two\n');
      expect(await hooks.read(path)).toBe('#!/bin/sh\necho two\n');
      expect(await executable(path)).toBe(true);
      await hooks.remove(path);
      await hooks.remove(path);
      expect(await hooks.read(path)).toBeUndefined();
      expect(await executable(path)).toBe(false);
    });
  });
}
