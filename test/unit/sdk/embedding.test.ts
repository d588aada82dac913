import { readFileSync, existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { embedPm } from '../../../docs/examples/embed-pm.js';
import * as sdk from '../../../src/sdk/index.js';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

describe('the public SDK', () => {
  it('runs the docs/SDK.md embedding example end to end', async () => {
    const { created, discover, call } = await embedPm();
    expect(discover).toMatchObject({ id: 1, result: { resultType: 'complete', supportedVersions: ['2026-07-28'] } });
    expect(call).toMatchObject({ id: 2, result: { resultType: 'complete', structuredContent: { item: { id: created, title: 'Embedded item' } } } });
  });

  it('exports the names the seeds make public', () => {
    for (const name of ['PM_MCP_PROTOCOL_VERSION', 'PM_MCP_LEGACY_PROTOCOL_VERSIONS', 'resolveMcpRequestContext', 'buildMcpDiscoverResult', 'buildMcpCompleteResult', 'PmMcpSubscriptionRegistry', 'Tracker', 'PmError', 'ValidationError', 'PmMcpSkillRegistry', 'assertPmMcpSkillsCapability', 'PM_MCP_SKILLS_SERVER_CAPABILITY', 'buildMcpHttpRequestHeaders', 'validateMcpHttpRequestHeaders', 'buildMcpProtectedResourceMetadata']) {
      expect(sdk).toHaveProperty(name);
    }
    expect(sdk.PM_MCP_LEGACY_PROTOCOL_VERSIONS).toEqual(['2025-11-25', '2025-06-18']);
  });

  it('reaches no node I/O, express, jose or inversify through its import graph', () => {
    const seen = new Set<string>();
    const external = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]/g)) {
        const spec = match[1]!;
        if (!spec.startsWith('.')) {
          external.add(spec);
          continue;
        }
        const target = resolve(dirname(file), spec.replace(/\.js$/, '.ts'));
        if (existsSync(target)) visit(target);
      }
    };
    visit(resolve(repo, 'src/sdk/index.ts'));
    expect(seen.size).toBeGreaterThan(20);
    const forbidden = [...external].filter((spec) => spec.startsWith('node:') || ['fs', 'path', 'os', 'crypto', 'child_process', 'http', 'express', 'jose', 'inversify'].includes(spec.split('/')[0]!));
    expect(forbidden).toEqual([]);
    expect([...external].sort()).toEqual(expect.arrayContaining(['zod']));
  });
});
