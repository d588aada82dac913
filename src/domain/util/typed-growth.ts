/** The typed arrays pm grows in place of arrays of numbers (listings, word ids, counts). */
type Growable = Int32Array | Float64Array;

/**
 * `values` when it already holds `size` entries, else a copy twice as long (or `size`, if more)
 * with the same entries first: amortized growth for typed arrays, which cannot grow themselves.
 */
export function grownTo<T extends Growable>(values: T, size: number): T {
  if (size <= values.length) return values;
  const out = new (values.constructor as new (length: number) => T)(Math.max(size, 2 * values.length));
  out.set(values);
  return out;
}
