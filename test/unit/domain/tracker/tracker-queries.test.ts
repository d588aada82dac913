import { memoryTracker } from '../../../support/memory-tracker.js';

async function seeded() {
  const env = await memoryTracker();
  const { tracker, clock } = env;
  const make = async (title: string, extra: Parameters<typeof tracker.create>[0] extends infer T ? Partial<T> : never = {}) => {
    clock.advance(1000);
    return (await tracker.create({ title, ...extra })).item.id;
  };
  return { ...env, make };
}

describe('Tracker queries', () => {
  it('lists with filters, hides closed items by default, and pages with stable cursors', async () => {
    const { tracker, make } = await seeded();
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push(await make(`item ${i}`, { priority: i % 3, tags: i % 2 ? ['odd'] : ['even'], type: i === 0 ? 'Epic' : 'Task' }));
    await tracker.close(ids[6]!, { evidence: 'done' });
    expect((await tracker.list()).total).toBe(6);
    expect((await tracker.list({ all: true })).total).toBe(7);
    expect((await tracker.list({ status: ['closed'] })).items.map((i) => i.id)).toEqual([ids[6]]);
    expect((await tracker.list({ tag: ['odd'] })).items.map((i) => i.id).sort()).toEqual([ids[1], ids[3], ids[5]].sort());
    expect((await tracker.list({ type: ['Epic'] })).items.map((i) => i.id)).toEqual([ids[0]]);
    expect((await tracker.list({ text: 'ITEM 4' })).items.map((i) => i.id)).toEqual([ids[4]]);
    const byPriority = (await tracker.list()).items.map((i) => i.priority);
    expect(byPriority).toEqual([...byPriority].sort());

    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await tracker.list({ limit: 2, sort: 'created', ...(cursor ? { cursor } : {}) });
      seen.push(...page.items.map((i) => i.id));
      cursor = page.nextCursor;
      if (cursor && seen.length === 2) await make('created between pages');
    } while (cursor);
    expect(seen.slice(0, 6)).toEqual(ids.slice(0, 6));
    await expect(tracker.list({ limit: 2, sort: 'title', cursor: (await tracker.list({ limit: 1 })).nextCursor! })).rejects.toThrow(/different query/);
    await expect(tracker.list({ limit: 0 })).rejects.toThrow(/limit must be/);
  });

  it('picks the best ready item with a rationale', async () => {
    const { tracker, make, clock } = await seeded();
    const blocker = await make('blocker', { priority: 3 });
    const blocked = await make('blocked but urgent', { priority: 0, blockedBy: [blocker] });
    const old = await make('old P1', { priority: 1 });
    await make('new P1', { priority: 1 });
    const claimed = await make('claimed P0', { priority: 0 });
    await tracker.claim(claimed, {}, { actor: 'bob' });
    const epic = await make('container P0', { priority: 0, type: 'Epic' });
    await make('child', { parent: epic, priority: 4 });

    const next = await tracker.next();
    expect(next.item?.id).toBe(old);
    expect(next.rationale).toContain(`${old} is ready`);
    expect(next.rationale).toContain('oldest of the P1 items');
    expect(next.counts).toMatchObject({ blocked: 1, containers: 1 });
    expect(next.alternatives.length).toBeGreaterThan(0);

    await tracker.close(blocker, { evidence: 'ok' });
    expect((await tracker.next()).item?.id).toBe(blocked);
    clock.advance(10 * 3600_000);
    const after = await tracker.next({ assignee: 'carol' });
    expect([blocked, claimed]).toContain(after.item?.id);
  });

  it('says why nothing is ready', async () => {
    const { tracker } = await seeded();
    expect((await tracker.next()).rationale).toMatch(/Nothing is open/);
  });

  it('ranks search hits: id, title over body, all terms before some', async () => {
    const { tracker, make } = await seeded();
    const title = await make('Parser crashes on empty input', { body: 'stack trace attached' });
    const body = await make('Refactor', { body: 'the parser is slow on empty files' });
    const comment = await make('Unrelated');
    await tracker.comment(comment, 'parser mention in a comment');
    const result = await tracker.search({ query: 'parser empty' });
    expect(result.mode).toBe('all');
    expect(result.results.map((r) => r.id)).toEqual([title, body]);
    expect(result.results[0]!.matchedIn).toContain('title');
    expect(result.results[1]!.snippet).toContain('parser is slow');
    const any = await tracker.search({ query: 'comment zebra' });
    expect(any.mode).toBe('any');
    expect(any.results.map((r) => r.id)).toEqual([comment]);
    expect((await tracker.search({ query: body })).results[0]!.id).toBe(body);
    await expect(tracker.search({ query: '  !! ' })).rejects.toThrow(/no words/);
  });

  it('summarizes the project', async () => {
    const { tracker, make, clock } = await seeded();
    const a = await make('a');
    await make('b', { type: 'Chore' });
    clock.advance(1000);
    await tracker.claim(a);
    const context = await tracker.context();
    expect(context).toMatchObject({ total: 2, byStatus: { open: 1, in_progress: 1 }, byType: { Task: 1, Chore: 1 }, claims: [{ id: a, holder: 'alice' }] });
    expect(context.next).not.toBeNull();
    expect(context.recent[0]!.id).toBe(a);
  });
});
