import { z } from 'zod';

/**
 * PM_MCP_MAC_KEYS: the keys that seal MRTR `requestState` when a deployment shares them by
 * configuration (seed 004 "MRTR, tasks, and cache behavior"): base64 (or base64url) secrets of
 * at least 32 bytes, separated by commas or whitespace; the first seals, all verify. Unset: each
 * deployment keeps its keys where its task store is (the runtime area, or the database).
 * A key that is not base64, too short, too long or listed twice stops the process at startup,
 * naming the key by position and never printing it.
 */

const MIN_BYTES = 32;
const MAX_BYTES = 1024;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** The decoded keys of PM_MCP_MAC_KEYS, or undefined when it is unset or empty. */
export const macKeysSchema = z
  .string()
  .optional()
  .transform((raw, ctx) => {
    const texts = (raw ?? '').split(/[\s,]+/).filter(Boolean);
    if (!texts.length) return undefined;
    const keys: Uint8Array[] = [];
    const seen = new Set<string>();
    for (const [index, text] of texts.entries()) {
      const problem = keyProblem(text, seen);
      if (problem) {
        ctx.addIssue({ code: 'custom', message: `key ${index + 1} of ${texts.length} ${problem}` });
        return z.NEVER;
      }
      keys.push(decode(text));
    }
    return Object.freeze(keys);
  });

function keyProblem(text: string, seen: Set<string>): string | undefined {
  if (!BASE64.test(text) && !BASE64URL.test(text)) return 'is not base64 or base64url';
  const bytes = decode(text);
  if (bytes.length < MIN_BYTES) return `is ${bytes.length} bytes; a key needs at least ${MIN_BYTES} (e.g. \`openssl rand -base64 32\`)`;
  if (bytes.length > MAX_BYTES) return `is ${bytes.length} bytes; at most ${MAX_BYTES}`;
  const canonical = Buffer.from(bytes).toString('base64');
  if (seen.has(canonical)) return 'is listed twice';
  seen.add(canonical);
  return undefined;
}

function decode(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text, BASE64.test(text) ? 'base64' : 'base64url'));
}
