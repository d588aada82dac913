import type * as NodeCrypto from 'node:crypto';

let loaded: typeof NodeCrypto | undefined;

/**
 * node:crypto, loaded on first use. Loading it costs several milliseconds, and a `pm-mcp` start
 * or a read-only `pm` command needs no random bytes or hashes (issue 3 cold start).
 */
export function nodeCrypto(): typeof NodeCrypto {
  loaded ??= process.getBuiltinModule('node:crypto');
  return loaded;
}
