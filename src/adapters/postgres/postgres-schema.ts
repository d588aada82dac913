import type { PostgresQueryable } from './postgres-database.js';

/**
 * pm's tables in PostgreSQL, as numbered migrations applied in order and recorded in
 * `schema_migrations` (one row per applied version). A database migrated by a newer pm (a
 * version this one does not know) is refused rather than guessed at. Migrations run in one
 * transaction under an advisory lock on the schema, so several instances starting together
 * migrate once.
 *
 * Version 1: tasks (the record as JSON, with the columns queries need: owner, status, expiry,
 * and the worker's lease — its id and last heartbeat), used replay tokens with their expiry,
 * and the keys that seal MRTR requestState.
 *
 * Version 2: the change log (`changes`: a sequence number, the message, when it was written),
 * which an instance whose LISTEN connection was down reads on reconnect to catch up.
 */
export const PM_POSTGRES_MIGRATIONS: readonly ((schema: string) => string)[] = [
  (s) => `
    CREATE TABLE "${s}".tasks (
      task_id text PRIMARY KEY,
      principal text NOT NULL,
      status text NOT NULL,
      expires_at bigint NOT NULL,
      worker_id text,
      heartbeat_at bigint,
      record json NOT NULL
    );
    CREATE INDEX tasks_expires_at ON "${s}".tasks (expires_at);
    CREATE INDEX tasks_lease ON "${s}".tasks (heartbeat_at) WHERE worker_id IS NOT NULL;
    CREATE TABLE "${s}".replays (
      token text PRIMARY KEY,
      expires_at bigint NOT NULL
    );
    CREATE INDEX replays_expires_at ON "${s}".replays (expires_at);
    CREATE TABLE "${s}".mac_keys (
      id text PRIMARY KEY,
      secret bytea NOT NULL,
      created_at bigint NOT NULL,
      retired_at bigint,
      seq bigserial NOT NULL
    );`,
  (s) => `
    CREATE TABLE "${s}".changes (
      seq bigserial PRIMARY KEY,
      message text NOT NULL,
      created_at bigint NOT NULL
    );
    CREATE INDEX changes_created_at ON "${s}".changes (created_at);`,
];

/** The schema version this pm writes. */
export const PM_POSTGRES_SCHEMA_VERSION = PM_POSTGRES_MIGRATIONS.length;

/** Thrown when the database was migrated by a newer pm. */
export class PostgresSchemaTooNewError extends Error {}

/** Creates `schema` and applies the migrations it lacks (inside the caller's transaction). */
export async function migratePostgresSchema(client: PostgresQueryable, schema: string): Promise<number> {
  await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`pm-schema:${schema}`]);
  await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  await client.query(`CREATE TABLE IF NOT EXISTS "${schema}".schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
  const { rows } = await client.query<{ version: number | null }>(`SELECT max(version) AS version FROM "${schema}".schema_migrations`);
  const current = rows[0]?.version ?? 0;
  if (current > PM_POSTGRES_SCHEMA_VERSION) {
    throw new PostgresSchemaTooNewError(`PostgreSQL schema "${schema}" is at version ${current}, newer than this pm knows (${PM_POSTGRES_SCHEMA_VERSION}): upgrade pm on every instance`);
  }
  for (let version = current + 1; version <= PM_POSTGRES_SCHEMA_VERSION; version++) {
    await client.query(PM_POSTGRES_MIGRATIONS[version - 1]!(schema));
    await client.query(`INSERT INTO "${schema}".schema_migrations (version) VALUES ($1)`, [version]);
  }
  return PM_POSTGRES_SCHEMA_VERSION;
}
