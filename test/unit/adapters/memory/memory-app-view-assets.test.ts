import { MemoryAppViewAssets } from '../../../../src/adapters/memory/memory-app-view-assets.js';
import { describeAppViewAssetsContract } from '../app-view-assets-contract.js';

describeAppViewAssetsContract('MemoryAppViewAssets', async (assets) =>
  new MemoryAppViewAssets(Object.fromEntries(Object.entries(assets).map(([view, a]) => [view, { script: a.script, style: a.style ?? '' }]))),
);

test('counts reads per view, refused names included in no count', async () => {
  const adapter = new MemoryAppViewAssets({ board: { script: '1', style: '' } });
  await adapter.read('board');
  await adapter.read('board');
  await adapter.read('graph');
  await expect(adapter.read('../x')).rejects.toThrow(RangeError);
  expect(Object.fromEntries(adapter.reads)).toEqual({ board: 2, graph: 1 });
});
