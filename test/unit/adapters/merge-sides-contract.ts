import type { MergeSides } from '../../../src/ports/merge-sides.js';

/** A repository in a given state, with the commits and the one file the contract asks about. */
export interface MergeSidesSubject {
  readonly sides: MergeSides;
  /** A directory inside the work tree. */
  readonly dir: string;
  /** A file (absolute) whose text differs between the two sides. */
  readonly file: string;
  /** A file (absolute) neither side has. */
  readonly missing: string;
}

/**
 * The shared contract of the MergeSides port (docs/TRACKER.md "Merges": `pm merge fix-ids`
 * asks which branch a reference came from), run against the in-memory sides and the system git.
 * `merged` is a repository whose HEAD merged a branch that wrote `file` as "theirs\n" into one
 * that wrote it as "ours\n"; `linear` one whose HEAD has a single parent.
 */
export function describeMergeSidesContract(label: string, subjects: { merged: () => Promise<MergeSidesSubject>; linear: () => Promise<MergeSidesSubject> }): void {
  describe(`${label}: MergeSides (contract)`, () => {
    it('names the two sides of a merge, first the branch merged into, and each side\'s version of a file', async () => {
      const { sides, dir, file, missing } = await subjects.merged();
      const pair = await sides.sidesOf(dir);
      expect(pair).toHaveLength(2);
      expect(pair![0]).not.toBe(pair![1]);
      expect(await sides.fileAt(pair![0], file)).toBe('ours\n');
      expect(await sides.fileAt(pair![1], file)).toBe('theirs\n');
      expect(await sides.fileAt(pair![0], missing)).toBeUndefined();
    });

    it('has no sides when HEAD is not a merge', async () => {
      const { sides, dir } = await subjects.linear();
      expect(await sides.sidesOf(dir)).toBeUndefined();
    });
  });
}
