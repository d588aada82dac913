/**
 * The request-target path pm-mcp-http matches its endpoint on (docs/HTTP.md "What happens to one
 * POST"): express's router pathname semantics (no decoding, no dot-segment removal), computed
 * without express's request prototype.
 */
import { isRequestTargetPath, requestTargetPath } from '../../../../src/adapters/http/request-target.js';

describe('request target paths', () => {
  test.each([
    ['/mcp', '/mcp'],
    ['/mcp?x=1', '/mcp'],
    ['/mcp#frag', '/mcp'],
    ['/a/../mcp', '/a/../mcp'],
    ['/m%63p', '/m%63p'],
    ['http://127.0.0.1:8787/mcp?x', '/mcp'],
    ['https://example.com', '/'],
    ['*', '*'],
  ])('%s → %s', (url, path) => {
    expect(requestTargetPath(url)).toBe(path);
    expect(isRequestTargetPath(url, '/mcp')).toBe(path === '/mcp');
  });
});
