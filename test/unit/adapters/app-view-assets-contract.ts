import type { AppViewAsset, AppViewAssets } from '../../../src/ports/app-view-assets.js';

/** Builds an adapter that holds exactly `assets` (a view with `style: undefined` has no style file). */
export type AppViewAssetsFactory = (assets: Readonly<Record<string, { readonly script: string; readonly style?: string }>>) => Promise<AppViewAssets>;

/**
 * The shared contract of the AppViewAssets port, run against the node adapter (real files in a
 * temp dir) and the in-memory one: a built view reads back exactly, an absent one is undefined,
 * a name that is not a view name is refused before anything is read.
 */
export function describeAppViewAssetsContract(label: string, make: AppViewAssetsFactory): void {
  describe(`${label}: AppViewAssets (contract)`, () => {
    test('a built view reads back byte for byte', async () => {
      const script = 'document.body.dataset.x="é\\u2028";'.repeat(3);
      const adapter = await make({ board: { script, style: 'body{margin:0}' }, 'item-detail': { script: '1', style: '' } });
      expect(await adapter.read('board')).toEqual<AppViewAsset>({ script, style: 'body{margin:0}' });
      expect(await adapter.read('item-detail')).toEqual<AppViewAsset>({ script: '1', style: '' });
    });

    test('a view without a style reads with an empty style; an absent view is undefined', async () => {
      const adapter = await make({ graph: { script: 'g()' } });
      expect(await adapter.read('graph')).toEqual<AppViewAsset>({ script: 'g()', style: '' });
      expect(await adapter.read('history')).toBeUndefined();
    });

    test.each(['../board', 'Board', 'a/b', '', 'board.js', 'x'.repeat(65)])('refuses the name %j', async (name) => {
      const adapter = await make({ board: { script: '1' } });
      await expect(adapter.read(name)).rejects.toThrow(RangeError);
    });
  });
}
