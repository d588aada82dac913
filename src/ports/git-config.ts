/** One entry of a git config section, its key as git prints it (`merge.pm-item.driver`). */
export interface GitConfigEntry {
  readonly key: string;
  readonly value: string;
}

/**
 * The clone-local git configuration (`.git/config`) of the repository holding a directory:
 * what registering pm's merge drivers needs, and no more. Only the local file is ever
 * written; global and system settings are neither read nor changed.
 */
export interface GitConfig {
  /** Whether `dir` is inside a git work tree. */
  isRepository(dir: string): Promise<boolean>;
  /** The local entries whose key starts with `section.` (e.g. `merge.pm-item`), in file order. */
  entries(dir: string, section: string): Promise<GitConfigEntry[]>;
  /** Sets one local key, replacing its value. */
  set(dir: string, key: string, value: string): Promise<void>;
  /** Removes one local key; a missing key is not an error. */
  unset(dir: string, key: string): Promise<void>;
  /** Removes a whole local section (its header too); a missing section is not an error. */
  removeSection(dir: string, section: string): Promise<void>;
}
