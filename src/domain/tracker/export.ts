import type { Clock } from '../../ports/clock.js';
import type { FileSystem } from '../../ports/file-system.js';
import type { Hasher } from '../../ports/hasher.js';
import type { IdSource } from '../../ports/id-source.js';
import { ValidationError } from '../errors/index.js';
import type { Item } from './item.js';
import { MAX_LIST_LIMIT, type ListQuery, type ListResult } from './list-query.js';
import type { TrackerPaths } from './tracker-paths.js';
import { periodicYield } from '../util/yield.js';

/** The formats of an export: one JSON document, or one item per line. */
export const TRACKER_EXPORT_FORMATS = ['json', 'jsonl'] as const;
export type TrackerExportFormat = (typeof TRACKER_EXPORT_FORMATS)[number];

/** Where an export went and what it holds. */
export interface TrackerExport {
  readonly format: TrackerExportFormat;
  /** Absolute path of the file, under the runtime area's `exports/`. */
  readonly path: string;
  readonly items: number;
  readonly bytes: number;
  /** `sha256:<hex>` of the file's bytes. */
  readonly digest: string;
  readonly exportedAt: string;
}

/** What an export reads and writes with. */
export interface TrackerExportDeps {
  readonly fs: FileSystem;
  readonly clock: Clock;
  readonly ids: IdSource;
  readonly hasher: Hasher;
  readonly paths: TrackerPaths;
  list(query: ListQuery): Promise<ListResult>;
  get(id: string): Promise<Item>;
}

/**
 * Writes every item (open and closed, full front matter, comments and body), ordered by id, to
 * a new file in the tracker's git-ignored runtime area (docs/TRACKER.md "Export"): `json` is
 * `{ format: "pm-export", version: 1, exportedAt, items }`, `jsonl` one item per line. The file
 * appears whole or not at all (an atomic write at the end); `signal` stops the export between
 * items, and then nothing is written. Items deleted while the export runs are left out.
 */
export async function exportTrackerItems(deps: TrackerExportDeps, format: TrackerExportFormat, signal?: AbortSignal): Promise<TrackerExport> {
  const { text, items, exportedAt } = await exportText(deps, format, signal);
  const stamp = exportedAt.replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  const path = `${deps.paths.runtime}/exports/export-${stamp}-${deps.ids.randomBase36(6)}.${format}`;
  await deps.fs.ensureDir(`${deps.paths.runtime}/exports`);
  await deps.fs.writeAtomic(path, text);
  return { format, path, items, bytes: new TextEncoder().encode(text).length, digest: `sha256:${deps.hasher.sha256Hex(text)}`, exportedAt };
}

/** An export's text without a file (`pm export --stdout`): the same document, byte for byte, as the file would hold. */
export interface TrackerExportText {
  readonly text: string;
  readonly items: number;
  readonly exportedAt: string;
}

/** The export document of every item (see {@link exportTrackerItems}), for writing anywhere. */
export async function exportText(deps: Pick<TrackerExportDeps, 'clock' | 'list' | 'get'>, format: TrackerExportFormat, signal?: AbortSignal): Promise<TrackerExportText> {
  if (!(TRACKER_EXPORT_FORMATS as readonly string[]).includes(format)) throw new ValidationError(`format must be one of ${TRACKER_EXPORT_FORMATS.join(', ')}, got ${JSON.stringify(format)}`, { field: 'format' });
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await deps.list({ all: true, sort: 'id', order: 'asc', limit: MAX_LIST_LIMIT, ...(cursor ? { cursor } : {}) });
    for (const summary of page.items) ids.push(summary.id);
    cursor = page.nextCursor;
  } while (cursor);
  const items: Item[] = [];
  const pause = periodicYield();
  for (const id of ids) {
    await pause();
    signal?.throwIfAborted();
    const item = await deps.get(id).catch(() => undefined);
    if (item) items.push(item);
  }
  signal?.throwIfAborted();
  const exportedAt = new Date(deps.clock.now()).toISOString();
  const text = format === 'json' ? `${JSON.stringify({ format: 'pm-export', version: 1, exportedAt, items })}\n` : items.map((item) => `${JSON.stringify(item)}\n`).join('');
  return { text, items: items.length, exportedAt };
}
