const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * bytes as text when they are valid UTF-8, else undefined. The BOM is kept (ignoreBOM) and
 * nothing is normalized, so the text encodes back to exactly these bytes: what SEP-2640
 * "Integrity" needs for a `text` content whose digest covers the raw file.
 */
export function decodeUtf8Exactly(bytes: Uint8Array): string | undefined {
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    return undefined;
  }
}

const CHUNK = 0x8000;

/** Standard base64 (RFC 4648 section 4, padded): the `blob` of a binary resource. */
export function encodeBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += CHUNK) binary += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  return btoa(binary);
}
