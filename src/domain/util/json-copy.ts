/**
 * A deep copy of a JSON value, the same as `JSON.parse(JSON.stringify(value))`: tool results
 * hand the tracker's results to the MCP layer as plain JSON that aliases nothing of the
 * tracker's (docs/TRACKER.md "The derived index": summaries come straight from the index rows).
 * Plain objects, arrays, strings, booleans, null and finite numbers are copied directly
 * (undefined properties left out, as JSON leaves them out), several times faster than the
 * round trip through a string; a value holding anything else (a class instance, a Date, a
 * non-finite number, undefined in an array…) takes the round trip, so the result is always the
 * same.
 */
export function jsonCopy<T>(value: T): T {
  try {
    return copy(value) as T;
  } catch (error) {
    if (error !== NOT_PLAIN) throw error;
    return JSON.parse(JSON.stringify(value)) as T;
  }
}

const NOT_PLAIN = Symbol('not plain JSON');

function copy(value: unknown): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      if (!Number.isFinite(value)) throw NOT_PLAIN;
      return value === 0 ? 0 : value; // -0 is written as 0
    case 'object': {
      if (value === null) return null;
      if (Array.isArray(value)) {
        const out: unknown[] = new Array(value.length);
        for (let i = 0; i < value.length; i++) {
          const item: unknown = value[i];
          if (item === undefined) throw NOT_PLAIN; // undefined or a hole: JSON writes null
          out[i] = copy(item);
        }
        return out;
      }
      if (Object.getPrototypeOf(value) !== Object.prototype) throw NOT_PLAIN;
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(value)) {
        if (key === '__proto__') throw NOT_PLAIN; // an assignment would set the prototype
        const item = (value as Record<string, unknown>)[key];
        if (item !== undefined) out[key] = copy(item);
      }
      return out;
    }
    default:
      throw NOT_PLAIN;
  }
}
