/**
 * Lets other work run — I/O callbacks, timers, other requests — in the middle of a long loop
 * over the tracker. A full validate or export running as a durable task (seed 004 "MRTR, tasks,
 * and cache behavior") would otherwise hold the event loop for its whole length, and the server
 * could not answer a `tasks/cancel` or any other request meanwhile.
 */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => (typeof setImmediate === 'function' ? setImmediate(resolve) : setTimeout(resolve, 0)));
}

/** A step counter for a loop: the returned function yields (see {@link yieldToEventLoop}) once every `every` calls. */
export function periodicYield(every = 128): () => Promise<void> | undefined {
  let steps = 0;
  return () => (++steps % every === 0 ? yieldToEventLoop() : undefined);
}
