// Test host: `node shaped-host.mjs stdio|http [pm-mcp-http flags]` runs pm-mcp or pm-mcp-http
// from the compiled dist/ with one extra server extension, `com.example/shaped`, registered the
// way any extension plugs in. For requests that negotiated it, the extension decorates
// tools/list entries, shapes tools/call results (including memoized ones: pm_get), and rewrites
// resources/list entries. The memo-isolation tests use it to prove that differently negotiated
// requests never share bytes.
import { hasMcpExtension } from '../../../dist/domain/mcp/request-context.js';

const EXT = 'com.example/shaped';
const variant = (ctx) => (hasMcpExtension(ctx, EXT) ? 'on' : undefined);

/** The extension: advertised in discover, hooks only for requests that declared it. */
const shaped = {
  id: EXT,
  offer: { marker: 'SHAPED' },
  register(methods) {
    methods.addListDecorator({ id: EXT, method: 'tools/list', variant, decorate: (tools) => tools.map((tool) => ({ ...tool, _meta: { [`${EXT}/marker`]: 'SHAPED' } })) });
    methods.addResultShaper({
      id: EXT,
      method: 'tools/call',
      variant,
      shape: (outcome) => (outcome.resultType && outcome.resultType !== 'complete' ? outcome : { ...outcome, body: { ...outcome.body, content: [{ type: 'text', text: 'SHAPED: see structuredContent' }] } }),
    });
    methods.addResultShaper({ id: EXT, method: 'tools/list', variant, shape: (outcome) => ({ ...outcome, body: { ...outcome.body, _meta: { [`${EXT}/shaped`]: 'SHAPED' } } }) });
  },
};

const [mode, ...rest] = process.argv.slice(2);
if (mode === 'stdio') {
  const { main } = await import('../../../dist/composition/mcp-stdio-main.js');
  await main({ extensions: [shaped] });
} else if (mode === 'http') {
  const { main } = await import('../../../dist/composition/mcp-http-main.js');
  await main(rest, { extensions: [shaped] });
} else {
  process.stderr.write('usage: shaped-host.mjs stdio|http [flags]\n');
  process.exit(2);
}
