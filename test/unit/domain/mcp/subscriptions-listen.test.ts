import type { Cancellable } from '../../../../src/ports/transport.js';
import { settle, SUBSCRIPTION_ID, subscriptionSetup, ITEMS_DIR, type SubscriptionSetup } from '../../../support/subscription-harness.js';
import { MODERN_META, SERVER_INFO } from '../../../support/mcp-fake-server.js';
import { PM_MCP_SUBSCRIPTION_SERVER_OPTIONS, PmMcpSubscriptionRegistry, type PmMcpChange, type PmMcpChangeEmitter, type PmMcpChangeSource } from '../../../../src/domain/mcp/index.js';

const TASKS = 'io.modelcontextprotocol/tasks';
const DEBOUNCE = 50;

let s: SubscriptionSetup;
afterEach(() => {
  // Every message the dispatcher wrote in the test was validated against the 2026-07-28 schema.
  expect(s.h.problems).toEqual([]);
});

async function itemIds(n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push((await s.tracker.create({ title: `item ${i}` })).item.id);
  return ids;
}

describe('subscriptions/listen: acknowledgement', () => {
  test('the first message is the acknowledgement, echoing exactly the accepted subset', async () => {
    s = await subscriptionSetup();
    const [id] = await itemIds(1);
    await s.advance(DEBOUNCE);
    void s.listen('listen-1', {
      toolsListChanged: true, // not advertised (pm's tool list is fixed): dropped
      promptsListChanged: true, // not advertised: dropped
      resourcesListChanged: true,
      resourceSubscriptions: [`pm://items/${id}`, 'pm://guidance', 'pm://context', `pm://items/${id}`, 'pm://items/NOT-AN-ID', 'https://example.com/x'],
      futureNotificationType: true, // unknown filter field: allowed, not acknowledged
    });
    await settle();
    expect(s.messagesOf('listen-1')).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/subscriptions/acknowledged',
        params: {
          notifications: { resourcesListChanged: true, resourceSubscriptions: [`pm://items/${id}`, 'pm://context'] },
          _meta: { [SUBSCRIPTION_ID]: 'listen-1' },
        },
      },
    ]);
    expect(s.h.written.at(-1)!.value.method).toBe('notifications/subscriptions/acknowledged');
    expect(s.registry.size).toBe(1);
  });

  test('false or omitted fields are not subscribed; an empty request is acknowledged with an empty filter', async () => {
    s = await subscriptionSetup();
    void s.listen(1, { resourcesListChanged: false, resourceSubscriptions: [] });
    void s.listen(2, {});
    await settle();
    expect(s.messagesOf(1)).toEqual([{ jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { notifications: {}, _meta: { [SUBSCRIPTION_ID]: 1 } } }]);
    expect(s.messagesOf(2)[0]!.params).toEqual({ notifications: {}, _meta: { [SUBSCRIPTION_ID]: 2 } });
    await itemIds(1);
    await s.advance(DEBOUNCE);
    expect(s.eventsOf(1)).toEqual([]);
    expect(s.eventsOf(2)).toEqual([]);
  });

  test('a server that does not advertise resources.subscribe/listChanged acknowledges none of them and sends nothing', async () => {
    s = await subscriptionSetup({ server: { resourcesSubscribe: false, resourcesListChanged: false } });
    void s.listen('x', { resourcesListChanged: true, resourceSubscriptions: ['pm://context', 'pm://items'] });
    await settle();
    expect(s.messagesOf('x')[0]!.params).toEqual({ notifications: {}, _meta: { [SUBSCRIPTION_ID]: 'x' } });
    await itemIds(2);
    await s.advance(DEBOUNCE);
    expect(s.eventsOf('x')).toEqual([]);
  });

  test('discover advertises resources.subscribe and resources.listChanged with the subscription options; tools/prompts stay without listChanged', async () => {
    s = await subscriptionSetup();
    const discover = await s.h.modern(1, 'server/discover');
    expect(discover.result).toMatchObject({ capabilities: { resources: { subscribe: true, listChanged: true }, tools: {}, prompts: {} } });
    expect(PM_MCP_SUBSCRIPTION_SERVER_OPTIONS).toEqual({ resourcesSubscribe: true, resourcesListChanged: true });
  });

  test('tools/prompts list_changed are acknowledged and delivered only when the server declares listChanged', async () => {
    const host = new ManualSource();
    s = await subscriptionSetup({ server: { toolsListChanged: true }, extraSources: [host] });
    void s.listen('t', { toolsListChanged: true, promptsListChanged: true });
    void s.listen('r', { resourcesListChanged: true });
    await settle();
    expect(s.messagesOf('t')[0]!.params).toEqual({ notifications: { toolsListChanged: true }, _meta: { [SUBSCRIPTION_ID]: 't' } });
    host.emit([{ kind: 'toolsListChanged' }, { kind: 'promptsListChanged' }]);
    s.registry.publish({ kind: 'toolsListChanged' });
    await s.advance(DEBOUNCE);
    expect(s.eventsOf('t')).toEqual(['notifications/tools/list_changed']);
    expect(s.eventsOf('r')).toEqual([]);
  });
});

