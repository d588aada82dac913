import { FailingFileSystem } from '../../../../src/adapters/memory/failing-file-system.js';
import { ManualClock } from '../../../../src/adapters/memory/manual-clock.js';
import { MemoryFileSystem } from '../../../../src/adapters/memory/memory-file-system.js';
import { MemoryItemIndex } from '../../../../src/adapters/memory/memory-item-index.js';
import { MemoryLocker } from '../../../../src/adapters/memory/memory-locker.js';
import { PureSha256Hasher } from '../../../../src/adapters/memory/pure-hasher.js';
import { SeededIdSource } from '../../../../src/adapters/memory/seeded-id-source.js';
import { IndexResetError, StorageError } from '../../../../src/domain/errors/index.js';
import { initTracker } from '../../../../src/domain/tracker/init.js';
import { Tracker } from '../../../../src/domain/tracker/tracker.js';
import { ROOT, memoryTracker } from '../../../support/memory-tracker.js';

// The write protocol's failure cases one by one (docs/TRACKER.md "Mutations", "What reaches
// the disk when"); write-faults.test.ts enumerates every failure point of every mutation.

const historyPath = (id: string) => `${ROOT}/history/${id}.jsonl`;
const LONG = 'c'.repeat(6000);

async function faultyTracker() {
  const memory = new MemoryFileSystem();
  const fs = new FailingFileSystem(memory);
  const clock = new ManualClock('2026-03-01T10:00:00.000Z');
  const index = new MemoryItemIndex();
  const ports = { fs, clock, ids: new SeededIdSource(7), hasher: new PureSha256Hasher(), locker: new MemoryLocker(clock), index };
  await initTracker(memory, ROOT);
  const open = () => Tracker.open(ports, ROOT, { defaultActor: 'alice' });
  return { memory, fs, index, open, tracker: await open() };
}

