import { readFile } from 'node:fs/promises';
import { APP_VIEW_NAME_PATTERN, type AppViewAsset, type AppViewAssets } from '../../ports/app-view-assets.js';

/**
 * View assets from a directory of built files (the package's `dist/apps/`, written by
 * scripts/build.mjs): `<view>.js` and `<view>.css`. A view whose script is absent reads as
 * undefined (an installation built without the views); a name that is not a plain view name is
 * refused before any path is formed.
 */
export class NodeAppViewAssets implements AppViewAssets {
  constructor(private readonly directory: URL) {}

  async read(view: string): Promise<AppViewAsset | undefined> {
    if (!APP_VIEW_NAME_PATTERN.test(view)) throw new RangeError(`not a view name: ${JSON.stringify(view)}`);
    const script = await readOptional(new URL(`${view}.js`, this.directory));
    if (script === undefined) return undefined;
    const style = (await readOptional(new URL(`${view}.css`, this.directory))) ?? '';
    return { script, style };
  }
}

async function readOptional(file: URL): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
