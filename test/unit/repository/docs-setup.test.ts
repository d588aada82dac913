/**
 * The documentation a newcomer follows works from this repository as it is: every relative
 * link resolves to a file inside it, no page cites planning material that is not shipped, and
 * docs/MCP.md's first host configuration runs the clone's own bin (the registry form of npx is
 * offered only as the configuration for after publication).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { markdownCode } from '../../support/markdown-code.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const pages = ['README.md', ...readdirSync(path.join(ROOT, 'docs'), { recursive: true }).map(String).filter((f) => f.endsWith('.md')).map((f) => path.join('docs', f))];
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

describe('documentation a newcomer follows', () => {
  test.each(pages)('%s: relative links resolve inside the repository', (page) => {
    const outside: string[] = [];
    for (const { target, line } of markdownCode(read(page)).links) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) continue;
      const resolved = path.resolve(ROOT, path.dirname(page), decodeURI(target.split('#')[0]!));
      if (path.relative(ROOT, resolved).startsWith('..') || !existsSync(resolved)) outside.push(`${page}:${line} ${target}`);
    }
    expect(outside).toEqual([]);
  });

  test.each(pages)('%s: cites no planning material that is not in the repository', (page) => {
    const text = read(page);
    for (const phrase of ['spec notes', 'spec-notes', 'DESIGN.md', 'DEVELOPERS.md', 'ANCHORS.md']) expect(text).not.toContain(phrase);
  });

  test("docs/MCP.md's first host configuration runs the clone's bin; the registry package waits for publication", () => {
    const text = read('docs/MCP.md');
    const first = markdownCode(text).blocks.find((block) => block.lang === 'json' && block.text.includes('mcpServers'))!;
    const server = (JSON.parse(first.text) as { mcpServers: Record<string, { command: string; args: string[] }> }).mcpServers.pm!;
    expect(server.command).toBe('node');
    expect(server.args[0]).toMatch(/\/bin\/pm-mcp\.cjs$/);
    expect(existsSync(path.join(ROOT, 'bin', 'pm-mcp.cjs'))).toBe(true);
    const registry = text.indexOf('"@unbrained/pm-cli", "pm-mcp"');
    expect(registry).toBeGreaterThan(text.indexOf('**After publication only:**'));
    expect(text.indexOf('**After publication only:**')).toBeGreaterThan(0);
  });

  test("README's first command inside the clone leaves no untracked .agents/: it is ignored, and README says where it went", () => {
    const ignored = execFileSync('git', ['check-ignore', '--no-index', '.agents/pm/config.yaml', '.agents/pm/items/pm-abc.md'], { cwd: ROOT, encoding: 'utf8' });
    expect(ignored.trim().split('\n')).toEqual(['.agents/pm/config.yaml', '.agents/pm/items/pm-abc.md']);
    expect(read('README.md')).toMatch(/`\.agents\/pm` at the clone's root, which `\.gitignore` leaves out/);
  });
});
