import { MemoryChangeHub } from '../../../../src/adapters/memory/memory-change-bus.js';
import { MemoryFileSystem } from '../../../../src/adapters/memory/memory-file-system.js';
import type { PmMcpChange, PmMcpChangeEmitter, PmMcpChangeSource } from '../../../../src/domain/mcp/subscriptions/change-source.js';
import { announcingFileSystem, busAnnouncer } from '../../../../src/domain/mcp-tracker/announcing-file-system.js';
import { decodePmItemAnnouncements, encodePmItemAnnouncements, PM_RESCAN_ANNOUNCEMENT, PmMcpSharedChangeSource } from '../../../../src/domain/mcp-tracker/shared-change-source.js';
import { settle } from '../../../support/subscription-harness.js';

const ITEMS = '/p/.agents/pm/items';

/** A local source the test drives by hand (a file watch seeing this machine's writes). */
class HandSource implements PmMcpChangeSource {
  emit: PmMcpChangeEmitter | undefined;
  coversUri(uri: string): boolean {
    return uri.startsWith('pm://');
  }
  start(emit: PmMcpChangeEmitter): () => void {
    this.emit = emit;
    return () => (this.emit = undefined);
  }
}

const uris = (batches: PmMcpChange[][]) => batches.map((batch) => batch.map((c) => (c.kind === 'resourceUpdated' ? c.uri : c.kind)));

describe('PmMcpSharedChangeSource', () => {
  it("delivers another instance's announcement, with the derived resources", async () => {
    const hub = new MemoryChangeHub();
    const local = new HandSource();
    const batches: PmMcpChange[][] = [];
    const stop = new PmMcpSharedChangeSource(local, hub.bus()).start((c) => batches.push([...c]));
    for (const message of encodePmItemAnnouncements([{ id: 'pm-aa1', version: '1:10:5', listChanged: true }], 8_000)) await hub.bus().publish(message);
    await settle();
    expect(uris(batches)).toEqual([['resourcesListChanged', 'pm://items/pm-aa1', 'pm://context', 'pm://claims']]);
    stop();
  });

  it('tells a change that arrives by both routes once, whichever comes first', async () => {
    const hub = new MemoryChangeHub();
    const local = new HandSource();
    const batches: PmMcpChange[][] = [];
    new PmMcpSharedChangeSource(local, hub.bus()).start((c) => batches.push([...c]));
    const watched = (version: string): PmMcpChange[] => [{ kind: 'resourceUpdated', uri: 'pm://items/pm-aa1', version }, { kind: 'resourceUpdated', uri: 'pm://context' }, { kind: 'resourceUpdated', uri: 'pm://claims' }];
    // the watch first, then the announcement of the same write
    local.emit!(watched('1:10:5'));
    await hub.bus().publish(encodePmItemAnnouncements([{ id: 'pm-aa1', version: '1:10:5', listChanged: false }], 8_000)[0]!);
    // the announcement first, then the watch
    await hub.bus().publish(encodePmItemAnnouncements([{ id: 'pm-aa1', version: '1:12:6', listChanged: false }], 8_000)[0]!);
    await settle();
    local.emit!(watched('1:12:6'));
    expect(uris(batches)).toEqual([
      ['pm://items/pm-aa1', 'pm://context', 'pm://claims'],
      ['pm://items/pm-aa1', 'pm://context', 'pm://claims'],
    ]);
  });

  it('passes through local changes that name no version, and ignores foreign messages', async () => {
    const hub = new MemoryChangeHub();
    const local = new HandSource();
    const batches: PmMcpChange[][] = [];
    new PmMcpSharedChangeSource(local, hub.bus()).start((c) => batches.push([...c]));
    local.emit!([{ kind: 'toolsListChanged' }]);
    await hub.bus().publish('not json');
    await hub.bus().publish(JSON.stringify({ items: [['../x', 'v', 0], 'junk'] }));
    await settle();
    expect(uris(batches)).toEqual([['toolsListChanged']]);
    expect(decodePmItemAnnouncements('{"items":3}')).toEqual([]);
  });

  it('tells listeners to re-read everything on a rescan announcement (announcements folded away)', async () => {
    const hub = new MemoryChangeHub();
    const batches: PmMcpChange[][] = [];
    new PmMcpSharedChangeSource(new HandSource(), hub.bus()).start((c) => batches.push([...c]));
    await hub.bus().publish(PM_RESCAN_ANNOUNCEMENT);
    await settle();
    expect(uris(batches)).toEqual([['resourcesListChanged', 'pm://items', 'pm://context', 'pm://claims']]);
    expect(decodePmItemAnnouncements(PM_RESCAN_ANNOUNCEMENT)).toEqual([]);
  });

  it('splits announcements into messages the channel carries', () => {
    const many = Array.from({ length: 400 }, (_, i) => ({ id: `pm-a${String(i).padStart(3, '0')}`, version: `${i}:123456:1700000000000.5`, listChanged: i % 2 === 0 }));
    const messages = encodePmItemAnnouncements(many, 1_000);
    expect(messages.length).toBeGreaterThan(10);
    for (const message of messages) expect(new TextEncoder().encode(message).length).toBeLessThanOrEqual(1_000);
    expect(messages.flatMap(decodePmItemAnnouncements)).toEqual(many);
  });
});

