import type { IndexFreshness } from '../../ports/index-freshness.js';

/**
 * The IndexFreshness port in memory: a witness that vouches by running the given refresh (an
 * IndexSync in watch mode over the same index, in tests), or none when `refresh` is undefined.
 * {@link start} stands for starting the watcher a real witness spawns after a costly sweep.
 */
export class MemoryIndexFreshness implements IndexFreshness {
  /** The file counts {@link swept} was told, in order. */
  readonly sweeps: number[] = [];
  private refresh: (() => Promise<void>) | undefined;

  constructor(
    refresh?: () => Promise<void>,
    private readonly startFrom = Number.POSITIVE_INFINITY,
    private readonly starter?: () => () => Promise<void>,
  ) {
    this.refresh = refresh;
  }

  async vouch(): Promise<boolean> {
    const refresh = this.refresh;
    if (!refresh) return false;
    try {
      await refresh();
      return true;
    } catch {
      return false;
    }
  }

  swept(files: number): void {
    this.sweeps.push(files);
    if (!this.refresh && this.starter && files >= this.startFrom) this.refresh = this.starter();
  }

  /** Test helper: the witness goes away (a watcher killed), or comes back with another refresh. */
  replace(refresh: (() => Promise<void>) | undefined): void {
    this.refresh = refresh;
  }

  /** Whether a witness is present. */
  get present(): boolean {
    return this.refresh !== undefined;
  }
}
