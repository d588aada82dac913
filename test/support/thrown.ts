/** A class of errors, for the checks below. */
type ErrorClass<E> = abstract new (...args: never[]) => E;

/**
 * What `fn` throws, checked to be an instance of `type`; the test fails (with `what` in its
 * message) when `fn` returns instead, or throws something else.
 */
export function thrownBy<E>(fn: () => unknown, type: ErrorClass<E>, what = `a ${type.name}`): E {
  try {
    fn();
  } catch (error) {
    if (error instanceof type) return error;
    throw new Error(`expected ${what}, got ${error instanceof Error ? `${error.constructor.name}: ${error.message}` : String(error)}`, { cause: error });
  }
  throw new Error(`expected ${what}, and nothing was thrown`);
}

/** The rejection of `promise`, checked like {@link thrownBy}. */
export async function rejectionOf<E>(promise: Promise<unknown>, type: ErrorClass<E>, what = `a ${type.name}`): Promise<E> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof type) return error;
    throw new Error(`expected ${what}, got ${error instanceof Error ? `${error.constructor.name}: ${error.message}` : String(error)}`, { cause: error });
  }
  throw new Error(`expected ${what}, and the promise resolved`);
}
