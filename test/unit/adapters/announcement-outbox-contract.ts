import type { AnnouncementOutbox } from '../../../src/ports/announcement-outbox.js';

/** What a contract run asks of an adapter: the overflow message and the bound. */
export interface OutboxSubjectOptions {
  readonly overflowMessage: string;
  readonly maxEntries: number;
}

const OVERFLOW = '{"rescan":1}';

/**
 * The shared contract of the AnnouncementOutbox port (docs/DEPLOY.md "When PostgreSQL is down"):
 * announcements kept in order until sent, removed by id, bounded by folding the oldest into one
 * overflow entry. Run against the in-memory outbox and the file-backed one.
 */
export function describeAnnouncementOutboxContract(label: string, subject: (options: OutboxSubjectOptions) => Promise<AnnouncementOutbox>): void {
  describe(`${label}: AnnouncementOutbox (contract)`, () => {
    let outbox: AnnouncementOutbox;
    beforeEach(async () => {
      outbox = await subject({ overflowMessage: OVERFLOW, maxEntries: 4 });
    });
    const messages = async () => (await outbox.pending()).map((entry) => entry.message);

    it('starts empty', async () => {
      expect(await outbox.pending()).toEqual([]);
    });

    it('keeps what is queued in order, each under its own id', async () => {
      await outbox.enqueue(['a']);
      await outbox.enqueue(['b', 'c']);
      await outbox.enqueue([]);
      const pending = await outbox.pending();
      expect(pending.map((entry) => entry.message)).toEqual(['a', 'b', 'c']);
      expect(new Set(pending.map((entry) => entry.id)).size).toBe(3);
    });

    it('removes only the entries named (sent); what was queued since stays', async () => {
      await outbox.enqueue(['a', 'b']);
      const sent = await outbox.pending();
      await outbox.enqueue(['c']);
      await outbox.remove(sent.map((entry) => entry.id));
      expect(await messages()).toEqual(['c']);
      await outbox.remove(['no-such-id']);
      await outbox.remove([]);
      expect(await messages()).toEqual(['c']);
      await outbox.remove((await outbox.pending()).map((entry) => entry.id));
      expect(await outbox.pending()).toEqual([]);
    });

    it('when full, folds the oldest into one overflow entry and keeps the newest in order', async () => {
      await outbox.enqueue(['a', 'b', 'c']);
      await outbox.enqueue(['d', 'e']);
      expect(await messages()).toEqual([OVERFLOW, 'c', 'd', 'e']);
      await outbox.enqueue(['f']);
      expect(await messages()).toEqual([OVERFLOW, 'd', 'e', 'f']);
      await outbox.enqueue(['g', 'h', 'i', 'j', 'k']);
      expect(await messages()).toEqual([OVERFLOW, 'i', 'j', 'k']);
    });

    it('keeps every announcement of concurrent writers', async () => {
      await Promise.all(Array.from({ length: 3 }, (_, i) => outbox.enqueue([`w${i}`])));
      expect((await messages()).sort()).toEqual(['w0', 'w1', 'w2']);
    });
  });
}
