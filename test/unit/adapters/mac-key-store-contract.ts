import type { MacKeyStore } from '../../../src/ports/mac-key-store.js';

/**
 * The shared contract of the MacKeyStore port (seed 004: `requestState` is HMAC-sealed; a
 * rotation keeps the replaced key verifying), run against the in-memory and file-backed stores.
 */
export function describeMacKeyStoreContract(label: string, subject: () => Promise<{ readonly store: MacKeyStore }>): void {
  describe(`${label}: MacKeyStore (contract)`, () => {
    it('creates one current key on first use and keeps it', async () => {
      const { store } = await subject();
      const first = await store.current();
      expect(first.secret.length).toBeGreaterThanOrEqual(32);
      expect(first.id).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(first.retiredAt).toBeUndefined();
      expect((await store.current()).id).toBe(first.id);
      expect((await store.keys()).map((k) => k.id)).toEqual([first.id]);
    });

    it('rotates: a fresh current key, the old one retired but kept', async () => {
      const { store } = await subject();
      const old = await store.current();
      const fresh = await store.rotate(5_000, 0);
      expect(fresh.id).not.toBe(old.id);
      expect(Buffer.from(fresh.secret).equals(Buffer.from(old.secret))).toBe(false);
      expect((await store.current()).id).toBe(fresh.id);
      const keys = await store.keys();
      expect(keys.map((k) => k.id)).toEqual([fresh.id, old.id]);
      expect(keys[1]!.retiredAt).toBe(5_000);
      expect(Buffer.from(keys[1]!.secret).equals(Buffer.from(old.secret))).toBe(true);
    });

    it('forgets keys retired before the cut-off', async () => {
      const { store } = await subject();
      const a = await store.current();
      const b = await store.rotate(1_000, 0);
      const c = await store.rotate(2_000, 500);
      expect((await store.keys()).map((k) => k.id)).toEqual([c.id, b.id, a.id]);
      const d = await store.rotate(3_000, 1_500);
      expect((await store.keys()).map((k) => k.id)).toEqual([d.id, c.id, b.id]);
    });
  });
}
