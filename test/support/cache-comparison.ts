import { BoundedCache } from '../../src/domain/util/bounded-cache.js';

/**
 * Runs `scenario` twice, each time on fresh state it builds itself: once with caching on and
 * once with every BoundedCache bypassed (the plain path). A test then expects both results to
 * be identical, which is what makes a speed-up invisible.
 */
export async function cachedAndPlain<T>(scenario: () => Promise<T>): Promise<{ cached: T; plain: T }> {
  BoundedCache.bypass(false);
  const cached = await scenario();
  BoundedCache.bypass(true);
  try {
    return { cached, plain: await scenario() };
  } finally {
    BoundedCache.bypass(false);
  }
}
