import { postingRows } from '../../../support/sqlite-postings.js';
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { SqliteItemIndex } from '../../../../src/adapters/node/sqlite-item-index.js';
import { SQLITE_INDEX_SCHEMA } from '../../../../src/adapters/node/sqlite-index-schema.js';
import { sqliteOpener } from '../../../../src/adapters/node/sqlite-driver.js';
import { RUNTIME_SQLITE_DRIVERS } from '../../../support/sqlite-drivers.js';
import { useTempDir } from '../../../support/temp-dir.js';
import type { IndexedItem } from '../../../../src/ports/item-index-store.js';
import { describeItemIndexContract, entry, put, sig } from '../item-index-contract.js';

const dir = useTempDir('pm-sqlite-index-');

for (const driver of RUNTIME_SQLITE_DRIVERS) {
  describeItemIndexContract(`SqliteItemIndex on ${driver.name}`, async () => new SqliteItemIndex(`${dir()}/runtime/index.sqlite`, driver.open));
}
// Pages walk the sort's index from the first match on, and fall back to sorting after 8 rows.
describeItemIndexContract('SqliteItemIndex walking short', async () => new SqliteItemIndex(`${dir()}/runtime/index.sqlite`, undefined, { sortBelow: 1, walk: 8 }));

describe('SqliteItemIndex lifecycle', () => {
  it('creates a missing database, then finds it again with its rows', () => {
    const path = `${dir()}/runtime/index.sqlite`;
    const a = new SqliteItemIndex(path);
    expect(a.open()).toEqual({ created: true, reason: 'missing' });
    a.apply([put(entry('pm-a1'))]);
    const b = new SqliteItemIndex(path);
    expect(b.open()).toEqual({ created: false });
    expect(b.get('pm-a1')?.id).toBe('pm-a1');
    a.close();
    b.close();
  });

  it('replaces a corrupt file by an empty index', () => {
    const path = `${dir()}/index.sqlite`;
    writeFileSync(path, 'this is not a database, just some text long enough to have a header'.repeat(100));
    const store = new SqliteItemIndex(path);
    expect(store.open()).toEqual({ created: true, reason: 'corrupt' });
    expect(store.size()).toBe(0);
    store.apply([put(entry('pm-a1'))]);
    expect(store.size()).toBe(1);
    store.close();
  });

  it('empties a database of another schema version in place', () => {
    const path = `${dir()}/index.sqlite`;
    const store = new SqliteItemIndex(path);
    store.open();
    store.apply([put(entry('pm-a1'))]);
    store.close();
    const raw = sqliteOpener()(path, 1000);
    raw.pragma(`user_version = ${SQLITE_INDEX_SCHEMA + 1}`);
    raw.close();
    const again = new SqliteItemIndex(path);
    expect(again.open()).toEqual({ created: true, reason: 'schema' });
    expect(again.size()).toBe(0);
    expect(again.digest()).toBe(0);
    again.close();
  });

  it('notices that its file was deleted or replaced and opens the new one', () => {
    const path = `${dir()}/index.sqlite`;
    const store = new SqliteItemIndex(path);
    store.open();
    store.apply([put(entry('pm-a1'))]);
    const other = new SqliteItemIndex(path);
    other.open();
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
    expect(store.open()).toEqual({ created: true, reason: 'missing' });
    expect(store.size()).toBe(0);
    // The other connection still holds the deleted file; its next open moves to the new one (and says so: what it followed was of the old one).
    expect(other.open()).toEqual({ created: false, replaced: true });
    store.apply([put(entry('pm-b1'))]);
    expect(other.get('pm-b1')?.id).toBe('pm-b1');
    store.close();
    other.close();
  });

  it('shares one state between connections: a write by one is read by the other at once', () => {
    const path = `${dir()}/index.sqlite`;
    const writer = new SqliteItemIndex(path);
    const reader = new SqliteItemIndex(path);
    writer.open();
    reader.open();
    writer.apply([put(entry('pm-a1', { title: 'one' }))]);
    expect(reader.get('pm-a1')?.title).toBe('one');
    writer.apply([put(entry('pm-a1', { title: 'two' }), 1)]);
    expect(reader.page({ filter: { text: 'two' }, sort: ['id'], descending: false, limit: 5 }).items.map((e) => e.title)).toEqual(['two']);
    writer.close();
    reader.close();
  });

  it('lets one process build at a time, shows nothing half-built, and takes over the lock of a dead builder', () => {
    const path = `${dir()}/index.sqlite`;
    const a = new SqliteItemIndex(path);
    const b = new SqliteItemIndex(path);
    a.open();
    b.open();
    const build = a.startBuild();
    if (typeof build === 'string') throw new Error(build);
    expect(b.startBuild()).toBe('busy');
    build.add([put(entry('pm-a1'), 1), put(entry('pm-b1', { blockedBy: ['pm-a1'] }), 2)]);
    expect(existsSync(`${path}.build`)).toBe(true);
    expect(b.size()).toBe(0);
    build.finish();
    expect(existsSync(`${path}.build`)).toBe(false);
    expect(existsSync(`${path}.build.lock`)).toBe(false);
    expect(b.size()).toBe(2);
    expect(b.readiness({ status: 'open', nowIso: '2026-01-01T00:00:00.000Z', limit: 5 }).counts.blocked).toBe(1);
    expect(b.startBuild()).toBe('replaced');
    // A lock left by a process that is gone is taken over.
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    writeFileSync(`${path}.build.lock`, dead);
    const empty = new SqliteItemIndex(`${dir()}/other.sqlite`);
    empty.open();
    writeFileSync(`${dir()}/other.sqlite.build.lock`, dead);
    const again = empty.startBuild();
    if (typeof again === 'string') throw new Error(again);
    again.abort();
    expect(existsSync(`${dir()}/other.sqlite.build.lock`)).toBe(false);
    expect(empty.size()).toBe(0);
    for (const store of [a, b, empty]) store.close();
  });

  it('reads the unreadable files from their own index, not by a pass over every recorded file', () => {
    const path = `${dir()}/index.sqlite`;
    const store = new SqliteItemIndex(path);
    store.open();
    store.apply([put(entry('pm-a1')), { kind: 'problem', problem: { id: 'pm-b1', message: 'broken' }, file: { signature: sig(2), hash: 7, racy: false } }]);
    const db = sqliteOpener()(path, 1000);
    const plan = (db.prepare('EXPLAIN QUERY PLAN SELECT id, problem FROM files WHERE problem IS NOT NULL ORDER BY id').all() as { detail: string }[]).map((row) => row.detail).join('\n');
    db.close();
    expect(plan).toContain('USING INDEX files_problem');
    expect(store.problems()).toEqual([{ id: 'pm-b1', message: 'broken' }]);
    store.close();
  });

  it('writes back and truncates a write-ahead log that one large apply grew, so the next opener does not read it all', () => {
    const path = `${dir()}/index.sqlite`;
    const store = new SqliteItemIndex(path);
    store.open();
    const wal = () => statSync(`${path}-wal`, { throwIfNoEntry: false })?.size ?? 0;
    store.apply([put(entry('pm-small'))]);
    expect(wal()).toBeGreaterThan(0); // a small apply leaves the log as SQLite keeps it
    // 1,000 bodies of 24 KB: their texts alone make a log well past 16 MiB.
    const body = (n: number) => `body ${n} ${'lorem ipsum '.repeat(2000)}`;
    store.apply(Array.from({ length: 1000 }, (_, n) => put(entry(`pm-b${n}`, { text: { title: `title ${n}`, body: body(n), comments: '' } }), n + 1)));
    expect(wal()).toBe(0);
    expect(store.size()).toBe(1001);
    store.close();
  });
});

