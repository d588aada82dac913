import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { NodeAppViewAssets } from '../../../../src/adapters/node/node-app-view-assets.js';
import { useTempDir } from '../../../support/temp-dir.js';
import { describeAppViewAssetsContract } from '../app-view-assets-contract.js';

const temp = useTempDir('pm-app-assets-');

async function directory(assets: Readonly<Record<string, { readonly script: string; readonly style?: string }>>): Promise<URL> {
  const dir = join(temp(), 'apps');
  await mkdir(dir, { recursive: true });
  for (const [view, asset] of Object.entries(assets)) {
    await writeFile(join(dir, `${view}.js`), asset.script);
    if (asset.style !== undefined) await writeFile(join(dir, `${view}.css`), asset.style);
  }
  return pathToFileURL(`${dir}/`);
}

describeAppViewAssetsContract('NodeAppViewAssets', async (assets) => new NodeAppViewAssets(await directory(assets)));

test('a directory that does not exist reads every view as absent; other read failures reject', async () => {
  expect(await new NodeAppViewAssets(pathToFileURL(join(temp(), 'missing/'))).read('board')).toBeUndefined();
  const dir = await directory({});
  await mkdir(join(temp(), 'apps', 'board.js'));
  await expect(new NodeAppViewAssets(dir).read('board')).rejects.toMatchObject({ code: 'EISDIR' });
});