describe('announcingFileSystem', () => {
  it('announces item writes and removals with their new version, and nothing else', async () => {
    const hub = new MemoryChangeHub();
    const errors: unknown[] = [];
    const inner = new MemoryFileSystem();
    const fs = announcingFileSystem(inner, ITEMS, busAnnouncer(hub.bus()), (e) => errors.push(e));
    await fs.ensureDir(ITEMS);
    await fs.writeAtomic(`${ITEMS}/pm-aa1.md`, 'one');
    await fs.writeAtomic(`${ITEMS}/pm-aa1.md`, 'two');
    await fs.writeAtomic(`${ITEMS}/notes.txt`, 'not an item');
    await fs.writeAtomic('/p/.agents/pm/config.yaml', 'x: 1');
    await fs.remove(`${ITEMS}/pm-aa1.md`);
    await fs.remove(`${ITEMS}/pm-aa1.md`); // gone already: nothing to announce
    const announced = hub.published.flatMap(decodePmItemAnnouncements);
    expect(announced.map((a) => [a.id, a.listChanged])).toEqual([['pm-aa1', true], ['pm-aa1', false], ['pm-aa1', true]]);
    expect(announced[2]!.version).toBe('deleted');
    expect(new Set(announced.map((a) => a.version)).size).toBe(3);
    expect(await fs.readText(`${ITEMS}/notes.txt`)).toBe('not an item'); // everything else is the wrapped port
    expect(errors).toEqual([]);
  });

  it('finds the items directory lazily, and announces nothing while there is no tracker', async () => {
    const hub = new MemoryChangeHub();
    const tracker: { itemsDir?: string } = {};
    const fs = announcingFileSystem(new MemoryFileSystem(), async () => tracker.itemsDir, busAnnouncer(hub.bus()), () => undefined);
    await fs.ensureDir(ITEMS);
    await fs.writeAtomic(`${ITEMS}/pm-aa1.md`, 'before the tracker is found');
    tracker.itemsDir = ITEMS;
    await fs.writeAtomic(`${ITEMS}/pm-aa1.md`, 'after');
    expect(hub.published.flatMap(decodePmItemAnnouncements).map((a) => a.listChanged)).toEqual([false]);
  });

  it('never fails the write when the announcement fails', async () => {
    const errors: unknown[] = [];
    const broken = { maxMessageBytes: 8_000, publish: async () => Promise.reject(new Error('bus down')), subscribe: () => () => undefined };
    const fs = announcingFileSystem(new MemoryFileSystem(), ITEMS, busAnnouncer(broken), (e) => errors.push(e));
    await fs.ensureDir(ITEMS);
    await fs.writeAtomic(`${ITEMS}/pm-aa1.md`, 'one');
    expect(await fs.readText(`${ITEMS}/pm-aa1.md`)).toBe('one');
    expect(errors).toEqual([new Error('bus down')]);
  });
});
