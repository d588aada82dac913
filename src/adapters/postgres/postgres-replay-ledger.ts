import type { ReplayLedger } from '../../ports/replay-ledger.js';
import type { PostgresDatabase } from './postgres-database.js';

/**
 * Used MRTR tokens in PostgreSQL (seed 004 "MRTR, tasks, and cache behavior": one-time
 * continuation state), shared by every instance: a requestState consumed through one instance
 * is refused by all the others. One statement decides — an insert that takes the token when it
 * is new or its entry has expired, and does nothing otherwise — so of any number of concurrent
 * consumers on any instances exactly one wins. Every `sweepEvery` consumes, expired entries are
 * deleted.
 */
export class PostgresReplayLedger implements ReplayLedger {
  private consumes = 0;

  constructor(
    private readonly db: PostgresDatabase,
    private readonly sweepEvery = 256,
  ) {}

  async consume(token: string, expiresAt: number, now: number): Promise<boolean> {
    if (++this.consumes % this.sweepEvery === 0) await this.db.query(`DELETE FROM ${this.db.table('replays')} WHERE expires_at <= $1`, [now]);
    const rows = await this.db.query(
      `INSERT INTO ${this.db.table('replays')} AS r (token, expires_at) VALUES ($1, $2)
       ON CONFLICT (token) DO UPDATE SET expires_at = EXCLUDED.expires_at WHERE r.expires_at <= $3
       RETURNING 1`,
      [token, expiresAt, now],
    );
    return rows.length === 1;
  }
}
