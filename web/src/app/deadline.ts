/** A promise that did not settle in time: what was awaited and how long it was given. */
export class DeadlineError extends Error {
  constructor(what: string, ms: number) {
    super(`${what} did not finish within ${ms} ms`);
    this.name = 'DeadlineError';
  }
}

/**
 * Settles like the promise, or rejects with a DeadlineError after `ms`: nothing the app awaits on a
 * network, a speech service or a media element may wait for ever. The timer is always cleared.
 */
export function withDeadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new DeadlineError(what, ms)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}
