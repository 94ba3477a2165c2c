/**
 * Something the app waited for did not happen in time (docs/behaviour.md §9.14: every wait has a deadline).
 */
export class DeadlineError extends Error {
  constructor(
    readonly what: string,
    readonly ms: number,
  ) {
    super(`${what} did not finish within ${ms} ms`);
    this.name = 'DeadlineError';
  }
}

/**
 * Settles as `work` does, or rejects with a DeadlineError after `ms` (then `onLate` runs, to close or
 * replace whatever was left half-done): nothing the app awaits on a network, a speech service or a media
 * element may wait for ever. The timer is always cleared.
 */
export function withDeadline<T>(work: Promise<T>, ms: number, what: string, onLate?: () => void): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      onLate?.();
      reject(new DeadlineError(what, ms));
    }, ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