describe('subscriptions/listen: tagging', () => {
  test.each([
    ['a number id', 42],
    ['a string id', 'listen-42'],
    ['a string that looks like a number', '42'],
  ])('every message of the stream carries %s as subscriptionId, with the same JSON type', async (_label, id) => {
    s = await subscriptionSetup();
    void s.listen(id, { resourcesListChanged: true, resourceSubscriptions: ['pm://items'] });
    await settle();
    await itemIds(1);
    await s.advance(DEBOUNCE);
    const messages = s.h.written.map((w) => w.value).filter((v) => v.method !== undefined);
    expect(messages.map((m) => m.method)).toEqual(['notifications/subscriptions/acknowledged', 'notifications/resources/list_changed', 'notifications/resources/updated']);
    for (const message of messages) {
      const tag = (message.params as { _meta: Record<string, unknown> })._meta[SUBSCRIPTION_ID];
      expect(tag).toBe(id);
      expect(typeof tag).toBe(typeof id);
    }
    s.registry.shutdown();
    await settle();
    const result = s.h.written.at(-1)!.value;
    expect(result.id).toBe(id);
    expect((result.result!._meta as Record<string, unknown>)[SUBSCRIPTION_ID]).toBe(id);
  });
});

describe('subscriptions/listen: filtering and item changes', () => {
  test('a listener of pm://items/X hears nothing about Y, and no list_changed it did not ask for', async () => {
    s = await subscriptionSetup();
    const [x, y] = await itemIds(2);
    await s.advance(DEBOUNCE);
    void s.listen('only-x', { resourceSubscriptions: [`pm://items/${x}`] });
    await settle();
    await s.tracker.update(y!, { addTags: ['t'] });
    await s.advance(DEBOUNCE);
    expect(s.eventsOf('only-x')).toEqual([]);
    await s.tracker.update(x!, { addTags: ['t'] });
    await s.advance(DEBOUNCE);
    expect(s.eventsOf('only-x')).toEqual([`notifications/resources/updated pm://items/${x}`]);
    await itemIds(1); // a new item: list_changed for listeners who asked, nothing here
    await s.advance(DEBOUNCE);
    expect(s.eventsOf('only-x')).toEqual([`notifications/resources/updated pm://items/${x}`]);
  });

  test('create, update and delete produce list_changed (appear/vanish only) and updated for the item, context and claims', async () => {
    s = await subscriptionSetup();
    void s.listen('all', { resourcesListChanged: true, resourceSubscriptions: ['pm://items', 'pm://context', 'pm://claims'] });
    await settle();
    const [id] = await itemIds(1);
    await s.advance(DEBOUNCE);
    expect(s.eventsOf('all')).toEqual([
      'notifications/resources/list_changed',
      `notifications/resources/updated pm://items/${id}`,
      'notifications/resources/updated pm://context',
      'notifications/resources/updated pm://claims',
    ]);
    const seen = s.eventsOf('all').length;

    await s.tracker.update(id!, { addTags: ['x'] });
    await s.advance(DEBOUNCE);
    expect(s.eventsOf('all').slice(seen)).toEqual([
      `notifications/resources/updated pm://items/${id}`,
      'notifications/resources/updated pm://context',
      'notifications/resources/updated pm://claims',
    ]);
    const seen2 = s.eventsOf('all').length;

    await s.tracker.delete(id!, { consent: () => true });
    await s.advance(DEBOUNCE);
    expect(s.eventsOf('all').slice(seen2)).toEqual([
      'notifications/resources/list_changed',
      `notifications/resources/updated pm://items/${id}`,
      'notifications/resources/updated pm://context',
      'notifications/resources/updated pm://claims',
    ]);
  });

  test('an item file written behind the tracker\'s back (another process) is seen; temp and foreign files are not', async () => {
    s = await subscriptionSetup();
    const [id] = await itemIds(1);
    await s.advance(DEBOUNCE);
    void s.listen(5, { resourcesListChanged: true, resourceSubscriptions: [`pm://items/${id}`] });
    await settle();
    const text = (await s.fs.readText(`${ITEMS_DIR}/${id}.md`))!;
    await s.fs.writeAtomic(`${ITEMS_DIR}/${id}.md.tmp-123-abcd`, text);
    await s.fs.writeAtomic(`${ITEMS_DIR}/README.txt`, 'not an item');
    await s.fs.writeAtomic(`${ITEMS_DIR}/Not-An-Id.md`, 'not an item');
    await s.advance(DEBOUNCE);
    expect(s.eventsOf(5)).toEqual([]);
    await s.fs.writeAtomic(`${ITEMS_DIR}/${id}.md`, text.replace('item 0', 'edited in a shell'));
    await s.advance(DEBOUNCE);
    expect(s.eventsOf(5)).toEqual([`notifications/resources/updated pm://items/${id}`]);
  });
});

