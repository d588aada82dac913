import { z } from 'zod';
import { PmMcpToolRegistry, type AnyMcpToolDefinition } from '../../../../../src/domain/mcp/tool-registry.js';
import { McpHarness } from '../../../../support/mcp-fake-server.js';

/** Two tools whose argument parsers count their runs: one read-only, one that changes state. */
function countingTools(parses: Record<string, number>): AnyMcpToolDefinition[] {
  const counted = (tool: string) =>
    z.object({ text: z.string().max(2000) }).refine((args) => {
      parses[tool] = (parses[tool] ?? 0) + 1;
      return args.text !== 'refused';
    });
  const inputSchema = { type: 'object' as const, properties: { text: { type: 'string', maxLength: 2000 } }, required: ['text'], additionalProperties: false };
  return [
    {
      name: 'read',
      description: 'Reads.',
      inputSchema,
      annotations: { readOnlyHint: true },
      args: counted('read'),
      handler: (args: { text: string }) => ({ structuredContent: { text: args.text, frozen: Object.isFrozen(args) } }),
    },
    {
      name: 'write',
      description: 'Writes.',
      inputSchema,
      annotations: { readOnlyHint: false },
      args: counted('write'),
      handler: (args: { text: string }) => ({ structuredContent: { text: args.text } }),
    },
  ];
}

describe('tools/call keeps the parsed arguments of read-only tools', () => {
  let parses: Record<string, number>;
  let h: McpHarness;
  beforeEach(() => {
    parses = {};
    h = new McpHarness({ tools: new PmMcpToolRegistry(countingTools(parses)) });
  });
  afterEach(() => expect(h.problems).toEqual([]));

  const call = async (id: number, name: string, text: unknown) => (await h.modern(id, 'tools/call', { name, arguments: { text } })).result as { structuredContent?: { text: string; frozen?: boolean }; isError?: boolean };

  test('the same arguments of a read-only tool are parsed once and handed over frozen', async () => {
    expect((await call(1, 'read', 'a')).structuredContent).toEqual({ text: 'a', frozen: true });
    expect((await call(2, 'read', 'a')).structuredContent).toEqual({ text: 'a', frozen: true });
    expect(parses.read).toBe(1);
    await call(3, 'read', 'b');
    expect(parses.read).toBe(2);
  });

  test('tools that change state, failed parses and long arguments are parsed every time', async () => {
    await call(1, 'write', 'a');
    await call(2, 'write', 'a');
    expect(parses.write).toBe(2);

    expect((await call(3, 'read', 'refused')).isError).toBe(true);
    expect((await call(4, 'read', 'refused')).isError).toBe(true);
    expect(parses.read).toBe(2);

    const long = 'x'.repeat(1500);
    await call(5, 'read', long);
    await call(6, 'read', long);
    expect(parses.read).toBe(4);
  });
});
