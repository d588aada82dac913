import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

let cached: { name: string; version: string } | undefined;

/** The package's name and version (read once from package.json beside dist/ or src/). */
export function packageInfo(): { name: string; version: string } {
  cached ??= JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { name: string; version: string };
  return cached;
}

/** The server identity pm reports in MCP results (io.modelcontextprotocol/serverInfo). */
export function pmServerInfo(): { name: string; title: string; version: string } {
  return { name: 'pm', title: 'pm project tracker', version: packageInfo().version };
}

/** The directory pm is installed in (package.json's), where npm installs or rebuilds its modules. */
export function packageDir(): string {
  return fileURLToPath(new URL('../..', import.meta.url)).replace(/[\\/]$/, '');
}