describe('subscriptions/listen: coalescing', () => {
  test('a burst touching many files gives each listener one list_changed and one updated per URI', async () => {
    s = await subscriptionSetup();
    void s.listen('burst', { resourcesListChanged: true, resourceSubscriptions: ['pm://items', 'pm://context'] });
    await settle();
    const ids = await itemIds(20);
    for (const id of ids) await s.tracker.update(id, { addTags: ['a'] });
    for (const id of ids) await s.tracker.update(id, { addTags: ['b'] });
    expect(s.eventsOf('burst')).toEqual([]); // nothing before the burst has been quiet for the debounce
    await s.advance(DEBOUNCE);
    const events = s.eventsOf('burst');
    expect(events.filter((e) => e === 'notifications/resources/list_changed')).toHaveLength(1);
    expect(events.filter((e) => e === 'notifications/resources/updated pm://context')).toHaveLength(1);
    expect(events.filter((e) => e.startsWith('notifications/resources/updated pm://items/')).sort()).toEqual(ids.map((id) => `notifications/resources/updated pm://items/${id}`).sort());
    expect(events).toHaveLength(1 + 20 + 1);
    expect(events[0]).toBe('notifications/resources/list_changed');
  });

  test('the burst ends after a quiet debounce, and continuous churn is still delivered after maxDelay', async () => {
    s = await subscriptionSetup({ registry: { debounceMs: DEBOUNCE, maxDelayMs: 200 } });
    const [id] = await itemIds(1);
    await s.advance(DEBOUNCE);
    void s.listen('q', { resourceSubscriptions: [`pm://items/${id}`] });
    await settle();
    await s.tracker.update(id!, { addTags: ['1'] });
    await settle();
    await s.advance(30);
    await s.tracker.update(id!, { addTags: ['2'] });
    await settle();
    await s.advance(30); // 60 ms after the first change, 30 after the last: still in the burst
    expect(s.eventsOf('q')).toEqual([]);
    await s.advance(20);
    expect(s.eventsOf('q')).toEqual([`notifications/resources/updated pm://items/${id}`]);

    for (let i = 0; i < 5; i++) {
      await s.tracker.update(id!, { addTags: [`churn-${i}`] });
      await settle();
      await s.advance(40); // never quiet for 50 ms
    }
    expect(s.eventsOf('q')).toHaveLength(2); // maxDelay (200 ms) forced one delivery
  });

  test('the per-subscription queue is bounded: extra sub-resources collapse into the subscribed parent', async () => {
    s = await subscriptionSetup({ registry: { maxPendingUris: 5 } });
    void s.listen('b', { resourceSubscriptions: ['pm://items'] });
    await settle();
    const ids = await itemIds(12);
    await s.advance(DEBOUNCE);
    expect(s.eventsOf('b')).toEqual([...ids.slice(0, 5).map((id) => `notifications/resources/updated pm://items/${id}`), 'notifications/resources/updated pm://items']);
  });
});

