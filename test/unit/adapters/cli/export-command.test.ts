import { UsageError } from '../../../../src/adapters/cli/usage-error.js';
import { cliHarness } from '../../../support/cli-harness.js';

describe('pm export', () => {
  it('writes every item, open and closed, ordered by id, and reports path, size and digest', async () => {
    const cli = await cliHarness();
    const a = (await cli.json<{ item: { id: string } }>(['create', 'First'])).item.id;
    const b = (await cli.json<{ item: { id: string } }>(['create', 'Second'])).item.id;
    await cli.json(['close', b, '--evidence', 'done']);
    const out = await cli.json<{ format: string; path: string; items: number; bytes: number; digest: string; exportedAt: string }>(['export', '--format', 'jsonl']);
    expect(out).toMatchObject({ format: 'jsonl', items: 2, path: expect.stringMatching(/\/\.runtime\/exports\/export-\d{8}T\d{6}Z-[0-9a-z]{6}\.jsonl$/) });
    const text = (await cli.fs.readText(out.path))!;
    expect(text.trim().split('\n').map((line) => (JSON.parse(line) as { id: string }).id)).toEqual([a, b].sort());
    expect(out.bytes).toBe(new TextEncoder().encode(text).length);
    expect(out.digest).toBe(`sha256:${cli.hasher.sha256Hex(text)}`);
  });

  it('writes one JSON document by default', async () => {
    const cli = await cliHarness();
    await cli.json(['create', 'Only']);
    const out = await cli.json<{ path: string }>(['export']);
    expect(JSON.parse((await cli.fs.readText(out.path))!)).toMatchObject({ format: 'pm-export', version: 1, items: [{ title: 'Only' }] });
  });

  it('prints the export to stdout with --stdout or -, writing no file, even under --json', async () => {
    const cli = await cliHarness();
    const a = (await cli.json<{ item: { id: string } }>(['create', 'First'])).item.id;
    const lines = (await cli.run(['export', '--stdout', '--format', 'jsonl'])).stdout.trim().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as { id: string }).id)).toEqual([a]);
    const doc = JSON.parse((await cli.run(['export', '-', '--json'])).stdout) as { format: string; items: { id: string }[] };
    expect(doc).toMatchObject({ format: 'pm-export', version: 1, items: [{ id: a, title: 'First' }] });
    expect(await cli.fs.isDirectory('/project/.agents/pm/.runtime/exports')).toBe(false);
    await cli.json(['export']);
    expect(await cli.fs.isDirectory('/project/.agents/pm/.runtime/exports')).toBe(true);
    expect(((await cli.run(['export', 'out.json'])).error as Error).message).toMatch(/^<file>: only '-' \(stdout\) can be named; to write a file of your choosing, redirect: pm export --stdout > FILE/);
  });

  it('refuses an unknown format with exit 2', async () => {
    const cli = await cliHarness();
    const result = await cli.run(['export', '--format', 'xml']);
    expect(result.error).toBeInstanceOf(UsageError);
    expect((result.error as UsageError).exitCode).toBe(2);
    expect((result.error as UsageError).message).toMatch(/^--format: unknown value 'xml'; expected one of: json, jsonl$/);
  });

  it('prints the path and digest for people', async () => {
    const cli = await cliHarness();
    const result = await cli.run(['export']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Exported 0 items as json to \S+\.json\n {2}\d+ bytes, sha256:[0-9a-f]{64}\n$/);
  });
});
