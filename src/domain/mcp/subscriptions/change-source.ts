/**
 * What feeds the subscription registry (2026-07-28 `basic/patterns/subscriptions`; seed 004
 * "Transport behavior"): a change source reports what changed, the registry decides who hears
 * about it. Sources are started when the first listen stream opens and stopped when the last
 * one ends, so an idle server watches nothing.
 */

/** A change worth telling listeners about, named after the `SubscriptionFilter` field that opts in to it. */
export type PmMcpChange =
  | { readonly kind: 'toolsListChanged' }
  | { readonly kind: 'promptsListChanged' }
  | { readonly kind: 'resourcesListChanged' }
  /**
   * The resource at `uri` changed (also sent for a creation or a deletion: re-reading tells
   * which). `version`, when the source knows it, names the state the change produced (for an
   * item file: its signature, or `deleted`), so one change seen by two routes — the local file
   * watch and another instance's announcement — is told once.
   */
  | { readonly kind: 'resourceUpdated'; readonly uri: string; readonly version?: string };

/** Receives one batch of changes (a source reports everything it found in one pass together). */
export type PmMcpChangeEmitter = (changes: readonly PmMcpChange[]) => void;

/** Something that notices changes, e.g. a watch over the tracker's item files. */
export interface PmMcpChangeSource {
  /**
   * True when this source can ever report `resourceUpdated` for `uri` or for a sub-resource of
   * it. Only such URIs are acknowledged on a listen stream (the server never promises
   * notifications it cannot produce).
   */
  coversUri(uri: string): boolean;
  /** Starts noticing changes and reporting them to `emit`; returns the function that stops and frees everything. */
  start(emit: PmMcpChangeEmitter): () => void;
}