describe('subscriptions/listen: ending', () => {
  test('notifications/cancelled frees the subscription and the watch; nothing more is written, not even a response', async () => {
    s = await subscriptionSetup();
    expect(s.subscriptionWatchers()).toBe(0);
    const running = s.listen('c', { resourcesListChanged: true, resourceSubscriptions: ['pm://items'] });
    await settle();
    expect(s.subscriptionWatchers()).toBe(1);
    expect(s.registry.watching).toBe(true);
    await itemIds(1); // pending in the burst when the cancel arrives
    expect(await s.cancel('c')).toEqual([]);
    const written = await running;
    expect(written.map((w) => w.value.method)).toEqual(['notifications/subscriptions/acknowledged']);
    expect(s.subscriptionWatchers()).toBe(0);
    expect(s.registry.size).toBe(0);
    expect(s.registry.watching).toBe(false);
    expect(s.h.connection.inFlightCount).toBe(0);
    const before = s.h.written.length;
    await itemIds(2);
    await s.advance(DEBOUNCE * 10);
    expect(s.h.written.length).toBe(before);
  });

  test('one watch is shared by concurrent subscriptions, each with its own filter; it stops with the last', async () => {
    s = await subscriptionSetup();
    const [x] = await itemIds(1);
    await s.advance(DEBOUNCE);
    const a = s.listen('a', { resourcesListChanged: true });
    const b = s.listen(7, { resourceSubscriptions: [`pm://items/${x}`] });
    await settle();
    expect(s.subscriptionWatchers()).toBe(1);
    expect(s.registry.size).toBe(2);
    const [y] = await itemIds(1);
    await s.tracker.update(x!, { addTags: ['t'] });
    await s.advance(DEBOUNCE);
    expect(s.eventsOf('a')).toEqual(['notifications/resources/list_changed']);
    expect(s.eventsOf(7)).toEqual([`notifications/resources/updated pm://items/${x}`]);
    expect(y).toBeDefined();

    await s.cancel('a');
    await a;
    expect(s.subscriptionWatchers()).toBe(1);
    await s.tracker.update(x!, { addTags: ['u'] });
    await s.advance(DEBOUNCE);
    expect(s.eventsOf(7)).toHaveLength(2);
    expect(s.eventsOf('a')).toEqual(['notifications/resources/list_changed']);
    await s.cancel(7);
    await b;
    expect(s.subscriptionWatchers()).toBe(0);
  });

  test('a transport abort (HTTP stream closed) ends the subscription the same way', async () => {
    s = await subscriptionSetup();
    const sent: string[] = [];
    let cancel: Cancellable | undefined;
    const running = s.h.connection.dispatch(
      JSON.stringify({ jsonrpc: '2.0', id: 'h', method: 'subscriptions/listen', params: { notifications: { resourcesListChanged: true }, _meta: MODERN_META } }),
      { facts: { kind: 'http' }, sink: { send: (m) => sent.push(m.text) }, onCancel: (c) => (cancel = c) },
    );
    await settle();
    expect(sent.map((m) => JSON.parse(m).method)).toEqual(['notifications/subscriptions/acknowledged']);
    cancel!.abort('stream closed');
    expect(await running).toBe('cancelled');
    await itemIds(1);
    await s.advance(DEBOUNCE);
    expect(sent).toHaveLength(1);
    expect(s.subscriptionWatchers()).toBe(0);
  });

  test('server shutdown delivers what is pending, then answers each listen with the graceful result', async () => {
    s = await subscriptionSetup();
    const one = s.listen(1, { resourcesListChanged: true });
    const two = s.listen('two', { resourceSubscriptions: ['pm://context'] });
    await settle();
    await itemIds(1);
    s.registry.shutdown();
    await Promise.all([one, two]);
    expect(s.messagesOf(1)).toEqual([
      { jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { notifications: { resourcesListChanged: true }, _meta: { [SUBSCRIPTION_ID]: 1 } } },
      { jsonrpc: '2.0', method: 'notifications/resources/list_changed', params: { _meta: { [SUBSCRIPTION_ID]: 1 } } },
      { jsonrpc: '2.0', id: 1, result: { resultType: 'complete', _meta: { [SUBSCRIPTION_ID]: 1, 'io.modelcontextprotocol/serverInfo': SERVER_INFO } } },
    ]);
    expect(s.messagesOf('two').map((v) => v.method ?? 'result')).toEqual(['notifications/subscriptions/acknowledged', 'notifications/resources/updated', 'result']);
    expect(s.messagesOf('two').at(-1)!.result).toEqual({ resultType: 'complete', _meta: { [SUBSCRIPTION_ID]: 'two', 'io.modelcontextprotocol/serverInfo': SERVER_INFO } });
    expect(s.subscriptionWatchers()).toBe(0);
    expect(s.registry.size).toBe(0);

    // A listen arriving during shutdown is acknowledged and ended at once.
    await s.listen('late', { resourcesListChanged: true });
    expect(s.messagesOf('late').map((v) => v.method ?? 'result')).toEqual(['notifications/subscriptions/acknowledged', 'result']);
    expect(s.subscriptionWatchers()).toBe(0);
  });
});

