/** Randomness for identifiers (item ids, receipt ids, lock tokens). */
export interface IdSource {
  /** A string of `length` random characters from [0-9a-z]. */
  randomBase36(length: number): string;
}
