/**
 * The git hooks of the repository holding a directory: what installing pm's post-merge hook
 * needs (docs/TRACKER.md "Merges"), and no more. Hook files are git's, not the tracker's:
 * they are read and written here, never through the tracker's FileSystem.
 */
export interface GitHooks {
  /**
   * The absolute path of hook `name` (e.g. `post-merge`) for the repository holding `dir`,
   * where git looks for it: `core.hooksPath` when set, else the common git directory's
   * `hooks/` (shared by every worktree of the clone).
   */
  hookPath(dir: string, name: string): Promise<string>;
  /** `dir` relative to the top of its work tree, where git runs hooks; `''` at the top. */
  workTreePath(dir: string): Promise<string>;
  /** A hook's text, undefined when there is none. */
  read(path: string): Promise<string | undefined>;
  /** Writes a hook whole (readers see the old or the new file), executable, creating its directory. */
  write(path: string, text: string): Promise<void>;
  /** Removes a hook; a missing one is no error. */
  remove(path: string): Promise<void>;
}
