import { readFileSync } from 'node:fs';
import { PM_ERROR_CODES } from '../../../src/domain/errors/index.js';
import { PM_MCP_AUTH_ERROR_CODES, PmMcpInsufficientScopeError, PmMcpUnauthorizedError } from '../../../src/domain/mcp/auth/auth-errors.js';

/**
 * docs/HTTP.md "Application error codes" lists every application code pm defines with the HTTP
 * status it comes with: the codes are enumerated from the domain, so a new code without a row
 * (or a row for a code that no longer exists) fails here.
 */
const doc = readFileSync(new URL('../../../docs/HTTP.md', import.meta.url), 'utf8');

/** The table's rows as code → HTTP status. */
function documented(): Map<number, number> {
  const section = doc.split('### Application error codes')[1]?.split(/\n#{2,3} |\n`Last-Event-ID`/)[0];
  if (!section) throw new Error('docs/HTTP.md has no "Application error codes" section');
  const rows = new Map<number, number>();
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    if (!/^-\d+$/.test(cells[1] ?? '')) continue;
    rows.set(Number(cells[1]), Number(cells[3]));
  }
  return rows;
}

const context = { resourceMetadataUrl: 'https://pm.example/.well-known/oauth-protected-resource', requiredScopes: ['pm:write'] };

describe('docs/HTTP.md application error codes', () => {
  it('lists every application code, and only those', () => {
    const codes = [...Object.values(PM_ERROR_CODES), ...Object.values(PM_MCP_AUTH_ERROR_CODES)].sort();
    expect([...documented().keys()].sort()).toEqual(codes);
  });

  it('gives each tracker code 200 (a result of the request that met it)', () => {
    const rows = documented();
    for (const code of Object.values(PM_ERROR_CODES)) expect([code, rows.get(code)]).toEqual([code, 200]);
  });

  it("gives each authorization code its refusal's HTTP status", () => {
    const rows = documented();
    for (const refusal of [new PmMcpUnauthorizedError('no token', context), new PmMcpInsufficientScopeError(context)]) {
      expect([refusal.jsonRpcCode, rows.get(refusal.jsonRpcCode)]).toEqual([refusal.jsonRpcCode, refusal.httpStatus]);
    }
  });
});
