import { MemoryFileSystem } from '../../../../src/adapters/memory/memory-file-system.js';
import type { DirectoryEntry, FileSignature, FileSystem, RawReadExpectation, WatchListener } from '../../../../src/ports/file-system.js';
import { ManualClock } from '../../../../src/adapters/memory/manual-clock.js';
import type { PmMcpChange } from '../../../../src/domain/mcp/index.js';
import { pmItemIdOfFileName, PmMcpTrackerChangeSource } from '../../../../src/domain/mcp-tracker/index.js';
import { settle } from '../../../support/subscription-harness.js';

const DIR = '/p/.agents/pm/items';

/**
 * The memory file system with a scripted watch: the test fires watch events itself (as a real
 * watcher would, with or without a name), can hold the first scan, and counts stat calls.
 */
class ScriptedWatchFs implements FileSystem {
  readonly inner = new MemoryFileSystem();
  listeners: WatchListener[] = [];
  stats = 0;
  private held: Promise<void> | undefined;
  private release: (() => void) | undefined;

  holdScans(): void {
    this.held = new Promise((resolve) => (this.release = resolve));
  }
  releaseScans(): void {
    this.release?.();
    this.held = undefined;
  }
  fire(name: string | undefined): void {
    for (const listener of this.listeners) listener(name);
  }

  readText(path: string) { return this.inner.readText(path); }
  readTextRange(path: string, start: number, end?: number) { return this.inner.readTextRange(path, start, end); }
  writeAtomic(path: string, content: string) { return this.inner.writeAtomic(path, content); }
  createExclusive(path: string, content: string) { return this.inner.createExclusive(path, content); }
  append(path: string, content: string) { return this.inner.append(path, content); }
  truncate(path: string, size: number) { return this.inner.truncate(path, size); }
  remove(path: string) { return this.inner.remove(path); }
  isDirectory(path: string) { return this.inner.isDirectory(path); }
  ensureDir(path: string) { return this.inner.ensureDir(path); }
  inspect(path: string) { return this.inner.inspect(path); }
  listEntries(dir: string, options: { readonly limit: number }) { return this.inner.listEntries(dir, options); }
  readBytes(path: string, expect: RawReadExpectation) { return this.inner.readBytes(path, expect); }
  async stat(path: string): Promise<FileSignature | undefined> {
    this.stats++;
    return this.inner.stat(path);
  }
  scans = 0;
  async scan(dir: string): Promise<DirectoryEntry[]> {
    this.scans++;
    await this.held; // a held scan reads the directory only when released (it sees every write made meanwhile)
    return this.inner.scan(dir);
  }
  async visitFiles(dir: string, visit: (name: string, signature: FileSignature) => void): Promise<void> {
    for (const { name, signature } of await this.scan(dir)) visit(name, signature);
  }
  watchTree(dir: string, listener: WatchListener) { return this.inner.watchTree(dir, listener); }
  watch(_dir: string, listener: WatchListener): () => void {
    this.listeners.push(listener);
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }
}

function render(batches: (readonly PmMcpChange[])[]): string[][] {
  return batches.map((batch) => batch.map((c) => (c.kind === 'resourceUpdated' ? c.uri : c.kind)));
}

async function started(fs: FileSystem) {
  const batches: (readonly PmMcpChange[])[] = [];
  const source = new PmMcpTrackerChangeSource(fs, new ManualClock(), DIR);
  const stop = source.start((changes) => batches.push(changes));
  await settle();
  return { batches, stop, source };
}

