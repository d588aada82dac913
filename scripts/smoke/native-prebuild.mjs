// Reuse of the work tree's better-sqlite3 build in the gate's installs. better-sqlite3 installs
// with `prebuild-install || node-gyp rebuild`; where no prebuilt binary can be downloaded it
// builds SQLite from source (minutes on 2 cores), once per install: the consumer, npx and bunx
// would each pay it. prebuild-install first looks for a "local prebuild" in the directory named
// by npm_config_better_sqlite3_local_prebuilds, so the gate packs the binary this work tree
// already built and tested into that directory under the name prebuild-install asks for.
// Only the same better-sqlite3 version for the same Node ABI matches; anything else builds as
// usual (slower, never wrong). The consumer pins that version (package.json `overrides`).
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { run } from './process.mjs';

/** `better-sqlite3-v12.11.1-node-v115-linux-x64.tar.gz`: prebuild-install's asset name for this process. */
export function prebuildAssetName(version, { abi = process.versions.modules, platform = process.platform, arch = process.arch, libc = '' } = {}) {
  return `better-sqlite3-v${version}-node-v${abi}-${platform}${libc}-${arch}.tar.gz`;
}

/** 'musl' on a Linux without glibc (prebuild-install's libc tag), else ''. */
function libcTag() {
  if (process.platform !== 'linux') return '';
  const header = process.report?.getReport?.().header;
  return header && !header.glibcVersionRuntime ? 'musl' : '';
}

/**
 * Packs `<root>/node_modules/better-sqlite3/build/Release/better_sqlite3.node` as a local prebuild
 * under `dir`. Returns { dir, version, asset, env } (env: what to add to the installs'
 * environment), or { skipped: reason } when the work tree has no built binary.
 */
export async function packLocalPrebuild(root, dir) {
  const pkgDir = join(root, 'node_modules', 'better-sqlite3');
  const binary = join(pkgDir, 'build', 'Release', 'better_sqlite3.node');
  if (!existsSync(binary)) return { skipped: `no ${binary}` };
  const { version } = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
  const asset = prebuildAssetName(version, { libc: libcTag() });
  mkdirSync(dir, { recursive: true });
  await run('tar', ['-czf', join(dir, asset), '-C', pkgDir, 'build/Release/better_sqlite3.node'], { timeoutMs: 60_000 });
  return { dir, version, asset, env: { npm_config_better_sqlite3_local_prebuilds: dir } };
}
