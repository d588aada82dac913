import type { MacKey, MacKeyStore } from '../../ports/mac-key-store.js';

/** Keys in memory (tests, embedding hosts): secrets from `secrets` (default: counter-seeded bytes, deterministic). */
export class MemoryMacKeyStore implements MacKeyStore {
  private list: MacKey[] = [];
  private next = 1;

  constructor(
    private readonly clock: { now(): number },
    private readonly secrets: (n: number) => Uint8Array = (n) => new Uint8Array(32).map((_, i) => (n * 31 + i * 7) & 0xff),
  ) {}

  async current(): Promise<MacKey> {
    if (!this.list.length) this.list = [this.make(this.clock.now())];
    return this.list[0]!;
  }

  async keys(): Promise<readonly MacKey[]> {
    await this.current();
    return [...this.list];
  }

  async rotate(now: number, dropRetiredBefore: number): Promise<MacKey> {
    const previous = (await this.keys()).map((key, index) => (index === 0 ? { ...key, retiredAt: now } : key));
    const fresh = this.make(now);
    this.list = [fresh, ...previous.filter((key) => key.retiredAt === undefined || key.retiredAt >= dropRetiredBefore)];
    return fresh;
  }

  private make(now: number): MacKey {
    const n = this.next++;
    return Object.freeze({ id: `k${n}`, secret: this.secrets(n), createdAt: now });
  }
}
