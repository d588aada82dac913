import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { parse } from 'yaml';
import { PmMcpInvalidParamsError, PmMcpResourceNotFoundError } from '../../../../src/domain/errors/index.js';
import type { PmMcpSkillRegistry } from '../../../../src/domain/skills/index.js';
import { load, newFs, PACKAGE_DIR, skillMd, writeSkill } from '../../../support/skill-fixtures.js';

const sha = (bytes: Uint8Array) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
const encode = (text: string) => new TextEncoder().encode(text);

const BOM_CRLF = new Uint8Array([0xef, 0xbb, 0xbf, ...encode('line one\r\nline two\r\n')]);
const LATIN1 = new Uint8Array([...encode('caf'), 0xe9, 0x0a]);
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const MD = skillMd('pm-sdk', 'Drive pm from code.', 'license: MIT\nmetadata:\n  version: "1"\n  released: 2024-01-01\nrank: 010\nmask: 0x1F\nenabled: yes\n', '# pm SDK\r\n\r\nSee [cli](references/cli.md).\r\n');

/** The PmError fn throws (fails the test when it returns). */
function thrown(fn: () => unknown): PmMcpInvalidParamsError | PmMcpResourceNotFoundError {
  try {
    fn();
  } catch (error) {
    return error as PmMcpInvalidParamsError;
  }
  throw new Error('expected a throw');
}

async function fixture(): Promise<PmMcpSkillRegistry> {
  const fs = newFs();
  writeSkill(fs, PACKAGE_DIR, 'pm-sdk', {
    'SKILL.md': MD,
    'references/cli.md': BOM_CRLF,
    'references/latin1.txt': LATIN1,
    'templates/item.md': '# item\n',
    'templates/deep/empty.md': '',
    'assets/logo.png': PNG,
    'assets/valid-utf8.png': encode('not really a png'),
    'scripts/run.sh': '#!/bin/sh\necho hi\n',
    'odd name #1.md': 'spaces and a hash',
  });
  await fs.ensureDir(`${PACKAGE_DIR}/pm-sdk/empty-dir`);
  return load(fs, { workspaceRoot: undefined });
}

