import type { ChangeBus } from '../../ports/change-bus.js';
import type { PmMcpChange, PmMcpChangeEmitter, PmMcpChangeSource } from '../mcp/subscriptions/change-source.js';
import { ITEM_ID_PATTERN } from '../tracker/item.js';
import { PM_MCP_CLAIMS_URI, PM_MCP_CONTEXT_URI, PM_MCP_ITEMS_URI, pmMcpItemUri } from './tracker-change-source.js';

/**
 * Change notifications across pm-mcp-http instances (seed 004 "Transport behavior"; 2026-07-28
 * `basic/patterns/subscriptions`): the instance that writes an item announces it on the
 * ChangeBus (PostgreSQL LISTEN/NOTIFY in the node composition), and every instance's listen
 * streams hear it; the local file watch stays, for writes by the CLI or by hand.
 *
 * One write can therefore arrive twice — by the announcement and by the file watch of an
 * instance on the same machine. Every item change names the version it produced (the file's
 * signature, or `deleted`), and an (item, version) already delivered is dropped, whichever
 * route brings it first: each stream hears each change once.
 */

/** One announced item change: its id, the version it produced, and whether the item list changed (created or deleted). */
export interface PmAnnouncedItemChange {
  readonly id: string;
  readonly version: string;
  readonly listChanged: boolean;
}

/**
 * The announcement standing for changes whose own announcements were folded away (a full
 * announcement queue, or a queue file found damaged; docs/DEPLOY.md "When PostgreSQL is down"):
 * receivers tell their listeners that the item list, every item, the context and the claims
 * may have changed, so clients re-read.
 */
export const PM_RESCAN_ANNOUNCEMENT = '{"rescan":1}';

/** What a rescan announcement tells listeners. */
const RESCAN_CHANGES: readonly PmMcpChange[] = Object.freeze([
  { kind: 'resourcesListChanged' },
  { kind: 'resourceUpdated', uri: PM_MCP_ITEMS_URI },
  { kind: 'resourceUpdated', uri: PM_MCP_CONTEXT_URI },
  { kind: 'resourceUpdated', uri: PM_MCP_CLAIMS_URI },
]);

/** Whether a bus message is a rescan announcement. */
export function isPmRescanAnnouncement(message: string): boolean {
  try {
    return (JSON.parse(message) as { rescan?: unknown }).rescan === 1;
  } catch {
    return false;
  }
}

/** How many delivered (item, version) pairs are remembered to drop their second arrival. */
const SEEN_LIMIT = 4_096;

/** Encodes announcements as bus messages no longer than `maxBytes` each. */
export function encodePmItemAnnouncements(changes: readonly PmAnnouncedItemChange[], maxBytes: number): string[] {
  const messages: string[] = [];
  let batch: [string, string, number][] = [];
  let size = 8;
  const flush = () => {
    if (batch.length) messages.push(JSON.stringify({ items: batch }));
    batch = [];
    size = 8;
  };
  for (const change of changes) {
    const entry: [string, string, number] = [change.id, change.version, change.listChanged ? 1 : 0];
    const bytes = new TextEncoder().encode(JSON.stringify(entry)).length + 1;
    if (size + bytes + 4 > maxBytes) flush();
    batch.push(entry);
    size += bytes;
  }
  flush();
  return messages;
}

/** Decodes a bus message; anything malformed yields nothing (another program on the channel). */
export function decodePmItemAnnouncements(message: string): PmAnnouncedItemChange[] {
  try {
    const parsed = JSON.parse(message) as { items?: unknown };
    if (!Array.isArray(parsed.items)) return [];
    return parsed.items.flatMap((entry: unknown) => {
      if (!Array.isArray(entry) || typeof entry[0] !== 'string' || typeof entry[1] !== 'string' || !ITEM_ID_PATTERN.test(entry[0])) return [];
      return [{ id: entry[0], version: entry[1], listChanged: entry[2] === 1 }];
    });
  } catch {
    return [];
  }
}

/** A change source over the local one (the file watch) and the bus, delivering each (item, version) once. */
export class PmMcpSharedChangeSource implements PmMcpChangeSource {
  constructor(
    private readonly local: PmMcpChangeSource,
    private readonly bus: ChangeBus,
  ) {}

  coversUri(uri: string): boolean {
    return this.local.coversUri(uri);
  }

  start(emit: PmMcpChangeEmitter): () => void {
    const seen = new Map<string, true>();
    /** The changes of `items` not delivered yet, with the derived resources (context, claims), or nothing. */
    const fresh = (items: readonly PmAnnouncedItemChange[]): PmMcpChange[] => {
      const out: PmMcpChange[] = [];
      let listChanged = false;
      for (const item of items) {
        const key = `${item.id}@${item.version}`;
        if (seen.has(key)) continue;
        seen.set(key, true);
        if (seen.size > SEEN_LIMIT) seen.delete(seen.keys().next().value!);
        listChanged ||= item.listChanged;
        out.push({ kind: 'resourceUpdated', uri: pmMcpItemUri(item.id), version: item.version });
      }
      if (!out.length) return out;
      return [...(listChanged ? [{ kind: 'resourcesListChanged' } as const] : []), ...out, { kind: 'resourceUpdated', uri: PM_MCP_CONTEXT_URI }, { kind: 'resourceUpdated', uri: PM_MCP_CLAIMS_URI }];
    };
    const stopBus = this.bus.subscribe((message) => {
      if (isPmRescanAnnouncement(message)) return emit(RESCAN_CHANGES);
      const changes = fresh(decodePmItemAnnouncements(message));
      if (changes.length) emit(changes);
    });
    const stopLocal = this.local.start((changes) => {
      const items = localItems(changes);
      if (!items) return emit(changes); // nothing versioned (another kind of change): as it is
      const out = fresh(items);
      if (out.length) emit(out);
    });
    return () => {
      stopBus();
      stopLocal();
    };
  }
}

/** The versioned item changes of a local batch (the batch's list change applies to each), or undefined when it has none. */
function localItems(changes: readonly PmMcpChange[]): PmAnnouncedItemChange[] | undefined {
  const listChanged = changes.some((change) => change.kind === 'resourcesListChanged');
  const prefix = pmMcpItemUri('');
  const items: PmAnnouncedItemChange[] = [];
  for (const change of changes) {
    if (change.kind !== 'resourceUpdated' || change.version === undefined || !change.uri.startsWith(prefix)) continue;
    items.push({ id: change.uri.slice(prefix.length), version: change.version, listChanged });
  }
  return items.length ? items : undefined;
}
