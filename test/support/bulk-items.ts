/**
 * Writes many items straight into a tracker's item files (the bytes the tracker writes, through
 * serializeItem), so a unit test can hold ten thousand items in memory in about a second (an
 * integration test writes them to disk through the node file system).
 * No history is written: the tracker treats such items as created outside pm.
 */
import type { Item } from '../../src/domain/tracker/item.js';
import { serializeItem } from '../../src/domain/tracker/item-codec.js';
import type { FileSystem } from '../../src/ports/file-system.js';

/** A long title near the tool schemas' bound: the costliest rows a list can hold. */
export function longTitle(i: number): string {
  return `Login flow item ${i}: ${'the session token refresh fails under load and the retry hides it; '.repeat(7)}`.slice(0, 480);
}

/** Writes `count` items under `itemsDir`; every third is claimed (until after the memory clock's start), one in seven blocks the previous item. */
export async function writeBulkItems(fs: Pick<FileSystem, 'writeAtomic'>, itemsDir: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = `pm-b${i.toString(36).padStart(6, '0')}`;
    const at = new Date(Date.parse('2026-02-01T00:00:00.000Z') + i * 60_000).toISOString();
    const claimed = i % 3 === 0;
    const item: Item = {
      id,
      title: longTitle(i),
      type: 'Task',
      status: claimed ? 'in_progress' : 'open',
      priority: i % 5,
      tags: ['login', 'session', `batch${i % 20}`],
      ...(claimed ? { assignee: 'carol', claim: { holder: 'carol', claimedAt: at, expiresAt: '2026-03-05T00:00:00.000Z' } } : {}),
      blockedBy: i % 7 === 6 ? [ids[i - 1]!] : [],
      related: [],
      acceptance: [],
      files: [],
      tests: [],
      custom: {},
      comments: [],
      created: at,
      updated: at,
      revision: 1,
      body: `The login flow fails for item ${i}. ${'Steps: sign in, wait for the refresh, watch the retry. '.repeat(3)}`,
    } as unknown as Item;
    await fs.writeAtomic(`${itemsDir}/${id}.md`, serializeItem(item));
    ids.push(id);
  }
  return ids;
}
