import type { ChangeBus } from '../../ports/change-bus.js';
import type { FileSystem } from '../../ports/file-system.js';
import { encodePmItemAnnouncements } from './shared-change-source.js';
import { pmItemIdOfFileName, pmItemVersion } from './tracker-change-source.js';

/** Where an instance's item announcements go: straight onto the bus, or through a PmAnnouncementQueue. */
export interface PmItemAnnouncer {
  readonly maxMessageBytes: number;
  /** Sends (or queues) the messages in order; a rejection is reported, never fails the write. */
  announce(messages: readonly string[]): Promise<void>;
}

/** Announces straight on the bus: a failure is reported and the announcement is gone (tests, embedding hosts). */
export function busAnnouncer(bus: ChangeBus): PmItemAnnouncer {
  return {
    maxMessageBytes: bus.maxMessageBytes,
    announce: async (messages) => {
      for (const message of messages) await bus.publish(message);
    },
  };
}

/**
 * The FileSystem port of an instance that announces its own item writes on the ChangeBus
 * (seed 004 "Transport behavior"; see shared-change-source.ts): after an item file is replaced
 * or removed, the item's id and new version go out, so listen streams on every instance hear
 * it — also where no file watch sees this machine's writes (another host, a network file
 * system). Everything else is the wrapped port itself. A failed announcement is reported
 * through `onError` and never fails the write (the file is the source of truth; file watches
 * still see it); the node composition announces through a PmAnnouncementQueue, which keeps
 * what the bus cannot take until it can (announcement-queue.ts).
 */
export function announcingFileSystem(fs: FileSystem, itemsDir: string | (() => Promise<string | undefined>), announcer: PmItemAnnouncer, onError: (error: unknown) => void): FileSystem {
  // The items directory may be known only once the tracker is found (a CLI `pm init` has none yet).
  let prefix: Promise<string | undefined> | undefined;
  const itemOf = async (path: string): Promise<string | undefined> => {
    prefix ??= (typeof itemsDir === 'string' ? Promise.resolve(itemsDir) : itemsDir().catch(() => undefined)).then((dir) => (dir === undefined ? undefined : `${dir.replace(/\/+$/, '')}/`));
    const start = await prefix;
    if (start === undefined) prefix = undefined; // no tracker yet: ask again next time
    return start !== undefined && path.startsWith(start) && !path.slice(start.length).includes('/') ? pmItemIdOfFileName(path.slice(start.length)) : undefined;
  };
  const announce = async (id: string, existed: boolean, path: string) => {
    try {
      const signature = await fs.stat(path);
      await announcer.announce(encodePmItemAnnouncements([{ id, version: pmItemVersion(signature), listChanged: existed !== (signature !== undefined) }], announcer.maxMessageBytes));
    } catch (error) {
      onError(error);
    }
  };
  const writeAtomic = async (path: string, content: string): Promise<void> => {
    const id = await itemOf(path);
    const existed = id !== undefined && (await fs.stat(path)) !== undefined;
    await fs.writeAtomic(path, content);
    if (id !== undefined) await announce(id, existed, path);
  };
  const remove = async (path: string): Promise<void> => {
    const id = await itemOf(path);
    const existed = id !== undefined && (await fs.stat(path)) !== undefined;
    await fs.remove(path);
    if (id !== undefined && existed) await announce(id, true, path);
  };
  return new Proxy(fs, {
    get(target, property) {
      if (property === 'writeAtomic') return writeAtomic;
      if (property === 'remove') return remove;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
