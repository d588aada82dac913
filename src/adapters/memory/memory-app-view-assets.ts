import { APP_VIEW_NAME_PATTERN, type AppViewAsset, type AppViewAssets } from '../../ports/app-view-assets.js';

/** View assets held in memory (tests, and hosts that embed the built assets themselves); counts reads. */
export class MemoryAppViewAssets implements AppViewAssets {
  private readonly assets: ReadonlyMap<string, AppViewAsset>;
  /** How many reads each view had (a test can prove a cache in front of this adapter works). */
  readonly reads = new Map<string, number>();

  constructor(assets: Readonly<Record<string, AppViewAsset>> = {}) {
    this.assets = new Map(Object.entries(assets).map(([view, asset]) => [view, { script: asset.script, style: asset.style }]));
  }

  async read(view: string): Promise<AppViewAsset | undefined> {
    if (!APP_VIEW_NAME_PATTERN.test(view)) throw new RangeError(`not a view name: ${JSON.stringify(view)}`);
    this.reads.set(view, (this.reads.get(view) ?? 0) + 1);
    return this.assets.get(view);
  }
}
