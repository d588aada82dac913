import { SERVER_HEAP_GROWING_PERCENT, serverHeapFlag } from '../../../src/composition/server-heap.js';

describe('serverHeapFlag', () => {
  test('bounds the heap growth of a server started without a choice of its own', () => {
    expect(serverHeapFlag([], undefined)).toBe(`--heap-growing-percent=${SERVER_HEAP_GROWING_PERCENT}`);
    expect(serverHeapFlag(['--enable-source-maps'], '--max-old-space-size=512')).toBe(`--heap-growing-percent=${SERVER_HEAP_GROWING_PERCENT}`);
  });

  test('keeps a growth the user chose in node flags or NODE_OPTIONS', () => {
    expect(serverHeapFlag(['--heap-growing-percent=200'], undefined)).toBeUndefined();
    expect(serverHeapFlag([], '--max-old-space-size=512 --heap_growing_percent=10')).toBeUndefined();
  });
});