describe('PmMcpTrackerChangeSource', () => {
  test('file names map to item ids; everything else is ignored', () => {
    expect(pmItemIdOfFileName('pm-a1b2c3.md')).toBe('pm-a1b2c3');
    expect(pmItemIdOfFileName('pm-a1b2c3.md.tmp-12-abcd')).toBeUndefined();
    expect(pmItemIdOfFileName('PM-12.md')).toBeUndefined();
    expect(pmItemIdOfFileName('notes.txt')).toBeUndefined();
    expect(pmItemIdOfFileName('.md')).toBeUndefined();
  });

  test('covers pm://context, pm://claims, pm://items and item URIs only', () => {
    const source = new PmMcpTrackerChangeSource(new MemoryFileSystem(), new ManualClock(), DIR);
    for (const uri of ['pm://context', 'pm://claims', 'pm://items', 'pm://items/', 'pm://items/pm-a1b2c3']) expect(source.coversUri(uri)).toBe(true);
    for (const uri of ['pm://guidance', 'pm://items/PM-12', 'pm://items/pm-a1b2c3/x', 'pm://itemsx', 'file:///etc/passwd']) expect(source.coversUri(uri)).toBe(false);
  });

  test('created, changed and deleted are decided by stat against the scanned signatures', async () => {
    const fs = new ScriptedWatchFs();
    await fs.writeAtomic(`${DIR}/pm-aaa.md`, 'a');
    const { batches } = await started(fs);
    expect(batches).toEqual([]);

    await fs.writeAtomic(`${DIR}/pm-bbb.md`, 'b');
    fs.fire('pm-bbb.md');
    await settle();
    expect(render(batches)).toEqual([['resourcesListChanged', 'pm://items/pm-bbb', 'pm://context', 'pm://claims']]);

    await fs.writeAtomic(`${DIR}/pm-aaa.md`, 'a2');
    fs.fire('pm-aaa.md');
    await settle();
    expect(render(batches)[1]).toEqual(['pm://items/pm-aaa', 'pm://context', 'pm://claims']);

    await fs.remove(`${DIR}/pm-aaa.md`);
    fs.fire('pm-aaa.md');
    await settle();
    expect(render(batches)[2]).toEqual(['resourcesListChanged', 'pm://items/pm-aaa', 'pm://context', 'pm://claims']);

    // A spurious event (nothing changed) and an event for a file that never existed report nothing.
    fs.fire('pm-bbb.md');
    fs.fire('pm-zzz.md');
    fs.fire('pm-bbb.md.tmp-1-ff');
    await settle();
    expect(batches).toHaveLength(3);
  });

  test('an event without a name rescans the directory and reports every difference', async () => {
    const fs = new ScriptedWatchFs();
    await fs.writeAtomic(`${DIR}/pm-aaa.md`, 'a');
    await fs.writeAtomic(`${DIR}/pm-bbb.md`, 'b');
    const { batches } = await started(fs);
    await fs.remove(`${DIR}/pm-aaa.md`);
    await fs.writeAtomic(`${DIR}/pm-bbb.md`, 'b2');
    await fs.writeAtomic(`${DIR}/pm-ccc.md`, 'c');
    fs.fire(undefined);
    await settle();
    expect(render(batches)).toEqual([
      ['pm://items/pm-bbb', 'resourcesListChanged', 'pm://items/pm-ccc', 'resourcesListChanged', 'pm://items/pm-aaa', 'pm://context', 'pm://claims'],
    ]);
  });

  test('more pending names than the bound fall back to one rescan', async () => {
    const fs = new ScriptedWatchFs();
    const batches: (readonly PmMcpChange[])[] = [];
    const stop = new PmMcpTrackerChangeSource(fs, new ManualClock(), DIR, { maxPendingNames: 3 }).start((changes) => batches.push(changes));
    await settle();
    fs.holdScans(); // keep the pass busy so names pile up
    for (let i = 0; i < 10; i++) await fs.writeAtomic(`${DIR}/pm-a${i}0.md`, String(i));
    fs.fire(undefined); // first pass starts (held)
    for (let i = 0; i < 10; i++) fs.fire(`pm-a${i}0.md`);
    const stats = fs.stats;
    fs.releaseScans();
    await settle();
    expect(fs.stats).toBe(stats); // the piled-up names were replaced by one rescan, not stat-ed one by one
    expect(fs.scans).toBe(3); // the first scan, the held pass, the overflow rescan
    const uris = render(batches).flat().filter((u) => u.startsWith('pm://items/'));
    expect(new Set(uris).size).toBe(10);
    expect(uris).toHaveLength(10); // each item once: the overflow rescan found nothing new
    stop();
  });

  test('events that arrive before the first scan finishes are still reported', async () => {
    const fs = new ScriptedWatchFs();
    await fs.writeAtomic(`${DIR}/pm-aaa.md`, 'a');
    fs.holdScans();
    const batches: (readonly PmMcpChange[])[] = [];
    const stop = new PmMcpTrackerChangeSource(fs, new ManualClock(), DIR).start((changes) => batches.push(changes));
    await fs.writeAtomic(`${DIR}/pm-aaa.md`, 'a2'); // raced the scan, which already sees the new signature
    fs.fire('pm-aaa.md');
    fs.releaseScans();
    await settle();
    // Created or changed during the scan cannot be told apart: reported as both, never missed.
    expect(render(batches)).toEqual([['resourcesListChanged', 'pm://items/pm-aaa', 'pm://context', 'pm://claims']]);
    stop();
  });

  test('a write the first scan already saw is reported when its event arrives only after the scan', async () => {
    // The real watcher's event can be delivered after a scan that raced the write has finished
    // (seen with pm-mcp: listen, then an immediate pm_update, lost about one time in three).
    const fs = new ScriptedWatchFs();
    await fs.writeAtomic(`${DIR}/pm-aaa.md`, 'a');
    await fs.writeAtomic(`${DIR}/pm-bbb.md`, 'b');
    fs.holdScans();
    const batches: (readonly PmMcpChange[])[] = [];
    const stop = new PmMcpTrackerChangeSource(fs, new ManualClock(), DIR).start((changes) => batches.push(changes));
    await fs.writeAtomic(`${DIR}/pm-aaa.md`, 'a2'); // lands while the scan runs
    fs.releaseScans();
    await settle(); // the scan finished with the new signature, and no event yet
    expect(batches).toEqual([]);
    fs.fire('pm-aaa.md');
    await settle();
    expect(render(batches)).toEqual([['resourcesListChanged', 'pm://items/pm-aaa', 'pm://context', 'pm://claims']]);
    // Only the first event after the scan is taken on trust: a repeated one with nothing changed reports nothing.
    fs.fire('pm-aaa.md');
    await settle();
    expect(batches).toHaveLength(1);
    stop();
  });

  test('stop frees the watch, and nothing is stat-ed or reported afterwards', async () => {
    const fs = new ScriptedWatchFs();
    const { batches, stop } = await started(fs);
    expect(fs.listeners).toHaveLength(1);
    stop();
    expect(fs.listeners).toHaveLength(0);
    const stats = fs.stats;
    await fs.writeAtomic(`${DIR}/pm-bbb.md`, 'b');
    await settle();
    expect(fs.stats).toBe(stats);
    expect(batches).toEqual([]);
  });

  test('with the in-memory adapter, its synchronous watch drives the source directly', async () => {
    const fs = new MemoryFileSystem();
    await fs.ensureDir(DIR);
    const { batches, stop } = await started(fs);
    expect(fs.watcherCount(DIR)).toBe(1);
    await fs.writeAtomic(`${DIR}/pm-new.md`, 'x');
    await settle();
    expect(render(batches)).toEqual([['resourcesListChanged', 'pm://items/pm-new', 'pm://context', 'pm://claims']]);
    stop();
    expect(fs.watcherCount()).toBe(0);
  });

  test('after the short window following the first scan, an unchanged scanned file reports nothing and a change is a plain update', async () => {
    const fs = new ScriptedWatchFs();
    await fs.writeAtomic(`${DIR}/pm-aaa.md`, 'a');
    const batches: (readonly PmMcpChange[])[] = [];
    const clock = new ManualClock();
    const stop = new PmMcpTrackerChangeSource(fs, clock, DIR).start((changes) => batches.push(changes));
    await settle();
    clock.advance(250); // the window closes on the Clock port: no real wait
    await settle();
    fs.fire('pm-aaa.md');
    await settle();
    expect(render(batches)).toEqual([]);
    await fs.writeAtomic(`${DIR}/pm-aaa.md`, 'a2');
    fs.fire('pm-aaa.md');
    await settle();
    expect(render(batches)).toEqual([['pm://items/pm-aaa', 'pm://context', 'pm://claims']]);
    stop();
  });
});
