import { itemVersion, itemView, pmGetItemVersions, pmGetItemViews } from '../../../../src/domain/mcp-tracker/item-tools.js';
import type { Item } from '../../../../src/domain/tracker/item.js';
import { BoundedCache } from '../../../../src/domain/util/bounded-cache.js';
import { deepFreeze } from '../../../../src/domain/util/canonical-json.js';
import { cachedAndPlain } from '../../../support/cache-comparison.js';
import { MODERN_META } from '../../../support/mcp-fake-server.js';
import { expectCleanHarness, TrackerMcpHarness } from '../../../support/mcp-tracker-harness.js';

afterEach(() => BoundedCache.bypass(false));

/**
 * pm_get calls over a seeded project, with changes through pm and by hand in between; returns
 * the exact bytes the dispatcher wrote for each call.
 */
async function pmGetSession(): Promise<string[]> {
  const h = await TrackerMcpHarness.create();
  const { a, b } = await h.seed();
  const written: string[] = [];
  let id = 0;
  const call = async (args: Record<string, unknown>, legacy = false) => {
    const params = { name: 'pm_get', arguments: args, ...(legacy ? {} : { _meta: MODERN_META }) };
    await h.connection.dispatch(JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'tools/call', params }), { facts: { kind: 'stdio' }, sink: { send: (message) => void written.push(message.text) } });
  };
  for (let i = 0; i < 3; i++) await call({ id: a });
  await call({ id: a, comments: 0 });
  await call({ id: b });
  await h.tracker.comment(a, 'first note');
  await h.tracker.comment(a, 'second note');
  await call({ id: a });
  await call({ id: a, comments: 1 });
  await call({ id: a, comments: 1 });
  await call({ id: a });
  const path = `/project/.agents/pm/items/${a}.md`;
  await h.env.fs.writeAtomic(path, (await h.env.fs.readText(path))!.replace('title: Write the tools', 'title: Edited by hand'));
  await call({ id: a });
  await call({ id: a, coments: 1 });
  await call({ id: 'pm-zzzzzz' });
  await h.initialize();
  await call({ id: a, comments: 1 }, true);
  await call({ id: a, comments: 1 }, true);
  expectCleanHarness(h);
  return written;
}

/** A frozen copy of `item` with another id: a distinct item object, as the tracker hands out. */
function copyOf(item: Item, n: number): Item {
  return deepFreeze({ ...structuredClone(item), id: `pm-c${n.toString(36).padStart(5, '0')}` });
}

describe('pm_get item versions and views (BoundedCaches "pm_get item versions", "pm_get item views")', () => {
  it('write the same bytes with caching on and bypassed', async () => {
    const { cached, plain } = await cachedAndPlain(pmGetSession);
    expect(cached).toHaveLength(14);
    expect(cached).toEqual(plain);
    expect(cached.some((text) => text.includes('Edited by hand'))).toBe(true);
    expect(cached.some((text) => text.includes('second note'))).toBe(true);
  });

  it('never keep more than their limit, and never give two items one version number', async () => {
    const h = await TrackerMcpHarness.create();
    const { a } = await h.seed();
    const template = await h.tracker.get(a);
    const limit = pmGetItemVersions.limit;
    expect(pmGetItemViews.limit).toBe(limit);
    const items = Array.from({ length: limit * 2 + 10 }, (_, n) => copyOf(template, n));
    const numbers = new Set<number>();
    for (const item of items) {
      const version = itemVersion(item);
      expect(numbers.has(version)).toBe(false);
      numbers.add(version);
      expect(itemVersion(item)).toBe(version);
      expect(itemView(item, 10).text).toContain(item.id);
      expect(pmGetItemVersions.size).toBeLessThanOrEqual(limit);
      expect(pmGetItemViews.size).toBeLessThanOrEqual(limit);
    }
    // The first item was forgotten: asked again, it gets a number no item ever had.
    const again = itemVersion(items[0]!);
    expect(numbers.has(again)).toBe(false);
    // The latest one is still known, with its number and its view.
    const last = items.at(-1)!;
    expect(itemVersion(last)).toBe([...numbers].at(-1));
    expect(itemView(last, 10)).toBe(itemView(last, 10));
  });
});
