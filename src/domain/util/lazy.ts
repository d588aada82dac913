/**
 * A value built on first use and kept. For module-level zod schemas that a process may never
 * need: building a zod schema runs its constructors eagerly, and a module full of them would
 * add to every start of `pm` and `pm-mcp` (docs/BENCHMARKS.md "Cold start").
 */
export function lazy<T>(build: () => T): () => T {
  let value: T | undefined;
  let built = false;
  return () => {
    if (!built) {
      value = build();
      built = true;
    }
    return value as T;
  };
}