describe('subscriptions/listen: errors', () => {
  test('taskIds without the tasks extension declared is -32021; with it declared they are simply not acknowledged', async () => {
    s = await subscriptionSetup();
    const [refused] = await s.listen('t1', { taskIds: ['task-1'], resourcesListChanged: true });
    expect(refused!.value).toEqual({
      jsonrpc: '2.0',
      id: 't1',
      error: { code: -32021, message: expect.stringContaining('taskIds'), data: { requiredCapabilities: { extensions: { [TASKS]: {} } } } },
    });
    expect(s.registry.size).toBe(0);
    expect(s.subscriptionWatchers()).toBe(0);

    void s.listen('t2', { taskIds: ['task-1'], resourcesListChanged: true }, { 'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS]: {} } } });
    await settle();
    expect(s.messagesOf('t2')[0]!.params).toEqual({ notifications: { resourcesListChanged: true }, _meta: { [SUBSCRIPTION_ID]: 't2' } });
    await s.cancel('t2');
  });

  test('malformed params are -32602; a bare listen learns the missing _meta; legacy never serves it', async () => {
    s = await subscriptionSetup();
    const [missing] = await s.h.send({ jsonrpc: '2.0', id: 1, method: 'subscriptions/listen', params: { _meta: MODERN_META } });
    expect(missing!.value.error).toMatchObject({ code: -32602, message: expect.stringContaining('notifications') });
    const [badUris] = await s.listen(2, { resourceSubscriptions: 'pm://context' });
    expect(badUris!.value.error).toMatchObject({ code: -32602 });
    const [tooMany] = await s.listen(3, { resourceSubscriptions: Array.from({ length: 1001 }, (_, i) => `pm://items/pm-${1000 + i}`) });
    expect(tooMany!.value.error).toMatchObject({ code: -32602 });
    const [bare] = await s.h.send({ jsonrpc: '2.0', id: 4, method: 'subscriptions/listen', params: { notifications: {} } });
    expect(bare!.value.error).toMatchObject({ code: -32602, message: 'Missing required _meta field io.modelcontextprotocol/protocolVersion' });
    expect(s.h.methods.resolve('subscriptions/listen', 'legacy')).toBeUndefined();
    expect(s.h.methods.resolve('subscriptions/listen', 'modern')).toBeDefined();
    expect(s.registry.size).toBe(0);
  });
});

describe('PmMcpSubscriptionRegistry (SDK use without the dispatcher)', () => {
  test('add acknowledges first, publish is filtered and tagged, remove stops delivery and the sources', async () => {
    s = await subscriptionSetup();
    const host = new ManualSource();
    const registry = new PmMcpSubscriptionRegistry(s.h.server, s.clock, [host], { debounceMs: 10 });
    const sent: string[] = [];
    const sub = registry.add(9, { resourcesListChanged: true, resourceSubscriptions: ['pm://custom/a', 'pm://custom/b'] }, (m) => sent.push(m));
    expect(sub.filter).toEqual({ resourcesListChanged: true, resourceSubscriptions: ['pm://custom/a'] }); // b is not covered by any source
    expect(host.running).toBe(1);
    host.emit([{ kind: 'resourceUpdated', uri: 'pm://custom/a' }, { kind: 'resourceUpdated', uri: 'pm://custom/a' }, { kind: 'resourcesListChanged' }, { kind: 'toolsListChanged' }]);
    expect(sent).toHaveLength(1);
    s.clock.advance(10);
    await settle();
    expect(sent.map((m) => JSON.parse(m))).toEqual([
      { jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { notifications: { resourcesListChanged: true, resourceSubscriptions: ['pm://custom/a'] }, _meta: { [SUBSCRIPTION_ID]: 9 } } },
      { jsonrpc: '2.0', method: 'notifications/resources/list_changed', params: { _meta: { [SUBSCRIPTION_ID]: 9 } } },
      { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'pm://custom/a', _meta: { [SUBSCRIPTION_ID]: 9 } } },
    ]);
    expect(registry.remove(sub)).toBe(true);
    expect(registry.remove(sub)).toBe(false);
    expect(host.running).toBe(0);
    host.emit([{ kind: 'resourcesListChanged' }]); // a late batch from a stopped source is dropped
    s.clock.advance(10);
    await settle();
    expect(sent).toHaveLength(3);
  });

  test('two subscriptions with the same id (two HTTP clients) are independent', async () => {
    s = await subscriptionSetup();
    const host = new ManualSource();
    const registry = new PmMcpSubscriptionRegistry(s.h.server, s.clock, [host], { debounceMs: 0 });
    const a: string[] = [];
    const b: string[] = [];
    const first = registry.add('listen-1', { resourcesListChanged: true }, (m) => a.push(m));
    registry.add('listen-1', { resourcesListChanged: true }, (m) => b.push(m));
    registry.remove(first);
    expect(registry.size).toBe(1);
    host.emit([{ kind: 'resourcesListChanged' }]);
    await settle();
    expect(a).toHaveLength(1);
    expect(b).toHaveLength(2);
  });

  test('a throwing stream does not stop delivery to the others', async () => {
    s = await subscriptionSetup();
    const host = new ManualSource();
    const registry = new PmMcpSubscriptionRegistry(s.h.server, s.clock, [host], { debounceMs: 0 });
    let calls = 0;
    registry.add(1, { resourcesListChanged: true }, () => {
      calls++;
      throw new Error('broken pipe');
    });
    const ok: string[] = [];
    registry.add(2, { resourcesListChanged: true }, (m) => ok.push(m));
    host.emit([{ kind: 'resourcesListChanged' }]);
    await settle();
    expect(calls).toBe(2);
    expect(ok).toHaveLength(2);
  });

  test('options are validated', () => {
    expect(() => new PmMcpSubscriptionRegistry({ capabilities: {} }, { now: () => 0, sleep: async () => undefined }, [], { debounceMs: -1 })).toThrow(RangeError);
  });
});

/** A host-driven change source covering `pm://custom/a`. */
class ManualSource implements PmMcpChangeSource {
  running = 0;
  private emitter: PmMcpChangeEmitter | undefined;
  coversUri(uri: string): boolean {
    return uri === 'pm://custom/a';
  }
  start(emit: PmMcpChangeEmitter): () => void {
    this.running++;
    this.emitter = emit;
    return () => {
      this.running--;
    };
  }
  emit(changes: readonly PmMcpChange[]): void {
    this.emitter?.(changes);
  }
}
