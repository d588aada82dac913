import { memoryTracker, ROOT } from '../../../support/memory-tracker.js';
import { ConflictError, ConsentRequiredError, IdempotencyConflictError, NotFoundError, StaleRevisionError, ValidationError } from '../../../../src/domain/errors/index.js';
import { TrackerPaths } from '../../../../src/domain/tracker/tracker-paths.js';
import type { MemoryFileSystem } from '../../../../src/adapters/memory/memory-file-system.js';

async function snapshot(fs: MemoryFileSystem): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const path of fs.paths()) if (!path.includes('/.runtime/')) out[path] = (await fs.readText(path))!;
  return out;
}

describe('Tracker mutations', () => {
  it('creates items with config defaults, a receipt and a first history line', async () => {
    const { tracker } = await memoryTracker();
    const { item, receipt, replayed, changed } = await tracker.create({ title: '  Ship it  ', tags: ['a', 'a', ' b '] });
    expect(item).toMatchObject({ title: 'Ship it', type: 'Task', status: 'open', priority: 2, tags: ['a', 'b'], revision: 1, created: '2026-03-01T10:00:00.000Z' });
    expect(item.id).toMatch(/^pm-[0-9a-z]{6}$/);
    expect(receipt).toMatchObject({ op: 'create', itemId: item.id, actor: 'alice', seq: 1, revisionBefore: null, revisionAfter: 1, digestBefore: null });
    expect(receipt.digestAfter).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(Object.isFrozen(receipt)).toBe(true);
    expect([replayed, changed]).toEqual([false, true]);
    expect(await tracker.get(item.id)).toEqual(item);
    expect((await tracker.historyOf(item.id)).map((e) => e.op)).toEqual(['create']);
  });

  it('refuses bad input with specific errors and leaves every file unchanged', async () => {
    const { tracker, fs } = await memoryTracker();
    const { item } = await tracker.create({ title: 'x' });
    const before = await snapshot(fs);
    await expect(tracker.create({ title: 'y', type: 'Bug' })).rejects.toThrow(/unknown type 'Bug'; expected one of: Epic/);
    await expect(tracker.create({ title: 'y', status: 'nope' })).rejects.toThrow(ValidationError);
    await expect(tracker.create({ title: 'y', priority: 7 })).rejects.toThrow(/invalid priority 7/);
    await expect(tracker.create({ title: 'y', parent: 'pm-nothere' })).rejects.toThrow(NotFoundError);
    await expect(tracker.create({ title: 'y', custom: { size: 3 } })).rejects.toThrow(/unknown custom field 'size'/);
    await expect(tracker.update(item.id, { status: 'closed' })).rejects.toThrow(/use close/);
    await expect(tracker.update(item.id, {})).rejects.toThrow(/nothing to update/);
    await expect(tracker.update('pm-zzzzzz', { title: 'z' })).rejects.toThrow(NotFoundError);
    await expect(tracker.get('not an id')).rejects.toThrow(/is not an item id/);
    await expect(tracker.update(item.id, { checkAcceptance: [2] })).rejects.toThrow(/no criterion 2/);
    expect(await snapshot(fs)).toEqual(before);
  });

  it('guards with expectedRevision and never merges a stale write', async () => {
    const { tracker, fs } = await memoryTracker();
    const { item } = await tracker.create({ title: 'x' });
    await tracker.update(item.id, { title: 'y' }, { expectedRevision: 1 });
    const before = await snapshot(fs);
    const error = await tracker.update(item.id, { title: 'z' }, { expectedRevision: 1 }).catch((e) => e);
    expect(error).toBeInstanceOf(StaleRevisionError);
    expect(error.data).toMatchObject({ expectedRevision: 1, actualRevision: 2 });
    expect(error.jsonRpcCode).toBe(-31050);
    expect(await snapshot(fs)).toEqual(before);
  });

  it('replays an idempotency key without writing, and refuses the key for another request', async () => {
    const { tracker, fs } = await memoryTracker();
    const first = await tracker.create({ title: 'once' }, { idempotencyKey: 'k1' });
    const before = await snapshot(fs);
    const again = await tracker.create({ title: 'once' }, { idempotencyKey: 'k1' });
    expect(again.replayed).toBe(true);
    expect(again.receipt).toEqual(first.receipt);
    expect(await snapshot(fs)).toEqual(before);
    await expect(tracker.create({ title: 'twice' }, { idempotencyKey: 'k1' })).rejects.toThrow(IdempotencyConflictError);
    expect((await tracker.list()).total).toBe(1);
  });

  it('treats a request for the current state as a no-op with the current receipt', async () => {
    const { tracker, fs } = await memoryTracker();
    const { item, receipt } = await tracker.create({ title: 'x' });
    const before = await snapshot(fs);
    const result = await tracker.update(item.id, { title: 'x' });
    expect(result.changed).toBe(false);
    expect(result.receipt).toEqual(receipt);
    expect(await snapshot(fs)).toEqual(before);
  });

  it('claims with a lease, refuses a second claimer until expiry, and releases', async () => {
    const { tracker, clock } = await memoryTracker();
    const { item } = await tracker.create({ title: 'x' });
    const claimed = await tracker.claim(item.id, { leaseMinutes: 30 });
    expect(claimed.item).toMatchObject({ status: 'in_progress', assignee: 'alice', claim: { holder: 'alice', expiresAt: '2026-03-01T10:30:00.000Z' } });
    const refused = await tracker.claim(item.id, {}, { actor: 'bob' }).catch((e) => e);
    expect(refused).toBeInstanceOf(ConflictError);
    expect(refused.message).toContain('claimed by alice until 2026-03-01T10:30:00.000Z');
    await expect(tracker.release(item.id, {}, { actor: 'bob' })).rejects.toThrow(/pass force/);
    clock.advance(31 * 60_000);
    const taken = await tracker.claim(item.id, {}, { actor: 'bob' });
    expect(taken.item.claim?.holder).toBe('bob');
    await expect(tracker.claim(item.id, { force: true }, { actor: 'carol' })).rejects.toThrow(/Take over .* needs explicit consent/);
    await expect(tracker.claim(item.id, { force: true }, { actor: 'carol', consent: () => false })).rejects.toThrow(/consent declined/);
    const forced = await tracker.claim(item.id, { force: true }, { actor: 'carol', consent: () => true });
    expect(forced.item.claim?.holder).toBe('carol');
    const released = await tracker.release(item.id, {}, { actor: 'carol' });
    expect(released.item.claim).toBeUndefined();
    expect(released.item.status).toBe('open');
    await expect(tracker.release(item.id)).rejects.toThrow(/not claimed/);
  });

  it('closes with evidence, refuses claim of closed items, reopens with a reason', async () => {
    const { tracker } = await memoryTracker();
    const { item } = await tracker.create({ title: 'x' });
    await tracker.claim(item.id);
    await expect(tracker.close(item.id, { evidence: '  ' })).rejects.toThrow(/needs evidence/);
    const closed = await tracker.close(item.id, { evidence: 'commit abc' });
    expect(closed.item).toMatchObject({ status: 'closed', closure: { by: 'alice', evidence: 'commit abc' } });
    expect(closed.item.claim).toBeUndefined();
    await expect(tracker.claim(item.id)).rejects.toThrow(/reopen it before claiming/);
    await expect(tracker.close(item.id, { evidence: 'again' })).rejects.toThrow(/already closed/);
    const reopened = await tracker.reopen(item.id, 'regressed');
    expect(reopened.item.status).toBe('open');
    expect(reopened.item.closure).toBeUndefined();
    expect(reopened.item.comments.at(-1)?.text).toBe('Reopened: regressed');
    await expect(tracker.reopen(item.id, undefined)).rejects.toThrow(/not closed or canceled/);
  });

  it('needs consent to cancel an item somebody else holds', async () => {
    const { tracker } = await memoryTracker();
    const { item } = await tracker.create({ title: 'x' });
    await tracker.claim(item.id, {}, { actor: 'bob' });
    const error = await tracker.close(item.id, { evidence: 'dup', as: 'canceled' }).catch((e) => e);
    expect(error).toBeInstanceOf(ConsentRequiredError);
    expect(error.data.consentRequest).toMatchObject({ action: 'cancel_claimed', itemId: item.id });
    await expect(tracker.close(item.id, { evidence: 'dup', as: 'canceled' }, { consent: () => false })).rejects.toThrow(/declined/);
    const canceled = await tracker.close(item.id, { evidence: 'dup', as: 'canceled' }, { consent: () => true });
    expect(canceled.item.status).toBe('canceled');
  });

  it('comments, edits lists, custom fields and acceptance criteria', async () => {
    const { tracker } = await memoryTracker({ configYaml: 'customFields:\n  estimate: { type: number, min: 0 }\n  area: { type: enum, values: [api, cli] }\n' });
    const { item } = await tracker.create({ title: 'x', acceptance: ['a', 'b'], custom: { estimate: 3 } });
    const updated = await tracker.update(item.id, { addTags: ['t1', 't2'], removeTags: ['t1'], checkAcceptance: [2], addFiles: ['src/a.ts'], custom: { area: 'cli', estimate: null } });
    expect(updated.item).toMatchObject({ tags: ['t2'], acceptance: [{ text: 'a', done: false }, { text: 'b', done: true }], files: ['src/a.ts'], custom: { area: 'cli' } });
    await expect(tracker.update(item.id, { custom: { area: 'web' } })).rejects.toThrow(/must be one of api, cli/);
    await expect(tracker.update(item.id, { custom: { estimate: -1 } })).rejects.toThrow(/at least 0/);
    const commented = await tracker.comment(item.id, 'looks good', { actor: 'bob' });
    expect(commented.item.comments).toEqual([{ id: expect.stringMatching(/^c-/), author: 'bob', at: '2026-03-01T10:00:00.000Z', text: 'looks good' }]);
    const history = await tracker.historyOf(item.id);
    expect(history.at(-1)?.patch).toEqual(expect.arrayContaining([{ op: 'add', path: '/comments/-', value: commented.item.comments[0] }]));
  });

  it('requires the custom fields config declares required on create, and keeps them on update', async () => {
    const { tracker, fs } = await memoryTracker({ configYaml: 'customFields:\n  team: { type: enum, values: [core, web], required: true }\n  estimate: { type: number, required: true }\n  note: { type: string }\n' });
    const itemFiles = async () => (await fs.scan(new TrackerPaths(ROOT).items)).length;
    const before = await itemFiles();
    const missing = await tracker.create({ title: 'x', custom: { note: 'n' } }).catch((e) => e);
    expect(missing).toBeInstanceOf(ValidationError);
    expect(missing.message).toBe("missing required custom fields 'team', 'estimate' (declared required in config.yaml)");
    expect(missing.data).toMatchObject({ field: 'custom.team', missing: ['team', 'estimate'] });
    expect(await itemFiles()).toBe(before);
    await expect(tracker.create({ title: 'x', custom: { team: 'core' } })).rejects.toThrow("missing required custom field 'estimate' (declared required in config.yaml)");
    const { item } = await tracker.create({ title: 'x', custom: { team: 'core', estimate: 2 } });
    expect((await tracker.update(item.id, { custom: { team: 'web' } })).item.custom).toEqual({ team: 'web', estimate: 2 });
    await expect(tracker.update(item.id, { custom: { estimate: null } })).rejects.toThrow("custom field 'estimate' is required (declared required in config.yaml): it can be changed, not removed");
    expect((await tracker.get(item.id)).custom).toEqual({ team: 'web', estimate: 2 });
  });

  it('adds and removes dependencies, stores blocks on the target, refuses cycles and self-links', async () => {
    const { tracker } = await memoryTracker();
    const a = (await tracker.create({ title: 'a' })).item.id;
    const b = (await tracker.create({ title: 'b' })).item.id;
    const c = (await tracker.create({ title: 'c' })).item.id;
    await tracker.addDependency(b, { kind: 'blockedBy', target: a });
    const blocks = await tracker.addDependency(b, { kind: 'blocks', target: c });
    expect(blocks.item.id).toBe(c);
    expect(blocks.item.blockedBy).toEqual([b]);
    const cycle = await tracker.addDependency(a, { kind: 'blockedBy', target: c }).catch((e) => e);
    expect(cycle).toBeInstanceOf(ConflictError);
    expect(cycle.data.cycle).toEqual([a, c, b, a]);
    await expect(tracker.addDependency(a, { kind: 'related', target: a })).rejects.toThrow(/itself/);
    await expect(tracker.addDependency(a, { kind: 'related', target: 'pm-nope00' })).rejects.toThrow(NotFoundError);
    await tracker.addDependency(a, { kind: 'related', target: c });
    await tracker.removeDependency(b, { kind: 'blockedBy', target: a });
    expect((await tracker.get(b)).blockedBy).toEqual([]);
    await expect(tracker.removeDependency(b, { kind: 'blockedBy', target: a })).rejects.toThrow(/has no blockedBy entry/);
    await expect(tracker.update(a, { parent: a })).rejects.toThrow(/own parent/);
    await tracker.update(b, { parent: a });
    await expect(tracker.update(a, { parent: b })).rejects.toThrow(/would close a cycle/);
  });

  it('deletes only with consent and only when nothing points at the item; history stays', async () => {
    const { tracker, fs } = await memoryTracker();
    const a = (await tracker.create({ title: 'a' })).item.id;
    const b = (await tracker.create({ title: 'b', blockedBy: [a] })).item.id;
    await expect(tracker.delete(a, { consent: () => true })).rejects.toThrow(`still referenced by ${b}`);
    await expect(tracker.delete(b)).rejects.toThrow(ConsentRequiredError);
    const before = await snapshot(fs);
    await expect(tracker.delete(b, { consent: async () => false })).rejects.toThrow(/declined/);
    expect(await snapshot(fs)).toEqual(before);
    const deleted = await tracker.delete(b, { consent: () => true });
    expect(deleted.receipt).toMatchObject({ op: 'delete', revisionAfter: null, digestAfter: null });
    await expect(tracker.get(b)).rejects.toThrow(NotFoundError);
    expect((await tracker.historyOf(b)).map((e) => e.op)).toEqual(['create', 'delete']);
    expect(await fs.readText(`${ROOT}/items/${b}.md`)).toBeUndefined();
    expect((await tracker.validate()).ok).toBe(true);
  });

  it('replays a delete by idempotency key after the item is gone', async () => {
    const { tracker } = await memoryTracker();
    const { item } = await tracker.create({ title: 'temp' });
    const first = await tracker.delete(item.id, { consent: () => true, idempotencyKey: 'del-1' });
    const again = await tracker.delete(item.id, { consent: () => true, idempotencyKey: 'del-1' });
    expect(again).toMatchObject({ replayed: true, receipt: first.receipt, item: null });
    await expect(tracker.delete(item.id, { consent: () => true })).rejects.toThrow(NotFoundError);
  });
});
