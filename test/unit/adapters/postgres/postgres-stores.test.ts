import { ManualClock } from '../../../../src/adapters/memory/manual-clock.js';
import { PostgresDatabase } from '../../../../src/adapters/postgres/postgres-database.js';
import { PostgresMacKeyStore } from '../../../../src/adapters/postgres/postgres-mac-key-store.js';
import { PostgresReplayLedger } from '../../../../src/adapters/postgres/postgres-replay-ledger.js';
import { PM_POSTGRES_SCHEMA_VERSION } from '../../../../src/adapters/postgres/postgres-schema.js';
import { PostgresTaskStore } from '../../../../src/adapters/postgres/postgres-task-store.js';
import { randomBytes } from 'node:crypto';
import { freshSchema, usePostgres } from '../../../support/postgres-server.js';
import { describeMacKeyStoreContract } from '../mac-key-store-contract.js';
import { describeReplayLedgerContract } from '../replay-ledger-contract.js';
import { describeTaskStoreContract, taskRecord } from '../task-store-contract.js';

const pg = usePostgres();
const open: PostgresDatabase[] = [];
const database = (schema: string) => {
  const db = new PostgresDatabase({ url: pg().url, schema });
  open.push(db);
  return db;
};
const random = { keyId: () => randomBytes(6).toString('hex'), secret: () => new Uint8Array(randomBytes(32)) };
afterEach(async () => {
  await Promise.all(open.splice(0).map((db) => db.close()));
});

describeTaskStoreContract('PostgresTaskStore', async () => {
  const schema = freshSchema();
  return { store: new PostgresTaskStore(database(schema)), second: () => new PostgresTaskStore(database(schema)) };
});
describeReplayLedgerContract('PostgresReplayLedger', async () => new PostgresReplayLedger(database(freshSchema()), 16));
describeMacKeyStoreContract('PostgresMacKeyStore', async () => ({ store: new PostgresMacKeyStore(database(freshSchema()), new ManualClock(1_000), random) }));

describe('PostgreSQL adapters', () => {
  it('creates the schema once, records its version, and refuses a newer one', async () => {
    const schema = freshSchema();
    const [a, b] = [database(schema), database(schema)];
    await Promise.all([a.ready(), b.ready()]); // two instances starting together migrate once
    expect(await a.query(`SELECT version FROM ${a.table('schema_migrations')} ORDER BY version`)).toEqual(Array.from({ length: PM_POSTGRES_SCHEMA_VERSION }, (_, i) => ({ version: i + 1 })));
    await a.query(`INSERT INTO ${a.table('schema_migrations')} (version) VALUES ($1)`, [PM_POSTGRES_SCHEMA_VERSION + 1]);
    await expect(database(schema).ready()).rejects.toThrow(/newer than this pm knows/);
  });

  it('keeps the worker lease in its own columns, cleared when the task ends', async () => {
    const db = database(freshSchema());
    const store = new PostgresTaskStore(db);
    const worker = { id: 'h:1:2', host: 'h', pid: 1, startedAt: 2 };
    await store.create(taskRecord('tsk_a', { worker, heartbeatAt: 1_000 }));
    await store.update('tsk_a', (current) => ({ ...current, heartbeatAt: 4_000 }));
    expect(await db.query(`SELECT worker_id, heartbeat_at FROM ${db.table('tasks')}`)).toEqual([{ worker_id: 'h:1:2', heartbeat_at: '4000' }]);
    await store.update('tsk_a', ({ worker: _w, heartbeatAt: _h, ...rest }) => ({ ...rest, status: 'completed' }));
    expect(await db.query(`SELECT worker_id, heartbeat_at, status FROM ${db.table('tasks')}`)).toEqual([{ worker_id: null, heartbeat_at: null, status: 'completed' }]);
  });

  it('refuses an update that changes the id, and a schema name that is not an identifier', async () => {
    const store = new PostgresTaskStore(database(freshSchema()));
    await store.create(taskRecord('tsk_a'));
    await expect(store.update('tsk_a', (current) => ({ ...current, taskId: 'tsk_b' }))).rejects.toThrow(/may not change its id/);
    expect(() => new PostgresDatabase({ url: pg().url, schema: 'pm"; DROP' })).toThrow(/invalid PostgreSQL schema name/);
  });

  it('lets a key rotated by one instance reach another after its refresh', async () => {
    const schema = freshSchema();
    const clock = new ManualClock(1_000);
    const a = new PostgresMacKeyStore(database(schema), clock, random, 500);
    const b = new PostgresMacKeyStore(database(schema), clock, random, 500);
    const [ka, kb] = await Promise.all([a.current(), b.current()]);
    expect(ka.id).toBe(kb.id); // created once, whoever came first
    const fresh = await a.rotate(2_000, 0);
    clock.advance(500);
    expect((await b.current()).id).toBe(fresh.id);
    expect((await b.keys()).map((k) => k.id)).toEqual([fresh.id, ka.id]);
  });

  it('answers readiness pings while the server is up, and fails them fast when it is unreachable', async () => {
    const up = database(freshSchema());
    expect(await up.ping()).toBe(true);
    const down = new PostgresDatabase({ url: `postgres://pm@127.0.0.1:1/postgres`, schema: 'pm', connectTimeoutMs: 500 });
    open.push(down);
    expect(await down.ping(1_000)).toBe(false);
    await expect(new PostgresTaskStore(down).get('tsk_a')).rejects.toThrow();
  });
});