describe('PmMcpSkillRegistry content', () => {
  it('describes every file once, SKILL.md first, with sha256 digests and sizes over the raw bytes', async () => {
    const registry = await fixture();
    const { skill } = registry.get('skill://pm-sdk/SKILL.md');
    expect(skill.uri).toBe('skill://pm-sdk/SKILL.md');
    expect(skill.resources.map((r) => r.uri)).toEqual([
      'skill://pm-sdk/SKILL.md',
      'skill://pm-sdk/assets/logo.png',
      'skill://pm-sdk/assets/valid-utf8.png',
      'skill://pm-sdk/odd%20name%20%231.md',
      'skill://pm-sdk/references/cli.md',
      'skill://pm-sdk/references/latin1.txt',
      'skill://pm-sdk/scripts/run.sh',
      'skill://pm-sdk/templates/deep/empty.md',
      'skill://pm-sdk/templates/item.md',
    ]);
    for (const ref of skill.resources) {
      expect(Object.keys(ref).sort()).toEqual(['digest', 'size', 'uri']);
      expect(ref.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    }
    const byUri = Object.fromEntries(skill.resources.map((r) => [r.uri, r]));
    expect(byUri['skill://pm-sdk/SKILL.md']).toEqual({ uri: 'skill://pm-sdk/SKILL.md', digest: sha(encode(MD)), size: encode(MD).length });
    expect(byUri['skill://pm-sdk/references/cli.md']).toMatchObject({ digest: sha(BOM_CRLF), size: BOM_CRLF.length });
    expect(byUri['skill://pm-sdk/references/latin1.txt']).toMatchObject({ digest: sha(LATIN1), size: 5 });
    expect(byUri['skill://pm-sdk/templates/deep/empty.md']).toMatchObject({ digest: sha(new Uint8Array()), size: 0 });
  });

  it('passes the front matter through verbatim under the YAML 1.2 core schema', async () => {
    const { skill } = (await fixture()).get('skill://pm-sdk/SKILL.md');
    expect(skill.frontmatter).toEqual({ name: 'pm-sdk', description: 'Drive pm from code.', license: 'MIT', metadata: { version: '1', released: '2024-01-01' }, rank: 10, mask: 31, enabled: 'yes' });
  });

  it('serves text exactly as stored (BOM and CRLF kept) so it encodes back to the digested bytes', async () => {
    const registry = await fixture();
    const { contents } = registry.read('skill://pm-sdk/references/cli.md');
    expect(contents).toEqual([{ uri: 'skill://pm-sdk/references/cli.md', mimeType: 'text/markdown', text: '\uFEFFline one\r\nline two\r\n' }]);
    const text = (contents[0] as { text: string }).text;
    expect(sha(encode(text))).toBe(registry.get('skill://pm-sdk/SKILL.md').skill.resources.find((r) => r.uri.endsWith('cli.md'))!.digest);
    expect(registry.read('skill://pm-sdk/SKILL.md').contents[0]).toEqual({ uri: 'skill://pm-sdk/SKILL.md', mimeType: 'text/markdown', text: MD });
    expect(registry.read('skill://pm-sdk/templates/deep/empty.md').contents[0]).toEqual({ uri: 'skill://pm-sdk/templates/deep/empty.md', mimeType: 'text/markdown', text: '' });
  });

  it('serves non-UTF-8 and binary-typed files as base64 blobs of the raw bytes', async () => {
    const registry = await fixture();
    expect(registry.read('skill://pm-sdk/references/latin1.txt').contents[0]).toEqual({ uri: 'skill://pm-sdk/references/latin1.txt', mimeType: 'text/plain', blob: Buffer.from(LATIN1).toString('base64') });
    expect(registry.read('skill://pm-sdk/assets/logo.png').contents[0]).toEqual({ uri: 'skill://pm-sdk/assets/logo.png', mimeType: 'image/png', blob: Buffer.from(PNG).toString('base64') });
    expect(registry.read('skill://pm-sdk/assets/valid-utf8.png').contents[0]).toMatchObject({ mimeType: 'image/png', blob: Buffer.from('not really a png').toString('base64') });
    expect(registry.read('skill://pm-sdk/scripts/run.sh').contents[0]).toMatchObject({ mimeType: 'application/x-sh', text: '#!/bin/sh\necho hi\n' });
  });

  it('refuses unknown URIs: resources/read with resource-not-found, skills/get with -32602', async () => {
    const registry = await fixture();
    for (const uri of ['skill://pm-sdk/missing.md', 'skill://pm-sdk/references', 'skill://pm-sdk', 'skill://other/SKILL.md', 'pm://items']) {
      expect(() => registry.read(uri)).toThrow(PmMcpResourceNotFoundError);
    }
    expect(thrown(() => registry.read('skill://pm-sdk/nope')).toJsonRpcError()).toEqual({ code: -32602, message: 'Resource not found', data: { uri: 'skill://pm-sdk/nope' } });
    for (const uri of ['skill://mcp-conformance-nonexistent-skill-9f3a2b/SKILL.md', 'skill://pm-sdk/templates/item.md', 'skill://pm-sdk', 'skill://pm-sdk/SKILL.md/']) {
      expect(() => registry.get(uri)).toThrow(PmMcpInvalidParamsError);
    }
    expect(registry.hasResource('skill://pm-sdk/templates/item.md')).toBe(true);
    expect(registry.hasResource('skill://pm-sdk/templates')).toBe(false);
    expect(registry.ownsUri('skill://anything')).toBe(true);
    expect(registry.ownsUri('pm://items')).toBe(false);
  });

  it('reads one directory level: files with metadata, subdirectories as inode/directory, by name', async () => {
    const registry = await fixture();
    expect(registry.readDirectory('skill://pm-sdk')).toEqual({
      resources: [
        { uri: 'skill://pm-sdk/SKILL.md', name: 'SKILL.md', mimeType: 'text/markdown', size: encode(MD).length },
        { uri: 'skill://pm-sdk/assets', name: 'assets', mimeType: 'inode/directory' },
        { uri: 'skill://pm-sdk/empty-dir', name: 'empty-dir', mimeType: 'inode/directory' },
        { uri: 'skill://pm-sdk/odd%20name%20%231.md', name: 'odd name #1.md', mimeType: 'text/markdown', size: 17 },
        { uri: 'skill://pm-sdk/references', name: 'references', mimeType: 'inode/directory' },
        { uri: 'skill://pm-sdk/scripts', name: 'scripts', mimeType: 'inode/directory' },
        { uri: 'skill://pm-sdk/templates', name: 'templates', mimeType: 'inode/directory' },
      ],
    });
    expect(registry.readDirectory('skill://pm-sdk/templates')).toEqual({
      resources: [
        { uri: 'skill://pm-sdk/templates/deep', name: 'deep', mimeType: 'inode/directory' },
        { uri: 'skill://pm-sdk/templates/item.md', name: 'item.md', mimeType: 'text/markdown', size: 7 },
      ],
    });
    expect(registry.readDirectory('skill://pm-sdk/empty-dir')).toEqual({ resources: [] });
    expect(registry.isDirectory('skill://pm-sdk/templates/deep')).toBe(true);
  });

  it('refuses a directory read of a file, an unknown path or a trailing slash with -32602', async () => {
    const registry = await fixture();
    for (const uri of ['skill://pm-sdk/SKILL.md', 'skill://pm-sdk/nope', 'skill://pm-sdk/', 'skill://other']) {
      const error = thrown(() => registry.readDirectory(uri));
      expect(error).toBeInstanceOf(PmMcpInvalidParamsError);
      expect(error.toJsonRpcError()).toMatchObject({ code: -32602, data: { uri } });
    }
  });

  it('lists each SKILL.md for resources/list with name and description from its front matter', async () => {
    const registry = await fixture();
    expect(registry.resources()).toEqual([{ uri: 'skill://pm-sdk/SKILL.md', name: 'pm-sdk', description: 'Drive pm from code.', mimeType: 'text/markdown', size: encode(MD).length }]);
    expect(registry.listResources()).toEqual({ resources: registry.resources() });
  });

  it('carries origin, trust, token estimate, size and compatibility in the entry _meta', async () => {
    const { skill } = (await fixture()).get('skill://pm-sdk/SKILL.md');
    const mdBytes = encode(MD).length;
    const textBytes = [mdBytes, BOM_CRLF.length, 7, 0, 19, 17];
    expect(skill._meta).toEqual({
      'dev.unbrained.pm/skill': {
        origin: 'package',
        overridesPackage: false,
        trust: 'untrusted',
        estimatedTokens: { skillMd: Math.ceil(mdBytes / 4), allText: textBytes.reduce((sum, n) => sum + Math.ceil(n / 4), 0), method: 'ceil(utf8Bytes / 4) per text file' },
        totalBytes: skill.resources.reduce((sum, r) => sum + r.size, 0),
        compatibility: { package: { name: '@unbrained/pm-cli', version: '0.1.0' }, mcp: { extension: 'io.modelcontextprotocol/skills', revision: 'SEP-2640@a3e147ca2710f68214247aecc729731ee1ae8d03' } },
      },
    });
  });

  it('hands out frozen bodies: a caller cannot alter what the next caller gets', async () => {
    const registry = await fixture();
    const { skill } = registry.get('skill://pm-sdk/SKILL.md');
    expect(Object.isFrozen(skill)).toBe(true);
    expect(Object.isFrozen(skill.resources[0])).toBe(true);
    expect(Object.isFrozen(skill.frontmatter)).toBe(true);
    expect(Object.isFrozen(registry.readDirectory('skill://pm-sdk').resources)).toBe(true);
  });

  it('reads nothing again after load: every operation is served from memory', async () => {
    const fs = newFs();
    writeSkill(fs, PACKAGE_DIR, 'pm-sdk', { 'a.md': 'a' });
    const registry = await load(fs, { workspaceRoot: undefined });
    const reads = fs.bodyReads;
    await fs.writeAtomic(`${PACKAGE_DIR}/pm-sdk/a.md`, 'changed on disk');
    expect(registry.read('skill://pm-sdk/a.md').contents[0]).toMatchObject({ text: 'a' });
    registry.list();
    registry.readDirectory('skill://pm-sdk');
    expect(fs.bodyReads).toBe(reads);
  });

  it('passes the checks a SEP-2640 host runs on the wire JSON (entry vs file front matter, digests, sizes)', async () => {
    const registry = await fixture();
    const wire = JSON.parse(JSON.stringify(registry.list())) as { skills: { uri: string; frontmatter: Record<string, unknown>; resources: { uri: string; digest: string; size: number }[] }[] };
    for (const entry of wire.skills) {
      const read = JSON.parse(JSON.stringify(registry.read(entry.uri))) as { contents: { text: string; mimeType: string }[] };
      expect(read.contents[0]!.mimeType).toBe('text/markdown');
      const text = read.contents[0]!.text.replace(/^\uFEFF/, '');
      const block = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text)![1]!;
      const file = parse(block) as Record<string, unknown>;
      for (const key of new Set([...Object.keys(file), ...Object.keys(entry.frontmatter)])) expect(isDeepStrictEqual(file[key] ?? null, entry.frontmatter[key] ?? null)).toBe(true);
      expect(entry.uri.split('/').at(-2)).toBe(entry.frontmatter.name);
      for (const ref of entry.resources) {
        const content = (JSON.parse(JSON.stringify(registry.read(ref.uri))) as { contents: { text?: string; blob?: string }[] }).contents[0]!;
        const bytes = content.text !== undefined ? encode(content.text) : new Uint8Array(Buffer.from(content.blob!, 'base64'));
        expect(sha(bytes)).toBe(ref.digest);
        expect(bytes.length).toBe(ref.size);
      }
    }
  });
});
