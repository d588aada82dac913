/**
 * Embedding pm in another host with the public SDK only: the host provides the ports (here the
 * SDK's in-memory adapters; a real host would pass its own file system, clock and lock), opens a
 * tracker, and serves MCP through the same dispatcher pm-mcp uses. test/unit/sdk runs this file.
 */
import {
  MemoryFileSystem, ManualClock, SeededIdSource, PureSha256Hasher, MemoryLocker,
  initTracker, Tracker, createPmTrackerMcpServer, createPmMcpMethodRegistry, PmMcpDispatcher,
  MemoryTransport, MemoryItemIndex, PM_MCP_PROTOCOL_VERSION,
} from '../../src/sdk/index.js';

export async function embedPm(): Promise<{ created: string; discover: unknown; call: unknown }> {
  const fs = new MemoryFileSystem();
  const clock = new ManualClock('2026-11-29T12:00:00Z');
  const ports = { fs, clock, ids: new SeededIdSource(1), hasher: new PureSha256Hasher(), locker: new MemoryLocker(clock), index: new MemoryItemIndex() };

  await initTracker(fs, '/workspace/.agents/pm');
  const tracker = await Tracker.open(ports, '/workspace/.agents/pm', { defaultActor: 'host-bot' });
  const { item } = await tracker.create({ title: 'Embedded item', priority: 1 });

  const server = createPmTrackerMcpServer({ tracker, fs, serverInfo: { name: 'my-host', version: '1.0.0' } });
  // A transport frames messages for the dispatcher; the in-memory one takes frames from the host.
  const transport = new MemoryTransport();
  await transport.start(new PmMcpDispatcher(server, createPmMcpMethodRegistry(server)));
  const _meta = { 'io.modelcontextprotocol/protocolVersion': PM_MCP_PROTOCOL_VERSION, 'io.modelcontextprotocol/clientCapabilities': {} };

  await transport.deliver(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta } }));
  await transport.deliver(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'pm_get', arguments: { id: item.id }, _meta } }));
  await transport.close();
  const [discover, call] = transport.outbox.map((message) => JSON.parse(message.text) as unknown);
  return { created: item.id, discover, call };
}