describe('SqliteItemIndex writes by difference', () => {
  /** Every row an item's change can touch, in a stable order (rowids mapped to ids). */
  function rows(path: string): unknown {
    const db = sqliteOpener()(path, 1000);
    try {
      const q = (sql: string) => db.prepare(sql).raw().all();
      return {
        items: q('SELECT id, title, type, status, priority, tags, parent, assignee, claim_holder, claim_expires, blocked_by, related, created, updated, revision, comments, title_lc, blocked, busy FROM items ORDER BY id'),
        texts: q('SELECT i.id, t.body_lc, t.comments_lc FROM texts t JOIN items i ON i.rid = t.rid ORDER BY i.id'),
        tags: q('SELECT i.id, g.tag FROM tags g JOIN items i ON i.rid = g.rid ORDER BY 1, 2'),
        links: q('SELECT i.id, l.kind, l.target FROM links l JOIN items i ON i.rid = l.rid ORDER BY 1, 2, 3'),
        postings: (() => {
          const ids = new Map(db.prepare('SELECT rid, id FROM items').raw().all() as [number, string][]);
          return postingRows(db, (rid) => ids.get(rid)).sort((x, y) => (`${x[0]}\u0000${x[1]}` < `${y[0]}\u0000${y[1]}` ? -1 : 1));
        })(),
      };
    } finally {
      db.close();
    }
  }

  it('leaves the same rows as indexing the final states afresh', () => {
    const text = (title: string, comments: string) => ({ title: title.toLowerCase(), body: 'shared body words', comments });
    const steps: IndexedItem[][] = [
      [entry('pm-a1', { text: text('Alpha', '') }), entry('pm-b2', { parent: 'pm-a1', text: text('Beta', '') }), entry('pm-c3', { blockedBy: ['pm-b2'], text: text('Gamma', '') })],
      [entry('pm-a1', { revision: 2, comments: 1, text: text('Alpha', 'first note alpha') })],
      [entry('pm-a1', { revision: 3, comments: 2, text: text('Alpha', 'note alpha\nsecond note note') })],
      [entry('pm-b2', { parent: 'pm-a1', status: 'done', revision: 2, text: text('Beta', '') })],
      [entry('pm-c3', { blockedBy: [], related: ['pm-a1'], tags: ['ui'], priority: 0, text: text('Gamma renamed', '') })],
      [entry('pm-a1', { revision: 4, comments: 2, priority: 1, text: text('Alpha', 'first note alpha\nsecond note note') })],
      [entry('pm-b2', { parent: undefined, status: 'open', revision: 3, text: text('Beta', 'beta beta beta beta beta beta') })],
      // Counts past the cap: the same score, other counts.
      [entry('pm-b2', { status: 'open', revision: 4, text: text('Beta', 'beta beta beta beta beta beta beta') })],
    ];
    const incremental = `${dir()}/incremental.sqlite`;
    const store = new SqliteItemIndex(incremental);
    store.open();
    steps.forEach((changes, n) => store.apply(changes.map((item) => put(item, n))));
    store.close();
    const last = new Map(steps.flat().map((item) => [item.id, item]));
    const fresh = `${dir()}/fresh.sqlite`;
    const other = new SqliteItemIndex(fresh);
    other.open();
    other.apply([...last.values()].map((item) => put(item)));
    other.close();
    const got = rows(incremental) as { items: unknown[][] };
    expect(got).toEqual(rows(fresh));
    // The marks moved with the changes: pm-c3 lost its blocker, pm-a1 its open child.
    expect(got.items.map((row) => [row[0], row.at(-2), row.at(-1)])).toEqual([['pm-a1', 0, 0], ['pm-b2', 0, 0], ['pm-c3', 0, 0]]);
  });
});
