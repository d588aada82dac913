import { createRequire } from 'node:module';
import { HEAP_GROWING_PERCENT, heapFlags, ONE_SHOT_SEMI_SPACE_GROWTH } from '../../../src/composition/heap-growth.js';

/** bin/bundle-loader.cjs sets the same flags before it compiles a bundle (the code cache needs them then). */
const loader = createRequire(import.meta.url)('../../../bin/bundle-loader.cjs') as { heapFlags: typeof heapFlags };

const growth = `--heap-growing-percent=${HEAP_GROWING_PERCENT}`;
const young = `--semi-space-growth-factor=${ONE_SHOT_SEMI_SPACE_GROWTH}`;

describe('heapFlags', () => {
  test('bounds the heap growth of a process started without a choice of its own; a one-shot also keeps its young generation small', () => {
    expect(heapFlags('server', [], undefined)).toEqual([growth]);
    expect(heapFlags('server', ['--enable-source-maps'], '--max-old-space-size=512')).toEqual([growth]);
    expect(heapFlags('one-shot', [], undefined)).toEqual([growth, young]);
  });

  test('keeps a setting the user chose in node flags or NODE_OPTIONS, in either spelling', () => {
    expect(heapFlags('server', ['--heap-growing-percent=200'], undefined)).toEqual([]);
    expect(heapFlags('server', [], '--max-old-space-size=512 --heap_growing_percent=10')).toEqual([]);
    expect(heapFlags('one-shot', [], '--semi_space_growth_factor=3')).toEqual([growth]);
    expect(heapFlags('one-shot', ['--semi-space-growth-factor=2', '--heap-growing-percent=80'], undefined)).toEqual([]);
  });
});

describe('the bundle loader\'s heap flags', () => {
  test.each([
    ['one-shot', [], undefined],
    ['server', [], undefined],
    ['one-shot', ['--heap-growing-percent=0'], undefined],
    ['one-shot', [], '--semi_space_growth_factor=2'],
    ['server', ['--enable-source-maps'], '--max-old-space-size=512'],
  ] as const)('equal heapFlags(%s, %j, %j)', (kind, execArgv, nodeOptions) => {
    expect(loader.heapFlags(kind, execArgv, nodeOptions)).toEqual(heapFlags(kind, execArgv, nodeOptions));
  });
});
