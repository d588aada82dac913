/**
 * Every cache of the protocol core is invisible: the same requests produce the same bytes with
 * caching on and with every BoundedCache bypassed (the plain path) — serialized results,
 * decorated lists, parsed arguments of read-only tools, x-mcp-header annotations, Accept forms.
 */
import { BoundedCache } from '../../../../src/domain/util/bounded-cache.js';
import { hasMcpExtension, type PmMcpMethodRegistry } from '../../../../src/domain/mcp/index.js';
import { McpHarness } from '../../../support/mcp-fake-server.js';

const EXT = 'com.example/decorated';

function decorated(methods: PmMcpMethodRegistry): void {
  methods.addListDecorator({
    id: EXT,
    method: 'tools/list',
    variant: (ctx) => (hasMcpExtension(ctx, EXT) ? 'on' : undefined),
    decorate: (items) => items.map((tool) => ({ ...tool, _meta: { decorated: true } })),
  });
}

/** A fixed sequence of requests touching every cache, as the texts written for them. */
async function run(): Promise<string[]> {
  const h = new McpHarness({ extensions: { [EXT]: {} } }, decorated);
  const negotiated = { 'io.modelcontextprotocol/clientCapabilities': { extensions: { [EXT]: {} } } };
  for (let round = 0; round < 3; round++) {
    await h.modern(`l${round}`, 'tools/list');
    const first = await h.modern(`d${round}`, 'tools/list', {}, negotiated);
    await h.modern(`n${round}`, 'tools/list', { cursor: (first.result as { nextCursor: string }).nextCursor }, negotiated);
    await h.modern(`e${round}`, 'tools/call', { name: 'echo', arguments: { text: 'same' } });
    await h.modern(`r${round}`, 'resources/list');
    await h.modern(`p${round}`, 'prompts/list');
    await h.modern(`s${round}`, 'server/discover');
    await h.legacy(`g${round}`, 'tools/list');
  }
  expect(h.problems).toEqual([]);
  return h.written.map((w) => w.text);
}

afterEach(() => BoundedCache.bypass(false));

test('the same requests write the same bytes with caches on and bypassed', async () => {
  const cached = await run();
  BoundedCache.bypass(true);
  const plain = await run();
  expect(plain).toEqual(cached);
  expect(cached.length).toBe(24);
});
