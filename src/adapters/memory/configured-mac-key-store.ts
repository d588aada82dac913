import { ValidationError } from '../../domain/errors/tracker-errors.js';
import type { Hasher } from '../../ports/hasher.js';
import type { MacKey, MacKeyStore } from '../../ports/mac-key-store.js';

/**
 * Keys given by configuration (PM_MCP_MAC_KEYS), the same on every instance of a deployment
 * (seed 004 "MRTR, tasks, and cache behavior": `requestState` is HMAC-sealed, so every
 * instance behind one endpoint must accept what another sealed). The first key seals, every
 * listed key verifies; rotation is a configuration change: prepend a new key, and drop the old
 * one once the longest `requestState` lifetime has passed. A key's id is derived from its
 * secret, so instances agree on ids without naming keys. Nothing is stored and nothing rotates
 * here: `rotate` is refused with what to do instead.
 */
export class ConfiguredMacKeyStore implements MacKeyStore {
  private readonly list: readonly MacKey[];

  /** `secrets`: at least one; the first seals. `createdAt` is when this process read them. */
  constructor(hasher: Hasher, secrets: readonly Uint8Array[], createdAt: number) {
    if (!secrets.length) throw new RangeError('at least one key is needed');
    this.list = Object.freeze(secrets.map((secret) => Object.freeze({ id: configuredMacKeyId(hasher, secret), secret, createdAt })));
  }

  async current(): Promise<MacKey> {
    return this.list[0]!;
  }

  async keys(): Promise<readonly MacKey[]> {
    return this.list;
  }

  async rotate(): Promise<MacKey> {
    throw new ValidationError('the requestState keys come from PM_MCP_MAC_KEYS: rotate by putting a new key first in it on every instance, and drop the old one after the longest requestState lifetime', {
      setting: 'PM_MCP_MAC_KEYS',
    });
  }
}

/** The id of a configured key: `c` and 12 hex digits of the SHA-256 of its secret (the same on every instance). */
export function configuredMacKeyId(hasher: Hasher, secret: Uint8Array): string {
  return `c${hasher.sha256HexBytes(secret).slice(0, 12)}`;
}
