import type { MacKey, MacKeyStore } from '../../ports/mac-key-store.js';
import type { PostgresDatabase } from './postgres-database.js';

interface KeyRow extends Record<string, unknown> {
  readonly id: string;
  readonly secret: Buffer;
  readonly created_at: string;
  readonly retired_at: string | null;
}

/**
 * The keys that seal MRTR requestState in PostgreSQL (seed 004: `requestState` is
 * HMAC-sealed), so every instance seals and verifies with the same keys: a state sealed by one
 * instance opens on another. The first key is created on first use by whichever instance gets
 * there first (an insert under an advisory lock; the others read it); a rotation — by any
 * instance, or `pm mcp rotate-key` with the same database — retires the current key and adds a
 * fresh one in one transaction, and every instance reads the keys again after `refreshMs`.
 * Secrets come from `randomSecret` (32 random bytes in the node composition).
 */
export class PostgresMacKeyStore implements MacKeyStore {
  private cached: { readonly at: number; readonly keys: readonly MacKey[] } | undefined;

  constructor(
    private readonly db: PostgresDatabase,
    private readonly clock: { now(): number },
    private readonly random: { keyId(): string; secret(): Uint8Array },
    private readonly refreshMs = 5_000,
  ) {}

  async current(): Promise<MacKey> {
    return (await this.keys())[0]!;
  }

  async keys(): Promise<readonly MacKey[]> {
    const now = this.clock.now();
    if (this.cached && now - this.cached.at < this.refreshMs) return this.cached.keys;
    let keys = await this.read();
    if (!keys.length) keys = await this.createFirst();
    this.cached = { at: now, keys };
    return keys;
  }

  async rotate(now: number, dropRetiredBefore: number): Promise<MacKey> {
    await this.keys(); // a first key exists, to be retired (as the file store does)
    await this.db.transaction(async (client) => {
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`pm-keys:${this.db.schema}`]);
      await client.query(`UPDATE ${this.db.table('mac_keys')} SET retired_at = $1 WHERE retired_at IS NULL`, [now]);
      await client.query(`DELETE FROM ${this.db.table('mac_keys')} WHERE retired_at < $1`, [dropRetiredBefore]);
      await client.query(`INSERT INTO ${this.db.table('mac_keys')} (id, secret, created_at) VALUES ($1, $2, $3)`, [this.random.keyId(), Buffer.from(this.random.secret()), now]);
    });
    this.cached = undefined;
    return this.current();
  }

  private async read(): Promise<MacKey[]> {
    const rows = await this.db.query<KeyRow>(`SELECT id, secret, created_at, retired_at FROM ${this.db.table('mac_keys')} ORDER BY (retired_at IS NOT NULL), seq DESC`);
    return rows.map((row) => Object.freeze({ id: row.id, secret: new Uint8Array(row.secret), createdAt: Number(row.created_at), ...(row.retired_at !== null ? { retiredAt: Number(row.retired_at) } : {}) }));
  }

  private async createFirst(): Promise<MacKey[]> {
    await this.db.transaction(async (client) => {
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`pm-keys:${this.db.schema}`]);
      const { rows } = await client.query(`SELECT 1 FROM ${this.db.table('mac_keys')} LIMIT 1`);
      if (!rows.length) await client.query(`INSERT INTO ${this.db.table('mac_keys')} (id, secret, created_at) VALUES ($1, $2, $3)`, [this.random.keyId(), Buffer.from(this.random.secret()), this.clock.now()]);
    });
    return this.read();
  }
}
