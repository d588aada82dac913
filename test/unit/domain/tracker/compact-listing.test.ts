import { CompactListing } from '../../../../src/domain/tracker/compact-listing.js';
import type { DirectoryEntry } from '../../../../src/ports/file-system.js';

describe('a compact listing', () => {
  it('gives back every file added, in order, with its exact signature, past its first growth', () => {
    const added: DirectoryEntry[] = Array.from({ length: 3000 }, (_, k) => ({
      name: `pm-${k.toString(36).padStart(8, '0')}.md`,
      signature: { size: k * 7, mtimeMs: 1_764_000_000_000 + k + 0.123456, ino: 2 ** 40 + k, ctimeMs: 1_764_000_000_500 + k + 0.654321 },
    }));
    const listing = new CompactListing();
    for (const { name, signature } of added) listing.add(name, signature);
    expect(listing.length).toBe(3000);
    expect([...listing.entries()]).toEqual(added);
    expect([0, 1023, 1024, 2999].map((at) => listing.at(at))).toEqual([0, 1023, 1024, 2999].map((at) => added[at]));
    expect(() => listing.at(3000)).toThrow(RangeError);
    expect(() => listing.at(-1)).toThrow(RangeError);
    expect(listing.name(2999)).toBe(added[2999]!.name);
    expect(() => listing.name(3000)).toThrow(RangeError);
  });

  it('lists nothing when nothing was added', () => {
    const listing = new CompactListing();
    expect(listing.length).toBe(0);
    expect([...listing.entries()]).toEqual([]);
  });
});