describe('PostgresChangeBus', () => {
  it('carries a message to every bus on the schema, each once, and reconnects after the server restarts', async () => {
    const { PostgresChangeBus } = await import('../../../../src/adapters/postgres/postgres-change-bus.js');
    const schema = freshSchema();
    const states: boolean[] = [];
    const [a, b] = [new PostgresChangeBus(database(schema), { retryMs: 50, onState: (up) => states.push(up) }), new PostgresChangeBus(database(schema), { retryMs: 50 })];
    const other = new PostgresChangeBus(database(freshSchema()));
    try {
      await Promise.all([a.connect(), b.connect(), other.connect()]);
      const heard: string[][] = [[], [], []];
      const arrived = (count: number) => new Promise<void>((resolve) => {
        const check = () => (heard[0]!.length >= count && heard[1]!.length >= count ? resolve() : setTimeout(check, 10));
        check();
      });
      a.subscribe((m) => heard[0]!.push(m));
      b.subscribe((m) => heard[1]!.push(m));
      other.subscribe((m) => heard[2]!.push(m));
      await b.publish('one');
      await arrived(1);
      await pg().stop();
      await pg().start();
      await a.connect().catch(() => undefined);
      await b.connect().catch(() => undefined);
      while (!a.connected || !b.connected) await new Promise((resolve) => setTimeout(resolve, 20)); // until both listen again
      await a.publish('two');
      await arrived(2);
      expect(heard).toEqual([['one', 'two'], ['one', 'two'], []]);
      expect(states).toEqual([true, false, true]);
    } finally {
      await Promise.all([a.close(), b.close(), other.close()]);
    }
  }, 60_000);

  it('catches up after its listening connection was dropped: what was published meanwhile arrives once, in order', async () => {
    const { PostgresChangeBus, PM_CHANGE_LISTENER_NAME } = await import('../../../../src/adapters/postgres/postgres-change-bus.js');
    const schema = freshSchema();
    const states: boolean[] = [];
    const a = new PostgresChangeBus(database(schema), { retryMs: 1_500, onState: (up) => states.push(up) });
    const b = new PostgresChangeBus(database(schema)); // publishes only: its pool, no listening connection
    const admin = database(schema);
    const until = async (done: () => boolean) => {
      while (!done()) await new Promise((resolve) => setTimeout(resolve, 10));
    };
    try {
      await b.publish('before a listened'); // in the log, but older than a: never delivered to it
      await a.connect();
      const heard: string[] = [];
      a.subscribe((m) => heard.push(m));
      await b.publish('one');
      await until(() => heard.length === 1);
      const dropped = await admin.query<{ ok: boolean }>(`SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE application_name = $1 AND query LIKE $2`, [PM_CHANGE_LISTENER_NAME, `%"${schema}".%`]);
      expect(dropped).toEqual([{ ok: true }]);
      await until(() => states.includes(false));
      await b.publish('two');
      await b.publish('three');
      expect(a.connected).toBe(false); // published while a could not hear the NOTIFYs
      await until(() => a.connected && heard.length >= 3);
      await admin.query('SELECT pg_notify($1, $2)', [`${schema}_changes`, '{"items":[]}']); // a pm before the change log: no sequence
      await b.publish('four');
      await until(() => heard.length >= 5);
      await new Promise((resolve) => setTimeout(resolve, 100)); // room for a duplicate to show up
      expect(heard).toEqual(['one', 'two', 'three', '{"items":[]}', 'four']);
      expect(states).toEqual([true, false, true]);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  }, 60_000);

  it('prunes its change log by age and by size', async () => {
    const { PostgresChangeBus } = await import('../../../../src/adapters/postgres/postgres-change-bus.js');
    let now = 1_000_000;
    const db = database(freshSchema());
    const bus = new PostgresChangeBus(db, { now: () => now, logRetentionMs: 60_000, logMaxRows: 3 });
    try {
      for (const m of ['a', 'b', 'c', 'd', 'e']) await bus.publish(m);
      await bus.prune();
      expect((await db.query<{ message: string }>(`SELECT message FROM ${db.table('changes')} ORDER BY seq`)).map((r) => r.message)).toEqual(['c', 'd', 'e']);
      now += 61_000;
      await bus.publish('f');
      await bus.prune();
      expect((await db.query<{ message: string }>(`SELECT message FROM ${db.table('changes')} ORDER BY seq`)).map((r) => r.message)).toEqual(['f']);
    } finally {
      await bus.close();
    }
  });
});
