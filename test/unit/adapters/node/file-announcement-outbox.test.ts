import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { FailingFileSystem } from '../../../../src/adapters/memory/failing-file-system.js';
import { FileAnnouncementOutbox, type FileAnnouncementOutboxOptions } from '../../../../src/adapters/node/file-announcement-outbox.js';
import { FileLocker } from '../../../../src/adapters/node/file-locker.js';
import { NodeFileSystem } from '../../../../src/adapters/node/node-file-system.js';
import type { FileSystem } from '../../../../src/ports/file-system.js';
import { useTempDir } from '../../../support/temp-dir.js';
import { describeAnnouncementOutboxContract } from '../announcement-outbox-contract.js';

const temp = useTempDir('pm-outbox-');
const file = () => `${temp()}/.runtime/announcements.jsonl`;
let ids = 0;
const handle = (fs: FileSystem = new NodeFileSystem(), options: Partial<FileAnnouncementOutboxOptions> = {}) =>
  new FileAnnouncementOutbox(fs, new FileLocker(), { file: file(), overflowMessage: 'RESCAN', newId: () => `id${++ids}`, lockTimeoutMs: 5_000, ...options });
const messages = async (outbox: FileAnnouncementOutbox) => (await outbox.pending()).map((entry) => entry.message);

describeAnnouncementOutboxContract('FileAnnouncementOutbox', async ({ overflowMessage, maxEntries }) => handle(undefined, { overflowMessage, maxEntries }));

describe('FileAnnouncementOutbox', () => {
  it('outlives the process that queued (a new handle reads it), and leaves no file once emptied', async () => {
    await handle().enqueue(['a', 'b']);
    const next = handle();
    const pending = await next.pending();
    expect(pending.map((entry) => entry.message)).toEqual(['a', 'b']);
    await next.remove(pending.map((entry) => entry.id));
    await expect(readFile(file(), 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('is shared by processes on one checkout: a removal never loses what another one added', async () => {
    const [a, b] = [handle(), handle()];
    await a.enqueue(['a1']);
    const sent = await a.pending();
    await Promise.all([b.enqueue(['b1']), a.remove(sent.map((entry) => entry.id)), b.enqueue(['b2'])]);
    expect((await messages(a)).sort()).toEqual(['b1', 'b2']);
  });

  it('replaces a torn last line (a writer killed mid-append) with an overflow entry, and the file reads clean again', async () => {
    await handle().enqueue(['a']);
    await writeFile(file(), '{"id":"x","mess', { flag: 'a' });
    const outbox = handle();
    expect(await messages(outbox)).toEqual(['RESCAN', 'a']);
    const text = await readFile(file(), 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    expect(text.trim().split('\n').map((line) => JSON.parse(line) as { message: string }).map((entry) => entry.message)).toEqual(['RESCAN', 'a']);
  });

  it('turns a damaged line into an overflow entry when adding, so nothing is dropped silently', async () => {
    await mkdir(`${temp()}/.runtime`, { recursive: true });
    await writeFile(file(), '{"id":"x1","message":"a"}\nnot json\n[1]\n');
    const outbox = handle();
    await outbox.enqueue(['b']);
    expect(await messages(outbox)).toEqual(['RESCAN', 'a', 'b']);
  });

  it('treats a queue over its cap as lost entries: one overflow entry stands for them', async () => {
    await mkdir(`${temp()}/.runtime`, { recursive: true });
    await writeFile(file(), `${'x'.repeat(16 * 1024 * 1024 + 1)}\n`);
    const outbox = handle();
    expect(await messages(outbox)).toEqual(['RESCAN']);
  });

  it('cuts a failed append back, so the queue ends where it did and the failure reaches the caller', async () => {
    const failing = new FailingFileSystem(new NodeFileSystem());
    const outbox = handle(failing);
    await outbox.enqueue(['a']);
    const before = await readFile(file(), 'utf8');
    failing.failAt({ at: 1, code: 'ENOSPC', mode: 'once', torn: true });
    await expect(outbox.enqueue(['b'])).rejects.toMatchObject({ reason: 'storage_full' });
    expect(failing.fired).toBe(true);
    expect(await readFile(file(), 'utf8')).toBe(before);
    await outbox.enqueue(['c']);
    expect(await messages(outbox)).toEqual(['a', 'c']);
  });
});
