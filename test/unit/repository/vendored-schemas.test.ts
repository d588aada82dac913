/**
 * The official MCP JSON Schemas the tests validate against are vendored unmodified in
 * test/fixtures/mcp-schema/ (its README.md names the upstream repository, the snapshot commit
 * and each file's sha256). A silent edit of a schema, a file added without a row, or a row
 * without its file fails here.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { MCP_SCHEMA_DIR, mcpSchemaPath, type McpSchemaRevision } from '../../support/mcp-schema.js';

const REVISIONS: readonly McpSchemaRevision[] = ['2026-07-28', '2025-11-25', '2025-06-18'];
const UPSTREAM_COMMIT = /^- Snapshot commit: `([0-9a-f]{40})`/m;

/** The README's table rows: local file → { upstream path, sha256 }. */
function parseSchemaTable(readme: string): Map<string, { upstream: string; sha256: string }> {
  const rows = new Map<string, { upstream: string; sha256: string }>();
  for (const line of readme.split('\n')) {
    const match = /^\| `([^`]+)` \| `([^`]+)` \| [^|]* \| `([0-9a-f]{64})` \|$/.exec(line);
    if (match) rows.set(match[1]!, { upstream: match[2]!, sha256: match[3]! });
  }
  return rows;
}

function sha256(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

describe('the vendored MCP schemas', () => {
  const readme = readFileSync(path.join(MCP_SCHEMA_DIR, 'README.md'), 'utf8');
  const table = parseSchemaTable(readme);

  test('the README names the upstream repository, its snapshot commit and license', () => {
    expect(readme).toContain('modelcontextprotocol/modelcontextprotocol');
    expect(readme).toMatch(UPSTREAM_COMMIT);
    expect(readme).toMatch(/## License/);
  });

  test.each(REVISIONS)('%s: the file matches the sha256 of its README row', (revision) => {
    const row = table.get(`${revision}/schema.json`);
    expect(row).toEqual({ upstream: `schema/${revision}/schema.json`, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(sha256(mcpSchemaPath(revision))).toBe(row!.sha256);
  });

  test('every schema file in the folder has a row, and every row a file', () => {
    const files = readdirSync(MCP_SCHEMA_DIR, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .flatMap((entry) => readdirSync(path.join(MCP_SCHEMA_DIR, entry.name)).map((name) => `${entry.name}/${name}`))
      .sort();
    expect([...table.keys()].sort()).toEqual(files);
    expect(files).toEqual(REVISIONS.map((revision) => `${revision}/schema.json`).sort());
  });

  test('negative control: a changed byte or a changed row is told apart', () => {
    const bytes = readFileSync(mcpSchemaPath('2025-06-18'));
    const edited = Buffer.from(bytes);
    const at = edited.length - 2;
    edited[at] = edited[at]! ^ 0x01;
    expect(createHash('sha256').update(edited).digest('hex')).not.toBe(table.get('2025-06-18/schema.json')!.sha256);
    const row = '| `2025-06-18/schema.json` | `schema/2025-06-18/schema.json` | x | `' + '0'.repeat(64) + '` |';
    expect(parseSchemaTable(row).get('2025-06-18/schema.json')).toEqual({ upstream: 'schema/2025-06-18/schema.json', sha256: '0'.repeat(64) });
    expect(parseSchemaTable('| `a.json` | `b.json` | x | `not-a-hash` |').size).toBe(0);
  });
});