describe('a full disk during a comment', () => {
  test('fails with storage_full, leaves the history as it was, and the same key completes it once the space is back', async () => {
    const { memory, fs, tracker, open } = await faultyTracker();
    const { item } = await tracker.create({ title: 'target' });
    const before = await memory.readText(historyPath(item.id));
    // The disk fills up at the history append and stays full: the append takes half a line.
    fs.failAt({ at: 2, code: 'ENOSPC', mode: 'lasting' });
    const error = await tracker.comment(item.id, LONG, { idempotencyKey: 'full-1' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StorageError);
    expect(error).toMatchObject({ reason: 'storage_full', jsonRpcCode: -31055, exitCode: 9, data: { remedy: expect.stringContaining('free space') } });
    expect(fs.log.slice(0, 3)).toEqual(['append', 'append', 'truncate']);
    expect(await memory.readText(historyPath(item.id))).toBe(before);
    expect((await tracker.validate()).findings).toEqual([]);

    fs.heal();
    const retry = await (await open()).comment(item.id, LONG, { idempotencyKey: 'full-1' });
    expect(retry).toMatchObject({ replayed: false, changed: true });
    expect((await tracker.get(item.id)).comments.map((c) => c.text)).toEqual([LONG]);
    expect(await (await open()).comment(item.id, LONG, { idempotencyKey: 'full-1' })).toMatchObject({ replayed: true, receipt: { receiptId: retry.receipt.receiptId } });
    expect((await tracker.validate()).findings).toEqual([]);
  });
});

describe('a history that ends in a line without its newline', () => {
  test('is an interrupted append, not tampering: validate warns, and the next write cuts the torn line off', async () => {
    const { fs, tracker } = await memoryTracker();
    const { item } = await tracker.create({ title: 'target' });
    // What a full disk left before pm cut its appends back: half a line, no newline.
    await fs.append(historyPath(item.id), '{"actor":"alice","at":"2026-03-01T10:00:00.000Z","digestAfter":"sha256:');
    const report = await tracker.validate();
    expect(report).toMatchObject({ ok: true, errors: 0 });
    expect(report.findings.map((f) => [f.code, f.severity, f.line])).toEqual([['interrupted_append', 'warning', 2]]);
    expect((await tracker.historyOf(item.id)).map((e) => e.op)).toEqual(['create']);
    expect((await tracker.verifiedHistory(item.id)).faults).toEqual([]);

    const { item: after } = await tracker.comment(item.id, 'writable again');
    expect(after.comments.map((c) => c.text)).toEqual(['writable again']);
    expect((await tracker.historyOf(item.id)).map((e) => e.op)).toEqual(['create', 'comment']);
    expect((await tracker.validate()).findings).toEqual([]);
  });

  test('is completed when only its newline is missing: the whole line is kept and rolled forward', async () => {
    const { fs, tracker } = await memoryTracker();
    const { item } = await tracker.create({ title: 'target' });
    const file = `${ROOT}/items/${item.id}.md`;
    const itemBefore = (await fs.readText(file))!;
    await tracker.update(item.id, { title: 'renamed' });
    // A writer killed after its line but for the newline, before the item file.
    const text = (await fs.readText(historyPath(item.id)))!;
    await fs.writeAtomic(historyPath(item.id), text.slice(0, -1));
    await fs.writeAtomic(file, itemBefore);
    expect((await tracker.validate()).findings.map((f) => f.code)).toEqual(['interrupted_append']);

    const { item: after } = await tracker.comment(item.id, 'next');
    expect(after.title).toBe('renamed');
    expect((await tracker.historyOf(item.id)).map((e) => e.op)).toEqual(['create', 'update', 'comment']);
    expect((await tracker.validate()).findings).toEqual([]);
  });

  test('a first line torn at creation (a killed create) is a warning for validate, not tampering', async () => {
    const { memory, fs, tracker } = await faultyTracker();
    // A killed create: the first line is half written, nothing after it reaches the disk.
    fs.failAt({ at: 1, code: 'EIO', mode: 'lasting', torn: true });
    await expect(tracker.create({ title: 'never' })).rejects.toMatchObject({ reason: 'storage_error' });
    fs.heal();
    const torn = memory.paths().filter((p) => p.includes('/history/'));
    expect(torn).toHaveLength(1);
    expect((await tracker.validate()).findings.map((f) => [f.code, f.severity])).toEqual([['interrupted_append', 'warning']]);
  });
});

describe('pm validate --fix (Tracker.repairInterrupted)', () => {
  test('settles torn lines and lagging item files now, and leaves hand edits and clean items alone', async () => {
    const { memory, fs, tracker } = await faultyTracker();
    const { item: lagging } = await tracker.create({ title: 'lagging' });
    const { item: edited } = await tracker.create({ title: 'edited' });
    const { item: clean } = await tracker.create({ title: 'clean' });
    // A killed create: half its first line, nothing else.
    fs.failAt({ at: 1, code: 'EIO', mode: 'lasting', torn: true });
    await expect(tracker.create({ title: 'never' })).rejects.toMatchObject({ reason: 'storage_error' });
    fs.heal();
    const tornId = memory.paths().find((p) => p.includes('/history/') && ![lagging.id, edited.id, clean.id].some((id) => p.includes(id)))!.replace(/^.*\/(.*)\.jsonl$/, '$1');
    // A killed update: its line is there, its file is not.
    const file = `${ROOT}/items/${lagging.id}.md`;
    const old = (await memory.readText(file))!;
    await tracker.update(lagging.id, { title: 'lagging, completed' });
    await memory.writeAtomic(file, old);
    const editedFile = `${ROOT}/items/${edited.id}.md`;
    await memory.writeAtomic(editedFile, (await memory.readText(editedFile))!.replace('edited', 'edited by hand'));

    expect((await tracker.validate()).findings.map((f) => [f.code, f.itemId]).sort()).toEqual([['interrupted_append', tornId], ['interrupted_write', lagging.id], ['unrecorded_change', edited.id]].sort());
    expect(await tracker.repairInterrupted()).toEqual([lagging.id, tornId].sort());
    expect((await tracker.validate()).findings.map((f) => [f.code, f.itemId])).toEqual([['unrecorded_change', edited.id]]);
    expect(memory.paths().some((p) => p.includes(tornId))).toBe(false);
    expect((await tracker.get(lagging.id)).title).toBe('lagging, completed');
    expect((await tracker.historyOf(edited.id)).map((e) => e.op)).toEqual(['create']);
    expect((await tracker.historyOf(clean.id)).map((e) => e.op)).toEqual(['create']);
  });
});

describe('a write whose item file cannot be written', () => {
  test('cuts its history line off again, so the next write does not roll a failed change forward', async () => {
    const { fs, tracker, open } = await faultyTracker();
    const { item } = await tracker.create({ title: 'target' });
    fs.failAt({ at: 2, code: 'ENOSPC', mode: 'once' });
    await expect(tracker.update(item.id, { title: 'failed' })).rejects.toMatchObject({ reason: 'storage_full' });
    expect(fs.log).toEqual(['append', 'writeAtomic', 'truncate']);
    const { item: after } = await (await open()).comment(item.id, 'later');
    expect(after.title).toBe('target');
    expect((await tracker.historyOf(item.id)).map((e) => e.op)).toEqual(['create', 'comment']);
  });

  test('says so when the line cannot be cut off either, and the next write completes it exactly once', async () => {
    const { fs, tracker, open } = await faultyTracker();
    const { item } = await tracker.create({ title: 'target' });
    // Writes: the key's intent, the history line, then the item file, which fails for good.
    fs.failAt({ at: 3, code: 'EIO', mode: 'lasting' });
    const error = await tracker.update(item.id, { title: 'recorded' }, { idempotencyKey: 'u-1' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ reason: 'storage_error', data: { cutBack: false } });
    expect((error as Error).message).toContain('the next write of');
    expect(fs.log).toEqual(['append', 'append', 'writeAtomic', 'truncate']);
    fs.heal();
    const retry = await (await open()).update(item.id, { title: 'recorded' }, { idempotencyKey: 'u-1' });
    expect(retry.replayed).toBe(true);
    expect((await tracker.get(item.id)).title).toBe('recorded');
    expect((await tracker.historyOf(item.id)).filter((e) => e.idempotencyKey === 'u-1')).toHaveLength(1);
  });
});

describe('a derived index that cannot be updated', () => {
  test('does not fail a change whose files are written: it succeeds with a warning, and the next query catches up', async () => {
    const { tracker, index, reopen } = await memoryTracker();
    const { item } = await tracker.create({ title: 'indexed' });
    await tracker.list();
    const apply = index.apply.bind(index);
    index.apply = () => {
      throw new Error('database disk image is malformed');
    };
    const result = await tracker.update(item.id, { title: 'renamed while the index was broken' });
    expect(result.changed).toBe(true);
    expect(result.warnings).toEqual([expect.stringContaining('the change is saved, but the derived index could not be updated (database disk image is malformed)')]);
    expect((await tracker.get(item.id)).title).toBe('renamed while the index was broken');
    expect((await tracker.historyOf(item.id)).map((e) => e.op)).toEqual(['create', 'update']);

    index.apply = apply;
    expect((await tracker.list()).items.map((i) => i.title)).toEqual(['renamed while the index was broken']);
    expect((await (await reopen()).list()).items.map((i) => i.title)).toEqual(['renamed while the index was broken']);
    expect((await tracker.validate()).findings).toEqual([]);
  });
});

/** A watch that delivers nothing: only a full check can show a server what changed. */
class SilentWatchFileSystem extends MemoryFileSystem {
  override watch(): () => void {
    return () => undefined;
  }
}

describe('a derived index that cannot be updated, in a server that follows a watch', () => {
  test('an index failure met by a check inside the batch marks the index stale, so the next query checks every file', async () => {
    const fs = new SilentWatchFileSystem();
    const clock = new ManualClock('2026-03-01T10:00:00.000Z');
    const index = new MemoryItemIndex();
    await initTracker(fs, ROOT);
    const tracker = await Tracker.open({ fs, clock, ids: new SeededIdSource(7), hasher: new PureSha256Hasher(), locker: new MemoryLocker(clock), index }, ROOT, { defaultActor: 'alice', watchIndex: true });
    const { item } = await tracker.create({ title: 'before' });
    const { item: parent } = await tracker.create({ title: 'parent' });
    expect((await tracker.list()).items.map((i) => i.title).sort()).toEqual(['before', 'parent']);
    const apply = index.apply.bind(index);
    index.apply = () => {
      throw new Error('disk I/O error');
    };
    // One batch: the create's parent check refreshes the index after writing the update, and fails.
    const [renamed, child] = await Promise.allSettled([tracker.update(item.id, { title: 'after' }), tracker.create({ title: 'child', parent: parent.id })]);
    expect(renamed.status).toBe('fulfilled');
    expect(child.status).toBe('rejected');
    index.apply = apply;
    expect((await tracker.list()).items.map((i) => i.title).sort()).toEqual(['after', 'parent']);
    await tracker.dispose();
  });
});

/** Makes the index's next write throw IndexResetError once, as the healing SQLite index does after it made the index anew. */
function resetOnNextApply(index: MemoryItemIndex): { readonly resets: number } {
  const apply = index.apply.bind(index);
  const seen = { resets: 0 };
  index.apply = (changes) => {
    if (seen.resets > 0) return apply(changes);
    seen.resets++;
    index.apply = apply;
    throw new IndexResetError('the index was reset under the call (database disk image is malformed); the item files are read again');
  };
  return seen;
}

describe('an index reset under the write (IndexResetError from the derived index)', () => {
  test('is an index failure: the change whose files are written succeeds with the warning, and the next query reads every file', async () => {
    const { tracker, index, reopen } = await memoryTracker();
    const { item } = await tracker.create({ title: 'indexed' });
    await tracker.list();
    const seen = resetOnNextApply(index);
    const result = await tracker.update(item.id, { title: 'renamed while the index was reset' });
    expect(seen.resets).toBe(1);
    expect(result.changed).toBe(true);
    expect(result.warnings).toEqual([expect.stringContaining('the change is saved, but the derived index could not be updated (the index was reset under the call')]);
    expect((await tracker.historyOf(item.id)).map((e) => e.op)).toEqual(['create', 'update']);
    expect((await tracker.list()).items.map((i) => i.title)).toEqual(['renamed while the index was reset']);
    expect((await (await reopen()).list()).items.map((i) => i.title)).toEqual(['renamed while the index was reset']);
    expect((await tracker.validate()).findings).toEqual([]);
  });

  test('met by a check inside a batch of a server following a watch: the check starts again over every file and both changes succeed', async () => {
    const fs = new SilentWatchFileSystem();
    const clock = new ManualClock('2026-03-01T10:00:00.000Z');
    const index = new MemoryItemIndex();
    await initTracker(fs, ROOT);
    const tracker = await Tracker.open({ fs, clock, ids: new SeededIdSource(7), hasher: new PureSha256Hasher(), locker: new MemoryLocker(clock), index }, ROOT, { defaultActor: 'alice', watchIndex: true });
    const { item } = await tracker.create({ title: 'before' });
    const { item: parent } = await tracker.create({ title: 'parent' });
    expect((await tracker.list()).items.map((i) => i.title).sort()).toEqual(['before', 'parent']);
    const seen = resetOnNextApply(index);
    // One batch: the create's parent check refreshes the index after writing the update; the reset is met there.
    const [renamed, child] = await Promise.all([tracker.update(item.id, { title: 'after' }), tracker.create({ title: 'child', parent: parent.id })]);
    expect(seen.resets).toBe(1);
    expect(renamed.changed).toBe(true);
    expect(child.item.parent).toBe(parent.id);
    // The watch delivers nothing: only the full check the reset asked for shows the server both changes.
    expect((await tracker.list()).items.map((i) => i.title).sort()).toEqual(['after', 'child', 'parent']);
    await tracker.dispose();
  });
});

describe('the idempotency ledger', () => {
  test('cuts a torn record off before appending, so the next key is not glued to it and lost', async () => {
    const { fs, tracker, reopen } = await memoryTracker();
    const { item } = await tracker.create({ title: 'target' });
    await fs.append(`${ROOT}/.runtime/idempotency.jsonl`, '{"scope":"alice","key":"torn');
    const first = await tracker.comment(item.id, 'keyed', { idempotencyKey: 'after-torn' });
    const replay = await (await reopen()).comment(item.id, 'keyed', { idempotencyKey: 'after-torn' });
    expect(replay).toMatchObject({ replayed: true, receipt: { receiptId: first.receipt.receiptId } });
    const ledger = (await fs.readText(`${ROOT}/.runtime/idempotency.jsonl`))!;
    for (const line of ledger.trimEnd().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
  });
});
