/**
 * The published artifact's place in the release gate (scripts/release/published.mjs;
 * docs/RELEASE.md "The published artifact"; seed 004 "Rollout, rollback, and proof"): which
 * specs name exactly one artifact of this package, how the registry's answer is read, and that
 * any difference in name, version or sha512 from the packed tarball fails the gate.
 */
import { parsePublishedSpec, publishedDifferences, readRegistryView } from '../../../scripts/release/published.mjs';

const NAME = '@unbrained/pm-cli';
const SHA = `sha512-${'B'.repeat(86)}==`;
/** The shape `npm view <spec> name version dist.integrity dist.tarball --json` prints (npm 10). */
const VIEW = JSON.stringify({ name: NAME, version: '0.1.0', 'dist.integrity': SHA, 'dist.tarball': 'https://registry.npmjs.org/@unbrained/pm-cli/-/pm-cli-0.1.0.tgz' }, null, 2);

describe('parsePublishedSpec', () => {
  it('takes an exact version or a dist-tag of this package', () => {
    expect(parsePublishedSpec(`${NAME}@0.1.0`, NAME)).toEqual({ spec: `${NAME}@0.1.0`, name: NAME, version: '0.1.0' });
    expect(parsePublishedSpec(`${NAME}@1.2.3-rc.1`, NAME)).toEqual({ spec: `${NAME}@1.2.3-rc.1`, name: NAME, version: '1.2.3-rc.1' });
    expect(parsePublishedSpec(`${NAME}@latest`, NAME)).toEqual({ spec: `${NAME}@latest`, name: NAME, tag: 'latest' });
  });

  it.each([
    [undefined, /needs a spec/],
    ['', /needs a spec/],
    [NAME, /give @unbrained\/pm-cli@<version>/],
    ['0.1.0', /give @unbrained\/pm-cli@<version>/],
    ['zod@3.23.8', /checks @unbrained\/pm-cli, not zod/],
    [`${NAME}@^0.1.0`, /neither an exact version nor a dist-tag/],
    [`${NAME}@0.1`, /neither an exact version nor a dist-tag/],
    [`${NAME}@>=0.1.0`, /neither an exact version nor a dist-tag/],
  ])('refuses %p', (spec, message) => {
    expect(() => parsePublishedSpec(spec as string, NAME)).toThrow(message);
  });
});

describe('readRegistryView', () => {
  it('reads the one artifact npm view describes', () => {
    expect(readRegistryView(VIEW, `${NAME}@0.1.0`)).toEqual({ name: NAME, version: '0.1.0', integrity: SHA, tarball: 'https://registry.npmjs.org/@unbrained/pm-cli/-/pm-cli-0.1.0.tgz' });
  });

  it('refuses output that is not one complete record', () => {
    expect(() => readRegistryView('npm error 404', 's')).toThrow(/did not print JSON/);
    expect(() => readRegistryView(JSON.stringify([JSON.parse(VIEW), JSON.parse(VIEW)]), 's')).toThrow(/names 2 versions/);
    expect(() => readRegistryView(JSON.stringify({ name: NAME, version: '0.1.0' }), 's')).toThrow(/no integrity, tarball/);
  });
});

describe('publishedDifferences', () => {
  const registry = readRegistryView(VIEW, `${NAME}@0.1.0`);

  it('is empty only for the same name, version and sha512', () => {
    expect(publishedDifferences(registry, { name: NAME, version: '0.1.0', integrity: SHA })).toEqual([]);
  });

  it('names every difference', () => {
    const other = `sha512-${'C'.repeat(86)}==`;
    expect(publishedDifferences(registry, { name: 'pm', version: '0.2.0', integrity: other })).toEqual([
      `name: registry ${NAME}, packed pm`,
      'version: registry 0.1.0, packed 0.2.0',
      `sha512: registry ${SHA}, packed ${other} (the published tarball is not the one this gate tested)`,
    ]);
  });
});
