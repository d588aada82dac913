/**
 * The built assets of the MCP Apps views (seed 000 "MCP Apps": one self-contained document per
 * view, built from TypeScript at build time). The package ships them as `<view>.js` and
 * `<view>.css`; a host embedding the SDK reads them wherever it keeps them.
 */

/** One view's bundled, minified script and style. */
export interface AppViewAsset {
  readonly script: string;
  readonly style: string;
}

/** Reads built view assets by view name. */
export interface AppViewAssets {
  /**
   * The assets of `view` (a lower-case name such as `board`), or undefined when this
   * installation has none for it (the views were never built). Other failures reject.
   */
  read(view: string): Promise<AppViewAsset | undefined>;
}

/** What a view name looks like; every adapter refuses (RangeError) any other name before reading. */
export const APP_VIEW_NAME_PATTERN = /^[a-z][a-z0-9-]{0,63}$/;
