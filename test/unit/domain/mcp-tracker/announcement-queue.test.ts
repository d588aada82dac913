import { MemoryAnnouncementOutbox } from '../../../../src/adapters/memory/memory-announcement-outbox.js';
import { MemoryChangeHub } from '../../../../src/adapters/memory/memory-change-bus.js';
import { ManualClock } from '../../../../src/adapters/memory/manual-clock.js';
import { StoreUnavailableError } from '../../../../src/domain/errors/index.js';
import type { PmMcpChange, PmMcpChangeSource } from '../../../../src/domain/mcp/subscriptions/change-source.js';
import { PmAnnouncementQueue, type PmAnnouncementQueueLog } from '../../../../src/domain/mcp-tracker/announcement-queue.js';
import { encodePmItemAnnouncements, PM_RESCAN_ANNOUNCEMENT, PmMcpSharedChangeSource } from '../../../../src/domain/mcp-tracker/shared-change-source.js';
import type { ChangeBus } from '../../../../src/ports/change-bus.js';
import { settle } from '../../../support/subscription-harness.js';

/** A bus on a hub that can be taken down (the database stopped) and brought back. */
class OutageBus implements ChangeBus {
  down = false;
  readonly maxMessageBytes = 8_000;
  private readonly inner: ChangeBus;
  constructor(hub: MemoryChangeHub) {
    this.inner = hub.bus();
  }
  publish(message: string): Promise<void> {
    if (this.down) return Promise.reject(new StoreUnavailableError('The shared task store (PostgreSQL) is unreachable (connect ECONNREFUSED); nothing was changed: retry shortly', { retryable: true }));
    return this.inner.publish(message);
  }
  subscribe(onMessage: (message: string) => void): () => void {
    return this.inner.subscribe(onMessage);
  }
}

/** The log calls, by kind. */
function recordingLog() {
  const calls: [string, number | string][] = [];
  const log: PmAnnouncementQueueLog = {
    queued: (count) => calls.push(['queued', count]),
    lost: (count) => calls.push(['lost', count]),
    sent: (count) => calls.push(['sent', count]),
    flushFailed: (error) => calls.push(['flushFailed', String(error)]),
  };
  return { calls, log };
}

const item = (id: string, version: string) => encodePmItemAnnouncements([{ id, version, listChanged: false }], 8_000);

function setup() {
  const hub = new MemoryChangeHub();
  const bus = new OutageBus(hub);
  const outbox = new MemoryAnnouncementOutbox(PM_RESCAN_ANNOUNCEMENT, 100);
  const clock = new ManualClock(0);
  const { calls, log } = recordingLog();
  const queue = new PmAnnouncementQueue(bus, outbox, clock, log);
  return { hub, bus, outbox, clock, calls, queue };
}

describe('PmAnnouncementQueue', () => {
  it('sends straight on the bus while it takes messages, queueing nothing', async () => {
    const { hub, outbox, queue, calls } = setup();
    expect(await queue.flush()).toBe(0); // on start: nothing left by an earlier process
    await queue.announce(['m1', 'm2']);
    expect(hub.published).toEqual(['m1', 'm2']);
    expect(await outbox.pending()).toEqual([]);
    expect(calls).toEqual([]);
  });

  it('queues during an outage, then sends in order before anything newer once the bus is back', async () => {
    const { hub, bus, outbox, queue, calls } = setup();
    await queue.flush();
    bus.down = true;
    await queue.announce(['during-1']);
    await queue.announce(['during-2']);
    await settle();
    expect((await outbox.pending()).map((e) => e.message)).toEqual(['during-1', 'during-2']);
    expect(calls.filter(([kind]) => kind === 'queued')).toEqual([['queued', 1], ['queued', 1]]);
    bus.down = false;
    await queue.announce(['after']); // joins the queue behind the earlier ones
    await queue.flush();
    expect(hub.published).toEqual(['during-1', 'during-2', 'after']);
    expect(await outbox.pending()).toEqual([]);
    expect(calls).toContainEqual(['sent', 3]);
    await queue.announce(['later']);
    expect(hub.published.at(-1)).toBe('later');
    expect(await outbox.pending()).toEqual([]);
  });

  it('tries the queue again on a growing timer until the bus takes it', async () => {
    const { hub, bus, clock, queue } = setup();
    await queue.flush();
    bus.down = true;
    await queue.announce(['m']);
    await settle();
    bus.down = false;
    clock.advance(250);
    await settle();
    expect(hub.published).toEqual(['m']);
  });

  it('sends what an earlier process left queued when a new one starts', async () => {
    const { hub, outbox, clock, bus } = setup();
    await outbox.enqueue(['left-1', 'left-2']);
    const restarted = new PmAnnouncementQueue(bus, outbox, clock, recordingLog().log);
    await restarted.announce(['new']); // before its first flush: queued behind what is left
    await restarted.flush();
    expect(hub.published).toEqual(['left-1', 'left-2', 'new']);
  });

  it('never fails the write: what can neither be sent nor queued is logged as lost', async () => {
    const { bus, outbox, clock } = setup();
    const { calls, log } = recordingLog();
    const broken = Object.assign(Object.create(outbox) as MemoryAnnouncementOutbox, { enqueue: async () => Promise.reject(new Error('disk full')) });
    const queue = new PmAnnouncementQueue(bus, broken, clock, log);
    await queue.flush();
    bus.down = true;
    await expect(queue.announce(['m'])).resolves.toBeUndefined();
    expect(calls).toEqual([['lost', 1]]);
  });

  it('a process killed between sending and cutting sends again; listeners still hear each change once', async () => {
    const { hub, bus, clock, outbox } = setup();
    const listener = new PmMcpSharedChangeSource(silentLocal, hub.bus());
    const batches: PmMcpChange[][] = [];
    listener.start((changes) => batches.push([...changes]));
    const queue = new PmAnnouncementQueue(bus, outbox, clock, recordingLog().log);
    await queue.flush();
    bus.down = true;
    await queue.announce(item('pm-aa1', '1:10:5'));
    await queue.announce(item('pm-aa2', '1:11:6'));
    await settle(); // the tries each write starts fail while the bus is down
    bus.down = false;
    // the cut fails (the process dies right after sending): the entries stay queued
    const remove = outbox.remove.bind(outbox);
    outbox.remove = async () => Promise.reject(new Error('killed'));
    await queue.flush();
    outbox.remove = remove;
    expect(await outbox.pending()).toHaveLength(2);
    await new PmAnnouncementQueue(bus, outbox, clock, recordingLog().log).flush(); // the next start
    await settle();
    expect(hub.published).toHaveLength(4); // sent twice
    const uris = batches.flat().flatMap((c) => (c.kind === 'resourceUpdated' && c.uri.startsWith('pm://items/') ? [c.uri] : []));
    expect(uris).toEqual(['pm://items/pm-aa1', 'pm://items/pm-aa2']);
    expect(await outbox.pending()).toEqual([]);
  });
});

/** A local change source that never reports anything (a host whose file watch cannot see the writer). */
const silentLocal: PmMcpChangeSource = { coversUri: () => true, start: () => () => undefined };
