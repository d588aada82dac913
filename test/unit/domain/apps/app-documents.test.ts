/**
 * A view's document (seed 000 "MCP Apps": self-contained, no network, bounded): what the
 * rendered HTML carries, how inlined code is kept from ending its element, the size bound, and
 * the per-server cache of rendered documents over the assets port.
 */
import { MemoryAppViewAssets } from '../../../../src/adapters/memory/memory-app-view-assets.js';
import { PM_MCP_APP_CONTRACTS, PM_MCP_APP_DOCUMENT_CSP, PM_MCP_APP_MAX_HTML_BYTES, PmMcpAppDocuments, PmMcpAppTooLargeError, renderPmMcpAppHtml } from '../../../../src/domain/apps/index.js';
import { BoundedCache } from '../../../../src/domain/util/bounded-cache.js';

const board = PM_MCP_APP_CONTRACTS[1]!;

describe('renderPmMcpAppHtml', () => {
  test('an HTML5 document with the CSP, the title, the inlined style and script and a placeholder', () => {
    const html = renderPmMcpAppHtml(board, { script: 'console.log(1)', style: 'body{color:red}' });
    expect(html.startsWith('<!DOCTYPE html>\n<html lang="en">')).toBe(true);
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="${PM_MCP_APP_DOCUMENT_CSP}">`);
    expect(PM_MCP_APP_DOCUMENT_CSP).toContain("connect-src 'none'");
    expect(PM_MCP_APP_DOCUMENT_CSP).toContain("default-src 'none'");
    expect(PM_MCP_APP_DOCUMENT_CSP).not.toContain('unsafe-eval');
    expect(html).toContain('<title>pm · Board by status</title>');
    expect(html).toContain('<style>body{color:red}</style>');
    expect(html).toContain('<script>console.log(1)</script>');
    expect(html).toContain('Waiting for pm_list');
    expect(html).toContain('<body data-pm-view="board">');
  });

  test('inlined code cannot end its element or open a comment', () => {
    const html = renderPmMcpAppHtml(board, { script: 'a="</script><script>alert(1)</SCRIPT>";b=/<!--/', style: 'a::after{content:"</style>"}' });
    expect(html.match(/<\/script/gi)).toHaveLength(1);
    expect(html.match(/<\/style/gi)).toHaveLength(1);
    expect(html).not.toContain('<!--');
    expect(html).toContain('a="\\x3C/script><script>alert(1)\\x3C/SCRIPT>";b=/\\x3C!--/');
    expect(html).toContain('content:"\\3C /style>"');
    // The escaped script still means the same string.
    expect(new Function('return "\\x3C/script>"')()).toBe('</script>');
  });

  test('escapes the title and refuses a document above the bound', () => {
    expect(renderPmMcpAppHtml({ ...board, title: 'a<b>&"c"' }, { script: '', style: '' })).toContain('<title>pm · a&lt;b&gt;&amp;&quot;c&quot;</title>');
    const near = 'x'.repeat(PM_MCP_APP_MAX_HTML_BYTES - 2000);
    expect(() => renderPmMcpAppHtml(board, { script: near, style: '' })).not.toThrow();
    expect(() => renderPmMcpAppHtml(board, { script: `${near}${'é'.repeat(1500)}`, style: '' })).toThrow(PmMcpAppTooLargeError);
  });
});

describe('PmMcpAppDocuments', () => {
  const assets = () => new MemoryAppViewAssets({ board: { script: 'run()', style: 'p{}' } });

  test('reads each view once and serves the same document after', async () => {
    const source = assets();
    const documents = new PmMcpAppDocuments(source);
    const first = await documents.document(board);
    expect(await documents.document(board)).toBe(first);
    expect(first).toBe(renderPmMcpAppHtml(board, { script: 'run()', style: 'p{}' }));
    expect(source.reads.get('board')).toBe(1);
  });

  test('with caches bypassed every request reads the assets again, with the same result', async () => {
    const source = assets();
    const documents = new PmMcpAppDocuments(source);
    const cached = await documents.document(board);
    BoundedCache.bypass(true);
    try {
      expect(await documents.document(board)).toBe(cached);
      expect(await documents.document(board)).toBe(cached);
    } finally {
      BoundedCache.bypass(false);
    }
    expect(source.reads.get('board')).toBe(3);
  });

  test('a view without built assets is a -32603 and is not remembered', async () => {
    const source = assets();
    const documents = new PmMcpAppDocuments(source);
    const item = PM_MCP_APP_CONTRACTS[2]!;
    await expect(documents.document(item)).rejects.toMatchObject({ jsonRpcCode: -32603, message: expect.stringContaining('dist/apps/') });
    await expect(documents.document(item)).rejects.toMatchObject({ jsonRpcCode: -32603 });
    expect(source.reads.get('item')).toBe(2);
  });
});
