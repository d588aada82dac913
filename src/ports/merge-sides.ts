/**
 * The two sides of a git merge and the files each side had: what `pm merge fix-ids` needs to
 * tell which branch a reference to a colliding id came from (docs/TRACKER.md "Merges"), and no
 * more. Nothing is ever written.
 */
export interface MergeSides {
  /**
   * The commits a merge in `dir`'s repository joins: a merge in progress (HEAD and MERGE_HEAD),
   * else a merge just made (HEAD's first and second parent); undefined when HEAD is neither
   * (no repository, no commit, or a commit with one parent).
   */
  sidesOf(dir: string): Promise<readonly [string, string] | undefined>;
  /** The text of `file` (an absolute path inside the work tree) at `commit`, undefined when that commit has no such file. */
  fileAt(commit: string, file: string): Promise<string | undefined>;
}
