const encoder = new TextEncoder();

/** Byte length of text in UTF-8 (file offsets are bytes, strings are UTF-16). */
export function utf8Length(text: string): number {
  return encoder.encode(text).length;
}
