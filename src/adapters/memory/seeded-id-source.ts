import type { IdSource } from '../../ports/id-source.js';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/** Deterministic ids from a seed (mulberry32), so tests can predict them. */
export class SeededIdSource implements IdSource {
  constructor(private seed = 42) {}

  randomBase36(length: number): string {
    let out = '';
    for (let i = 0; i < length; i++) out += ALPHABET[Math.floor(this.next() * 36)];
    return out;
  }

  private next(): number {
    let t = (this.seed += 0x6d2b79f5);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
}
