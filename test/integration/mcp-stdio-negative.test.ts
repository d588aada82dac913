/**
 * The negative controls of seed 004 ("Rollout, rollback, and proof"; "Legacy boundary"),
 * against the real `pm-mcp` process over raw JSON lines: what no SDK client would send is written here
 * by hand. Every line the server writes in these tests is validated against the official
 * schema of its era (test/support/mcp-schema.ts).
 */
import { PM_MCP_LEGACY_PROTOCOL_VERSIONS, PM_MCP_PROTOCOL_VERSION, MCP_META } from '../../src/domain/mcp/index.js';
import { checkMcpMessage } from '../support/mcp-schema.js';
import { makeTempTracker, McpProcesses, modernMeta, RawMcpClient, runPm, type McpProcess, type WireMessage } from '../support/mcp-stdio.js';
import { openNodeTracker } from '../support/node-tracker.js';

const SUBSCRIPTION_ID = MCP_META.subscriptionId;
const LEGACY = [...PM_MCP_LEGACY_PROTOCOL_VERSIONS];
const TASKS = 'io.modelcontextprotocol/tasks';
const INIT_PARAMS = { capabilities: {}, clientInfo: { name: 'raw-legacy', version: '1.0.0' } };

describe('pm-mcp negative controls over raw JSON lines', () => {
  const processes = new McpProcesses();
  let project: Awaited<ReturnType<typeof makeTempTracker>>;
  let itemA: string;
  let itemB: string;
  const clients: RawMcpClient[] = [];

  beforeAll(async () => {
    project = await makeTempTracker('pm-mcp-negative-');
    const tracker = await openNodeTracker(project.root, 'seeder');
    itemA = (await tracker.create({ title: 'watched item', priority: 1 })).item.id;
    itemB = (await tracker.create({ title: 'other item', priority: 2 })).item.id;
    await tracker.dispose();
  });

  afterEach(async () => {
    // Every line written in the test validates against its era's schema.
    const problems = clients.flatMap((c) => c.problems());
    clients.length = 0;
    await processes.killAll();
    expect(problems).toEqual([]);
  });

  afterAll(async () => {
    await processes.killAll();
    await project?.remove();
  });

  function start(env: NodeJS.ProcessEnv = {}, legacyRevision: (typeof LEGACY)[number] = '2025-11-25'): RawMcpClient {
    const client = new RawMcpClient(processes.spawn(project.dir, env), legacyRevision);
    clients.push(client);
    return client;
  }

  let barriers = 0;
  /**
   * Waits until every notification caused by the changes made so far has been written: opens
   * one more listen on `itemId`, changes that item from a separate `pm` process and waits for
   * the listen's resources/updated. The server's one watch reports changes in order and each
   * burst is written to the listens in the order they were opened, so anything still due to
   * an earlier listen is on stdout before this notification.
   */
  async function barrier(c: RawMcpClient, itemId: string): Promise<void> {
    const id = `barrier-${++barriers}`;
    c.send({ jsonrpc: '2.0', id, method: 'subscriptions/listen', params: { notifications: { resourceSubscriptions: [`pm://items/${itemId}`] }, _meta: modernMeta() } });
    await c.waitFor((m) => m.method === 'notifications/subscriptions/acknowledged' && m.params!._meta![SUBSCRIPTION_ID] === id, `the acknowledgement of ${id}`);
    await runPm(project.dir, ['update', itemId, '--title', `changed for ${id}`]);
    await c.waitFor((m) => m.method === 'notifications/resources/updated' && m.params!._meta![SUBSCRIPTION_ID] === id && m.params!.uri === `pm://items/${itemId}`, `the notification of ${id}`);
  }

  async function endAndExit(proc: McpProcess): Promise<void> {
    proc.endInput();
    expect(await proc.exited).toEqual({ code: 0, signal: null });
    expect(proc.stderr()).toBe('');
  }

  describe('modern path (2026-07-28 per-request _meta)', () => {
    test('an unsupported modern version is -32022 with data.supported and data.requested', async () => {
      const c = start();
      for (const requested of ['2099-01-01', '2025-11-25', '2025-06-18', '2026-07-28-draft']) {
        for (const method of ['tools/list', 'server/discover']) {
          const response = await c.request(method, { _meta: modernMeta({ [MCP_META.protocolVersion]: requested }) });
          expect(response.error).toMatchObject({ code: -32022, data: { supported: [PM_MCP_PROTOCOL_VERSION], requested } });
          expect(Object.keys(response.error!.data!).sort()).toEqual(['requested', 'supported']); // exactly the spec's shape
        }
      }
      // The version is checked before the other keys: a future client learns what to retry with.
      const early = await c.request('tools/list', { _meta: { [MCP_META.protocolVersion]: '2099-01-01', [MCP_META.clientCapabilities]: 'unexpected' } });
      expect(early.error).toMatchObject({ code: -32022, data: { requested: '2099-01-01' } });
      // Positive control: the same request at the canonical revision is served.
      const ok = await c.request('tools/list', { _meta: modernMeta() });
      expect(ok.result).toMatchObject({ resultType: 'complete', tools: expect.any(Array) });
      await endAndExit(c.proc);
    });

    test('missing or malformed _meta is -32602 naming the field', async () => {
      const c = start();
      const V = MCP_META.protocolVersion;
      const CAPS = MCP_META.clientCapabilities;
      const INFO = MCP_META.clientInfo;
      const cases: [string, Record<string, unknown> | undefined, string][] = [
        ['server/discover', undefined, V], // a bare probe of a modern-only method
        ['subscriptions/listen', { notifications: {} }, V],
        ['tools/list', { _meta: { [V]: PM_MCP_PROTOCOL_VERSION } }, CAPS],
        ['tools/list', { _meta: { [CAPS]: {} } }, V],
        ['tools/list', { _meta: { [V]: 20260728, [CAPS]: {} } }, V],
        ['tools/list', { _meta: { [V]: PM_MCP_PROTOCOL_VERSION, [CAPS]: [] } }, CAPS],
        ['tools/list', { _meta: { [V]: PM_MCP_PROTOCOL_VERSION, [CAPS]: null } }, CAPS],
        ['tools/list', { _meta: { [V]: PM_MCP_PROTOCOL_VERSION, [CAPS]: 'all' } }, CAPS],
        ['tools/list', { _meta: modernMeta({ [INFO]: { name: 'no-version' } }) }, INFO],
        ['tools/list', { _meta: modernMeta({ [INFO]: 'me' }) }, INFO],
        ['tools/list', { _meta: modernMeta({ [MCP_META.logLevel]: 'loud' }) }, MCP_META.logLevel],
        ['tools/list', { _meta: modernMeta({ progressToken: { nested: true } }) }, 'progressToken'],
        ['tools/list', { _meta: modernMeta({ traceparent: 7 }) }, 'traceparent'],
        ['tools/call', { name: 'pm_context', arguments: {}, _meta: { [V]: PM_MCP_PROTOCOL_VERSION } }, CAPS],
      ];
      for (const [method, params, field] of cases) {
        const response = await c.request(method, params);
        expect({ method, field, error: response.error }).toMatchObject({ method, field, error: { code: -32602, data: { field } } });
        expect(response.error!.message).toContain(field);
      }
      // {} is a valid clientCapabilities, clientInfo is optional.
      const minimal = await c.request('server/discover', { _meta: { [V]: PM_MCP_PROTOCOL_VERSION, [CAPS]: {} } });
      expect(minimal.result).toMatchObject({ resultType: 'complete', supportedVersions: [PM_MCP_PROTOCOL_VERSION] });
      await endAndExit(c.proc);
    });

    test('a missing client capability is -32021 with a structured requiredCapabilities map', async () => {
      const c = start();
      const refused = await c.request('subscriptions/listen', { notifications: { taskIds: ['task-1'], resourcesListChanged: true }, _meta: modernMeta() });
      expect(refused.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { [TASKS]: {} } } } });
      expect(c.stream(refused.id!)).toEqual([]); // refused before any acknowledgement

      // Positive control: declared on the request, the listen opens (taskIds are not acknowledged: pm sends no task notifications).
      const meta = modernMeta({ [MCP_META.clientCapabilities]: { extensions: { [TASKS]: {} } } });
      c.send({ jsonrpc: '2.0', id: 'with-tasks', method: 'subscriptions/listen', params: { notifications: { taskIds: ['task-1'], resourcesListChanged: true }, _meta: meta } });
      const ack = await c.waitFor((m) => m.method === 'notifications/subscriptions/acknowledged', 'the acknowledgement');
      expect(ack.params).toEqual({ notifications: { resourcesListChanged: true }, _meta: { [SUBSCRIPTION_ID]: 'with-tasks' } });
      // Capabilities are per request: the next request without the declaration is refused again.
      const again = await c.request('subscriptions/listen', { notifications: { taskIds: ['task-1'] }, _meta: modernMeta() });
      expect(again.error).toMatchObject({ code: -32021 });
      c.notify('notifications/cancelled', { requestId: 'with-tasks' });
      await endAndExit(c.proc);
    });

    test('removed methods are -32601 on the modern path (initialize included)', async () => {
      const c = start();
      const removed: [string, Record<string, unknown>][] = [
        ['ping', {}],
        ['logging/setLevel', { level: 'info' }],
        ['resources/subscribe', { uri: 'pm://context' }],
        ['resources/unsubscribe', { uri: 'pm://context' }],
        ['initialize', { protocolVersion: '2025-11-25', ...INIT_PARAMS }],
        ['initialize', { protocolVersion: PM_MCP_PROTOCOL_VERSION, ...INIT_PARAMS }],
      ];
      for (const [method, params] of removed) {
        const response = await c.request(method, { ...params, _meta: modernMeta() });
        expect({ method, error: response.error }).toMatchObject({ method, error: { code: -32601, data: { method } } });
      }
      // Positive control: ping is a legacy-adapter method and still works there.
      expect((await c.request('ping')).result).toEqual({});
      // The modern initialize attempt established nothing: unversioned requests stay legacy and unchanged.
      const list = await c.request('tools/list');
      expect(list.result).not.toHaveProperty('resultType');
      await endAndExit(c.proc);
    });

    test('a missing resource is -32602 with the uri (modern) and -32002 (legacy)', async () => {
      const c = start();
      for (const uri of ['pm://items/pm-zzzzzz', 'pm://nowhere']) {
        const modern = await c.request('resources/read', { uri, _meta: modernMeta() });
        expect(modern.error).toMatchObject({ code: -32602, data: { uri } });
        const legacy = await c.request('resources/read', { uri });
        expect(legacy.error).toMatchObject({ code: -32002, data: { uri } });
      }
      // Positive control: an existing item reads on both paths.
      const found = await c.request('resources/read', { uri: `pm://items/${itemA}`, _meta: modernMeta() });
      expect(found.result).toMatchObject({ resultType: 'complete', contents: [{ uri: `pm://items/${itemA}` }] });
      expect((await c.request('resources/read', { uri: `pm://items/${itemA}` })).result).toMatchObject({ contents: [{ uri: `pm://items/${itemA}` }] });
      await endAndExit(c.proc);
    });

    test('results carry resultType and serverInfo on the modern path and neither on the legacy one', async () => {
      const c = start();
      const calls: [string, Record<string, unknown>][] = [
        ['tools/list', {}],
        ['tools/call', { name: 'pm_context', arguments: {} }],
        ['resources/list', {}],
        ['resources/templates/list', {}],
        ['resources/read', { uri: 'pm://context' }],
        ['prompts/list', {}],
        ['prompts/get', { name: 'orientation' }],
        ['completion/complete', { ref: { type: 'ref/resource', uri: 'pm://items/{id}' }, argument: { name: 'id', value: 'pm-' } }],
      ];
      for (const [method, params] of calls) {
        const modern = await c.request(method, { ...params, _meta: modernMeta() });
        expect({ method, result: modern.result }).toMatchObject({ method, result: { resultType: 'complete', _meta: { [MCP_META.serverInfo]: { name: 'pm' } } } });
        const legacy = await c.request(method, params);
        expect({ method, error: legacy.error }).toEqual({ method, error: undefined });
        expect(legacy.result).not.toHaveProperty('resultType');
        expect(legacy.result).not.toHaveProperty('ttlMs');
        expect(legacy.result).not.toHaveProperty('cacheScope');
        expect((legacy.result?._meta as Record<string, unknown> | undefined)?.[MCP_META.serverInfo]).toBeUndefined();
      }
      const discover = await c.request('server/discover', { _meta: modernMeta() });
      expect(discover.result).toMatchObject({ resultType: 'complete', supportedVersions: [PM_MCP_PROTOCOL_VERSION], ttlMs: expect.any(Number), cacheScope: 'public' });
      for (const legacy of LEGACY) expect(discover.result!.supportedVersions).not.toContain(legacy); // the adapter is excluded
      await endAndExit(c.proc);
    });

    test('negative control on the test helper: an omitted modern resultType (and other envelope slips) is detected', async () => {
      const c = start();
      const list = await c.request('tools/list', { _meta: modernMeta() });
      const call = await c.request('tools/call', { name: 'pm_context', arguments: {}, _meta: modernMeta() });
      const legacyCall = await c.request('tools/call', { name: 'pm_context', arguments: {} });
      const missing = await c.request('resources/read', { uri: 'pm://items/pm-zzzzzz', _meta: modernMeta() });
      await endAndExit(c.proc);

      // The real messages pass.
      expect(checkMcpMessage(list, '2026-07-28', { method: 'tools/list' })).toEqual([]);
      expect(checkMcpMessage(call, '2026-07-28', { method: 'tools/call' })).toEqual([]);
      expect(checkMcpMessage(legacyCall, '2025-11-25', { method: 'tools/call' })).toEqual([]);
      expect(checkMcpMessage(missing, '2026-07-28')).toEqual([]);

      const without = (message: WireMessage, key: string): WireMessage => {
        const result = { ...message.result };
        delete result[key];
        return { ...message, result };
      };
      // A modern result without resultType is reported, whatever its method.
      expect(checkMcpMessage(without(list, 'resultType'), '2026-07-28', { method: 'tools/list' })).toContain('modern result has no resultType');
      expect(checkMcpMessage(without(call, 'resultType'), '2026-07-28', { method: 'tools/call' })).toContain('modern result has no resultType');
      expect(checkMcpMessage(without(call, 'resultType'), '2026-07-28')).toContain('modern result has no resultType');
      expect(checkMcpMessage(JSON.stringify(without(call, 'resultType')), '2026-07-28')).toContain('modern result has no resultType');
      // A legacy result that carries one is reported too.
      expect(checkMcpMessage({ ...legacyCall, result: { ...legacyCall.result, resultType: 'complete' } }, '2025-11-25', { method: 'tools/call' })).toContain('legacy result carries resultType');
      // A modern error with the legacy resource-not-found code is reported.
      expect(checkMcpMessage({ ...missing, error: { ...missing.error!, code: -32002 } }, '2026-07-28')).toContain('modern error uses removed code -32002');
      // And the schema itself is applied: a tool without inputSchema, a -32022 without data.
      const tools = (list.result!.tools as Record<string, unknown>[]).map((t, i) => (i === 0 ? { ...t, inputSchema: undefined } : t));
      expect(checkMcpMessage(JSON.parse(JSON.stringify({ ...list, result: { ...list.result, tools } })), '2026-07-28', { method: 'tools/list' })).not.toEqual([]);
      expect(checkMcpMessage({ jsonrpc: '2.0', id: 1, error: { code: -32022, message: 'Unsupported protocol version' } }, '2026-07-28')).not.toEqual([]);
    });

    test('a parse error is -32700 and the connection keeps serving', async () => {
      const c = start();
      c.proc.writeLine('{not json');
      const parse = await c.waitFor((m) => m.error?.code === -32700, 'the parse error');
      expect(parse.id ?? null).toBeNull();
      c.proc.writeLine('{"jsonrpc":"2.0","id":77,"method":"tools/list"'); // truncated
      await c.proc.waitUntil(() => c.messages().filter((m) => m.error?.code === -32700).length === 2, 20_000, 'the second parse error');
      expect(c.messages().some((m) => m.id === 77)).toBe(false); // nothing is guessed from a broken line
      c.proc.writeLine('42');
      expect((await c.waitFor((m) => m.error?.code === -32600, 'the invalid request')).id ?? null).toBeNull();
      // Still serving, on both paths.
      expect((await c.request('server/discover', { _meta: modernMeta() })).result).toMatchObject({ resultType: 'complete' });
      expect((await c.request('ping')).result).toEqual({});
      await endAndExit(c.proc);
    });

    test('strict arguments from the first request of a fresh server: an unknown key and 100,000-deep arguments are -32602 on both paths', async () => {
      const c = start();
      const typo = { name: 'pm_create', arguments: { title: 'never written', idempotencyKy: 'k1' } };
      const message = "Invalid arguments for pm_create: unknown argument 'idempotencyKy'; did you mean 'idempotencyKey'?";
      expect((await c.request('tools/call', { ...typo, _meta: modernMeta() })).error).toMatchObject({ code: -32602, message });
      expect((await c.request('tools/call', typo)).error).toMatchObject({ code: -32602, message });
      const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
      c.proc.writeLine(`{"jsonrpc":"2.0","id":"deep","method":"tools/call","params":{"name":"pm_list","arguments":{"status":${deep}}}}`);
      expect((await c.waitFor((m) => m.id === 'deep', 'the reply to the deep call')).error).toMatchObject({ code: -32602, data: { tool: 'pm_list', maxDepth: 32 } });
      const list = await c.request('tools/call', { name: 'pm_list', arguments: { all: true }, _meta: modernMeta() });
      expect(list.result).toMatchObject({ resultType: 'complete' });
      expect(JSON.stringify(list.result)).not.toContain('never written');
      await endAndExit(c.proc);
    });

    test('trace context keys are honoured per request and never leak into another request', async () => {
      const c = start({ PM_ACTOR: 'env-actor' });
      const traced = {
        traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
        tracestate: 'pmvendor=t61rcWkgMzE',
        baggage: 'pm.secret=trace-baggage-marker',
      };
      // Concurrent, interleaved requests: traced, untraced, malformed-traced (non-string: refused),
      // and an invalid traceparent string (dropped per W3C, the request is still served).
      const requests = [
        c.request('tools/call', { name: 'pm_create', arguments: { title: 'traced create' }, _meta: modernMeta(traced, 'traced-client') }),
        c.request('tools/call', { name: 'pm_create', arguments: { title: 'plain create' }, _meta: modernMeta({}, 'plain-client') }),
        c.request('tools/list', { _meta: modernMeta({ traceparent: 7, tracestate: 'a=b' }) }),
        c.request('tools/call', { name: 'pm_context', arguments: {}, _meta: modernMeta({ traceparent: 'not-a-traceparent', tracestate: 'x=y', baggage: 'k=v' }) }),
        c.request('tools/call', { name: 'pm_context', arguments: {}, _meta: modernMeta() }),
        c.request('tools/call', { name: 'pm_create', arguments: { title: 'anonymous create' }, _meta: { [MCP_META.protocolVersion]: PM_MCP_PROTOCOL_VERSION, [MCP_META.clientCapabilities]: {} } }),
      ];
      const [tracedCreate, plainCreate, badTrace, droppedTrace, plainContext, anonymous] = await Promise.all(requests);
      expect(badTrace!.error).toMatchObject({ code: -32602, data: { field: 'traceparent' } });
      for (const ok of [tracedCreate, plainCreate, droppedTrace, plainContext, anonymous]) expect(ok!.result).toMatchObject({ resultType: 'complete' });
      expect(droppedTrace!.result!.isError).toBeFalsy();
      // Request-local context: each mutation records the client identity of its own request only.
      expect(tracedCreate!.result!.structuredContent).toMatchObject({ receipt: { actor: 'env-actor', client: 'traced-client/1.0.0' } });
      expect(plainCreate!.result!.structuredContent).toMatchObject({ receipt: { actor: 'env-actor', client: 'plain-client/1.0.0' } });
      expect(anonymous!.result!.structuredContent).toMatchObject({ receipt: { actor: 'env-actor' } });
      expect((anonymous!.result!.structuredContent as { receipt: object }).receipt).not.toHaveProperty('client');
      // Trace values are never written back, to that request or to any other.
      for (const line of c.proc.lines) {
        expect(line).not.toContain('4bf92f3577b34da6a3ce929d0e0e4736');
        expect(line).not.toContain('trace-baggage-marker');
        expect(line).not.toContain('pmvendor');
      }
      // The same request without trace keys is handled identically (the trace changes nothing).
      const again = await c.request('tools/call', { name: 'pm_context', arguments: {}, _meta: modernMeta(traced) });
      expect(again.result!.structuredContent).toEqual((await c.request('tools/call', { name: 'pm_context', arguments: {}, _meta: modernMeta() })).result!.structuredContent);
      await endAndExit(c.proc);
    });
  });

  describe('legacy boundary (initialize era)', () => {
    test('initialize answers each declared revision with that revision', async () => {
      expect(LEGACY).toEqual(['2025-11-25', '2025-06-18']); // the seed's table, newest first
      for (const revision of LEGACY) {
        const c = start({}, revision);
        const init = await c.request('initialize', { protocolVersion: revision, ...INIT_PARAMS });
        expect(init.result).toMatchObject({ protocolVersion: revision, serverInfo: { name: 'pm' }, capabilities: { tools: {}, resources: {}, prompts: {} } });
        expect(init.result).not.toHaveProperty('resultType');
        c.notify('notifications/initialized');
        expect((await c.request('ping')).result).toEqual({});
        // The session's legacy shapes: duplicated JSON text beside structuredContent.
        const call = await c.request('tools/call', { name: 'pm_get', arguments: { id: itemA } });
        const result = call.result as { content: { text: string }[]; structuredContent: unknown };
        expect(JSON.parse(result.content[0]!.text)).toEqual(result.structuredContent);
        await endAndExit(c.proc);
      }
    });

    test('initialize with an undeclared revision is -32022 naming every supported revision (the seed\'s choice)', async () => {
      const c = start();
      for (const requested of ['2024-11-05', '2025-03-26', PM_MCP_PROTOCOL_VERSION, '1999-01-01', 'latest']) {
        const response = await c.request('initialize', { protocolVersion: requested, ...INIT_PARAMS });
        expect(response.error).toMatchObject({ code: -32022, data: { supported: LEGACY, requested } });
        for (const revision of LEGACY) expect(response.error!.message).toContain(revision);
        expect(response.result).toBeUndefined();
      }
      // The refusals established nothing: a declared revision is still accepted afterwards.
      const ok = await c.request('initialize', { protocolVersion: '2025-06-18', ...INIT_PARAMS });
      expect(ok.result).toMatchObject({ protocolVersion: '2025-06-18' });
      await endAndExit(c.proc);
    });

    test('initialize without protocolVersion is answered with 2025-11-25', async () => {
      const c = start();
      const init = await c.request('initialize', INIT_PARAMS);
      expect(init.result).toMatchObject({ protocolVersion: '2025-11-25', serverInfo: { name: 'pm' } });
      expect(LEGACY[0]).toBe('2025-11-25');
      await endAndExit(c.proc);
    });

    test('unversioned requests are served on the legacy path without initialize; initialize only enriches identity and never reaches modern requests', async () => {
      const c = start({ PM_ACTOR: 'env-actor' });
      // No initialize: served with legacy shapes, recorded as the configured actor.
      const list = await c.request('tools/list');
      expect(list.result).toMatchObject({ tools: expect.any(Array) });
      expect(list.result).not.toHaveProperty('resultType');
      expect((list.result!.tools as { name: string }[]).map((t) => t.name)).toContain('pm_create');
      const before = await c.request('tools/call', { name: 'pm_create', arguments: { title: 'before initialize' } });
      expect(before.result).toMatchObject({ structuredContent: { receipt: { actor: 'env-actor' } } });
      expect(before.result).not.toHaveProperty('resultType');
      expect((await c.request('ping')).result).toEqual({});

      // initialize supplies the identity for later legacy requests...
      await c.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'legacy-host', version: '9' } });
      c.notify('notifications/initialized');
      const after = await c.request('tools/call', { name: 'pm_create', arguments: { title: 'after initialize' } });
      expect(after.result).toMatchObject({ structuredContent: { receipt: { actor: 'env-actor', client: 'legacy-host/9' } } });
      // ...but never for modern ones, which carry their own (or none).
      const modernNamed = await c.request('tools/call', { name: 'pm_create', arguments: { title: 'modern named' }, _meta: modernMeta({}, 'modern-host') });
      expect(modernNamed.result).toMatchObject({ resultType: 'complete', structuredContent: { receipt: { actor: 'env-actor', client: 'modern-host/1.0.0' } } });
      const modernAnonymous = await c.request('tools/call', {
        name: 'pm_create',
        arguments: { title: 'modern anonymous' },
        _meta: { [MCP_META.protocolVersion]: PM_MCP_PROTOCOL_VERSION, [MCP_META.clientCapabilities]: {} },
      });
      expect(modernAnonymous.result).toMatchObject({ resultType: 'complete', structuredContent: { receipt: { actor: 'env-actor' } } });
      expect((modernAnonymous.result!.structuredContent as { receipt: object }).receipt).not.toHaveProperty('client');
      // No session id anywhere.
      for (const line of c.proc.lines) expect(line.toLowerCase()).not.toContain('sessionid');
      await endAndExit(c.proc);
    });
  });

  describe('subscriptions/listen over stdio', () => {
    test('a change made by a separate `pm update` process reaches the listener as resources/updated for that item', async () => {
      const c = start();
      c.send({ jsonrpc: '2.0', id: 'watch-1', method: 'subscriptions/listen', params: { notifications: { resourceSubscriptions: [`pm://items/${itemA}`], resourcesListChanged: true }, _meta: modernMeta() } });
      const ack = await c.waitFor((m) => m.method === 'notifications/subscriptions/acknowledged', 'the acknowledgement');
      expect(ack.params!.notifications).toEqual({ resourceSubscriptions: [`pm://items/${itemA}`], resourcesListChanged: true });

      await runPm(project.dir, ['update', itemA, '--title', 'renamed in a shell']);
      const updated = await c.waitFor((m) => m.method === 'notifications/resources/updated', 'the updated notification');
      expect(updated.params).toEqual({ uri: `pm://items/${itemA}`, _meta: { [SUBSCRIPTION_ID]: 'watch-1' } });

      // A new item: the list changed (and only subscribed URIs are ever named).
      await runPm(project.dir, ['create', 'made in a shell']);
      await c.waitFor((m) => m.method === 'notifications/resources/list_changed', 'the list_changed notification');
      // Any straggler of the burst is written before the barrier's notification; the barrier
      // changes itemB, which watch-1 must not hear about either.
      await barrier(c, itemB);
      const stream = c.stream('watch-1');
      expect(stream[0]!.method).toBe('notifications/subscriptions/acknowledged');
      for (const m of stream) expect(m.params!._meta).toEqual({ [SUBSCRIPTION_ID]: 'watch-1' });
      const uris = stream.filter((m) => m.method === 'notifications/resources/updated').map((m) => m.params!.uri);
      expect(new Set(uris)).toEqual(new Set([`pm://items/${itemA}`]));
      expect(JSON.stringify(stream)).not.toContain(itemB);

      // The re-read reflects the other process's write.
      const read = await c.request('resources/read', { uri: `pm://items/${itemA}`, _meta: modernMeta() });
      expect(JSON.parse((read.result!.contents as { text: string }[])[0]!.text)).toMatchObject({ id: itemA, title: 'renamed in a shell' });

      // stdin EOF: the listen ends gracefully with its result, then the process exits 0.
      c.proc.endInput();
      const closing = await c.response('watch-1');
      expect(closing.result).toEqual({ resultType: 'complete', _meta: { [SUBSCRIPTION_ID]: 'watch-1', [MCP_META.serverInfo]: expect.objectContaining({ name: 'pm' }) } });
      expect(await c.proc.exited).toEqual({ code: 0, signal: null });
    });

    test('notifications/cancelled stops a listen: nothing more is written for it, while another listen still sees the change', async () => {
      const c = start();
      const filter = { resourceSubscriptions: [`pm://items/${itemB}`, 'pm://context'] };
      c.send({ jsonrpc: '2.0', id: 'cancelled', method: 'subscriptions/listen', params: { notifications: filter, _meta: modernMeta() } });
      c.send({ jsonrpc: '2.0', id: 7, method: 'subscriptions/listen', params: { notifications: filter, _meta: modernMeta() } });
      await c.waitFor((m) => m.method === 'notifications/subscriptions/acknowledged' && m.params!._meta![SUBSCRIPTION_ID] === 'cancelled', 'the first acknowledgement');
      await c.waitFor((m) => m.method === 'notifications/subscriptions/acknowledged' && m.params!._meta![SUBSCRIPTION_ID] === 7, 'the second acknowledgement');

      c.notify('notifications/cancelled', { requestId: 'cancelled', reason: 'test' });
      // The cancellation is processed in order: a request sent after it is answered after it.
      expect((await c.request('ping')).result).toEqual({});
      await runPm(project.dir, ['update', itemB, '--priority', '0']);
      await c.waitFor((m) => m.method === 'notifications/resources/updated' && m.params!._meta![SUBSCRIPTION_ID] === 7 && m.params!.uri === `pm://items/${itemB}`, 'the kept listen\'s notification');
      // Whatever the server would still write for the cancelled listen comes before the
      // barrier's notification (itemA's change also touches pm://context, which both listened to).
      await barrier(c, itemA);

      c.proc.endInput();
      expect(await c.proc.exited).toEqual({ code: 0, signal: null });
      // The cancelled listen: its acknowledgement, then nothing (no notification, no response).
      expect(c.stream('cancelled').map((m) => m.method)).toEqual(['notifications/subscriptions/acknowledged']);
      expect(c.messages().filter((m) => m.id === 'cancelled')).toEqual([]);
      // The kept one got both URIs and its graceful result at shutdown.
      const kept = c.stream(7).map((m) => `${m.method} ${(m.params!.uri as string | undefined) ?? ''}`.trim());
      expect(kept[0]).toBe('notifications/subscriptions/acknowledged');
      expect(kept).toEqual(expect.arrayContaining([`notifications/resources/updated pm://items/${itemB}`, 'notifications/resources/updated pm://context']));
      expect(c.messages().filter((m) => m.id === 7)).toEqual([expect.objectContaining({ result: expect.objectContaining({ resultType: 'complete' }) })]);
    });
  });
});
