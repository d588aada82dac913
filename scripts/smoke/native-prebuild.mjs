// better-sqlite3 in the gate's installs, on a Node without a usable node:sqlite (before 22.16;
// docs/TRACKER.md "SQLite drivers"): pm's fallback package brings it only to an install of the
// clone itself, so a consumer of the tarball adds it as its own dependency (what docs/RELEASE.md
// tells such users to do), and the gate reuses the work tree's build for it. better-sqlite3 installs
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

/** Whether pm uses better-sqlite3 under Node `version` (no node:sqlite with rows as arrays: before 22.16). */
export function needsBetterSqlite(version = process.versions.node) {
  const [major, minor] = version.split('.').map(Number);
  return major < 22 || (major === 22 && minor < 16);
}

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
 * environment), or { skipped: reason } when this Node needs none or the work tree has no built binary.
 */
export async function packLocalPrebuild(root, dir) {
  if (!needsBetterSqlite()) return { skipped: `Node ${process.versions.node} has node:sqlite, pm installs no native module` };
  const pkgDir = join(root, 'node_modules', 'better-sqlite3');
  const binary = join(pkgDir, 'build', 'Release', 'better_sqlite3.node');
  if (!existsSync(binary)) return { skipped: `no ${binary}` };
  const { version } = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
  const asset = prebuildAssetName(version, { libc: libcTag() });
  mkdirSync(dir, { recursive: true });
  await run('tar', ['-czf', join(dir, asset), '-C', pkgDir, 'build/Release/better_sqlite3.node'], { timeoutMs: 60_000 });
  return { dir, version, asset, env: { npm_config_better_sqlite3_local_prebuilds: dir } };
}
