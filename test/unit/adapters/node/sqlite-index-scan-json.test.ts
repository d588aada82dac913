import { scanJson } from '../../../../src/adapters/node/sqlite-index-scan-json.js';
import type { ScannedFiles } from '../../../../src/ports/item-index-store.js';

const scanOf = (files: readonly (readonly [string, number])[]): ScannedFiles => ({ length: files.length, id: (index) => files[index]![0], hash: (index) => files[index]![1] });

describe('scanJson', () => {
  it('writes the scan as a JSON array of [id, hash] pairs, past its first guess of the size', () => {
    const files = Array.from({ length: 3000 }, (_, k): [string, number] => [`pm-${k.toString(36)}${k % 7 === 0 ? '-'.repeat(80) : ''}`, k * 2 ** 20 + 0.5 * (k % 2)]);
    expect(JSON.parse(scanJson(scanOf(files)).toString('utf8'))).toEqual(files);
  });

  it('keeps ids that need escaping or are not ASCII exact, and writes an empty scan as []', () => {
    const files: [string, number][] = [['pm-"quoted"\\', 1], ['pm-é✓😀', 2 ** 47]];
    expect(JSON.parse(scanJson(scanOf(files)).toString('utf8'))).toEqual(files);
    expect(scanJson(scanOf([])).toString('utf8')).toBe('[]');
  });
});
