import type * as NodeCrypto from 'node:crypto';

let loaded: typeof NodeCrypto | undefined;

/**
 * node:crypto, loaded on first use: loading it adds to a start-up (docs/BENCHMARKS.md "Cold
 * start"), and a `pm-mcp` start or a read-only `pm` command needs no random bytes or hashes.
 */
export function nodeCrypto(): typeof NodeCrypto {
  loaded ??= process.getBuiltinModule('node:crypto');
  return loaded;
}
