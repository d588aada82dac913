import { readFileSync } from 'node:fs';

/** When the kernel's limit cannot be read (not Linux, /proc hidden): a small, safe count. */
const FALLBACK = 1024;

/**
 * The watch-event count after which a watch-mode refresh checks every file
 * (IndexSyncOptions.watchOverflowAt): half of inotify's per-instance queue capacity,
 * /proc/sys/fs/inotify/max_queued_events (16384 by default), so an overflow — whose
 * IN_Q_OVERFLOW event libuv drops — always crosses it.
 */
export function watchOverflowAt(path = '/proc/sys/fs/inotify/max_queued_events'): number {
  try {
    const queued = Number(readFileSync(path, 'latin1').trim());
    return Number.isInteger(queued) && queued >= 2 ? Math.floor(queued / 2) : FALLBACK;
  } catch {
    return FALLBACK;
  }
}
