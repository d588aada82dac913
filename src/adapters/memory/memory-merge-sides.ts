import type { MergeSides } from '../../ports/merge-sides.js';

/**
 * In-memory merge sides: the sides a directory's merge joins and the files each commit holds,
 * both set by the test. A directory has the sides of the nearest directory above it (or itself)
 * that was given some.
 */
export class MemoryMergeSides implements MergeSides {
  private readonly sides = new Map<string, readonly [string, string]>();
  private readonly files = new Map<string, Map<string, string>>();

  /** Declares that the repository at `dir` is in (or just made) a merge of `first` and `second`. */
  setSides(dir: string, first: string, second: string): void {
    this.sides.set(dir, [first, second]);
  }

  /** Records `text` as `file`'s content at `commit`. */
  setFile(commit: string, file: string, text: string): void {
    let tree = this.files.get(commit);
    if (!tree) this.files.set(commit, (tree = new Map()));
    tree.set(file, text);
  }

  async sidesOf(dir: string): Promise<readonly [string, string] | undefined> {
    for (let at = dir; ; at = at.slice(0, at.lastIndexOf('/'))) {
      const sides = this.sides.get(at);
      if (sides) return sides;
      if (!at.includes('/')) return undefined;
    }
  }

  async fileAt(commit: string, file: string): Promise<string | undefined> {
    return this.files.get(commit)?.get(file);
  }
}
