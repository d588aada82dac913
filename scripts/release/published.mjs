// The published artifact in the release gate (seed 004 "Rollout, rollback, and proof": SDK
// primitives, direct server calls, real stdio, packed artifacts, npx, bunx and published
// artifacts agree; docs/RELEASE.md "The published artifact"). The registry's copy of a version
// must be the very tarball the gate packed and tested — same name, version and sha512
// integrity — and, installed from the registry, it must answer like every other consumer.

/** An exact version or a dist-tag: what one published artifact is named by. */
const VERSION = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;
const TAG = /^[A-Za-z][0-9A-Za-z._-]*$/;

/**
 * Parses `--published <spec>`: `<name>@<version or dist-tag>` for this package (a range could
 * name several artifacts, another name another package). Throws an Error saying what to give.
 */
export function parsePublishedSpec(spec, packageName) {
  if (typeof spec !== 'string' || spec === '') throw new Error(`--published needs a spec: ${packageName}@<version> or ${packageName}@<dist-tag>`);
  const at = spec.lastIndexOf('@');
  if (at <= 0) throw new Error(`--published ${spec}: give ${packageName}@<version> or ${packageName}@<dist-tag>`);
  const name = spec.slice(0, at);
  const selector = spec.slice(at + 1);
  if (name !== packageName) throw new Error(`--published ${spec}: the gate checks ${packageName}, not ${name}`);
  if (VERSION.test(selector)) return { spec, name, version: selector };
  if (TAG.test(selector)) return { spec, name, tag: selector };
  throw new Error(`--published ${spec}: "${selector}" is neither an exact version nor a dist-tag (ranges may name several artifacts)`);
}

/**
 * What `npm view <spec> name version dist.integrity dist.tarball --json` printed, as one record;
 * an array (a selector matching several versions) or missing fields are refused.
 */
export function readRegistryView(stdout, spec) {
  let view;
  try {
    view = JSON.parse(stdout);
  } catch {
    throw new Error(`npm view ${spec} did not print JSON: ${String(stdout).slice(0, 200)}`);
  }
  if (Array.isArray(view)) throw new Error(`npm view ${spec} names ${view.length} versions; give one exact version`);
  const record = { name: view?.name, version: view?.version, integrity: view?.['dist.integrity'], tarball: view?.['dist.tarball'] };
  const missing = Object.entries(record).filter(([, value]) => typeof value !== 'string' || value === '').map(([key]) => key);
  if (missing.length) throw new Error(`npm view ${spec}: no ${missing.join(', ')} in ${JSON.stringify(view).slice(0, 200)}`);
  return record;
}

/** Every way the registry's artifact differs from the packed one (empty: they are the same artifact). */
export function publishedDifferences(registry, packed) {
  const differences = [];
  if (registry.name !== packed.name) differences.push(`name: registry ${registry.name}, packed ${packed.name}`);
  if (registry.version !== packed.version) differences.push(`version: registry ${registry.version}, packed ${packed.version}`);
  if (registry.integrity !== packed.integrity) differences.push(`sha512: registry ${registry.integrity}, packed ${packed.integrity} (the published tarball is not the one this gate tested)`);
  return differences;
}
