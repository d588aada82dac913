import { rmSync, writeFileSync } from 'node:fs';
import { SqliteItemIndex } from '../../../../src/adapters/node/sqlite-item-index.js';
import { SQLITE_INDEX_SCHEMA } from '../../../../src/adapters/node/sqlite-index-schema.js';
import { sqliteOpener } from '../../../../src/adapters/node/sqlite-driver.js';
import { useTempDir } from '../../../support/temp-dir.js';
import { describeItemIndexContract, entry, put } from '../item-index-contract.js';

const dir = useTempDir('pm-sqlite-index-');

describeItemIndexContract('SqliteItemIndex', async () => new SqliteItemIndex(`${dir()}/runtime/index.sqlite`));
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
    // The other connection still holds the deleted file; its next open moves to the new one.
    expect(other.open()).toEqual({ created: false });
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
});
