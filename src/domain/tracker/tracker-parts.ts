import type { Clock } from '../../ports/clock.js';
import type { IdSource } from '../../ports/id-source.js';
import type { ItemIndexStore } from '../../ports/item-index-store.js';
import { NotFoundError, ValidationError } from '../errors/index.js';
import type { TrackerConfig } from './config.js';
import type { HistoryLog } from './history-log.js';
import type { IndexSync } from './index-sync.js';
import type { ItemStore } from './item-store.js';
import { ITEM_ID_PATTERN } from './item.js';
import type { MutationEngine } from './mutation-engine.js';
import type { TrackerPaths } from './tracker-paths.js';

/**
 * What the tracker's queries and mutations share: the stores over the files, the derived
 * index and its sync, the mutation engine and the configuration. One instance per Tracker, so
 * both halves see the same caches and the same write queue.
 */
export interface TrackerParts {
  readonly paths: TrackerPaths;
  readonly clock: Clock;
  readonly ids: IdSource;
  readonly index: ItemIndexStore;
  readonly sync: IndexSync;
  readonly store: ItemStore;
  readonly history: HistoryLog;
  readonly engine: MutationEngine;
  /**
   * Brings the index up to date for a check made inside a mutation (under the write lock):
   * first the earlier writes of the running batch, then what changed outside pm.
   */
  refreshInMutation(): Promise<void>;
  /**
   * Brings the index up to date with what changed outside pm only, inside a mutation, leaving
   * the running batch's earlier writes staged (they are not on disk yet, so the index does not
   * hold them): for a check that reads them from `engine.stagedItems()` instead.
   */
  refreshOutsideBatch(): Promise<void>;
  /** Who a call that names nobody is recorded as. */
  readonly defaultActor: string;
  /** config.yaml, read once (see Tracker.ready). */
  ready(): Promise<TrackerConfig>;
  /** The configuration; only after {@link ready} has resolved. */
  config(): TrackerConfig;
}

/** Refuses anything that is not an item id before a path is built from it. */
export function assertId(id: string): void {
  if (!ITEM_ID_PATTERN.test(id)) throw new ValidationError(`'${id}' is not an item id (expected <prefix>-<base36>, e.g. pm-a1b2c3)`, { field: 'id', value: id });
}

/** Refuses a reference to an item the (refreshed) index does not hold. */
export function requireIndexed(index: ItemIndexStore, id: string): void {
  if (!index.get(id)) throw new NotFoundError(`no item ${id}`, { itemId: id });
}
