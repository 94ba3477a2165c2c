/**
 * Deadlines for calls to a model or storage service, shared by the tutor, the picture makers and the
 * speech token: nothing may wait on an upstream without one (docs/behaviour.md §9.14).
 *
 * Every deadline is a `setTimeout` that aborts an `AbortController`: the timer list holds the timer and
 * the timer holds the controller, so the deadline fires whatever the garbage collector does. Not
 * `AbortSignal.any([AbortSignal.timeout(…), …])`: Node holds the timeout signal inside a combined signal
 * only weakly, so once nothing else refers to it a collection can take it, timer and all, and the
 * combined signal never aborts (nodejs/node#57736; test/lambdas/upstream/deadline.gc.test.ts).
 */

/** A deadline for one upstream operation, also ended early by the caller's signal. */
export interface Deadline {
  readonly signal: AbortSignal;
  /** True once the time ran out (or the caller gave up, which means the answer came too late). */
  readonly expired: () => boolean;
  /** Stops the timers once the operation is over. */
  readonly dispose: () => void;
}

/** What `AbortSignal.timeout` aborts with, so callers (and `fetch`) see the same `TimeoutError`. */
export function timeoutError(timeoutMs: number): DOMException {
  return new DOMException(`The operation timed out after ${timeoutMs} ms`, 'TimeoutError');
}

/** A timer that aborts `controller` after `ms`; unref'd, so a finished command-line run is not held open. */
function abortAfter(controller: AbortController, ms: number, reason: () => unknown) {
  const timer = setTimeout(() => controller.abort(reason()), ms);
  // The timer list still holds an unref'd timer (and through it the controller) until it fires or is cleared.
  timer.unref();
  return timer;
}

/** A controller aborted when `timeoutMs` passes or `callerSignal` aborts, whichever comes first. */
function timedController(timeoutMs: number, callerSignal: AbortSignal | undefined) {
  const controller = new AbortController();
  const timer = abortAfter(controller, timeoutMs, () => timeoutError(timeoutMs));
  const onCallerAbort = () => controller.abort(callerSignal?.reason);
  const dispose = () => {
    clearTimeout(timer);
    callerSignal?.removeEventListener('abort', onCallerAbort);
  };
  if (callerSignal?.aborted) onCallerAbort();
  else callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
  controller.signal.addEventListener('abort', dispose, { once: true });
  return { controller, dispose };
}

/** A signal aborted by whichever comes first: `timeoutMs` passing, or `callerSignal` aborting. */
export function deadline(timeoutMs: number, callerSignal?: AbortSignal): Deadline {
  const { controller, dispose } = timedController(timeoutMs, callerSignal);
  return { signal: controller.signal, expired: () => controller.signal.aborted, dispose };
}

/**
 * The deadlines of a streamed answer: one for the whole stream and one for the silence between two
 * pieces of it (a model that stops sending mid-reply is given up on long before the whole deadline).
 * `touch` marks that something arrived; `dispose` stops both timers once the stream is over.
 */
export interface StreamDeadline extends Deadline {
  readonly touch: () => void;
}

export function streamDeadline(
  timeoutMs: number,
  idleMs: number,
  callerSignal?: AbortSignal,
): StreamDeadline {
  const { controller, dispose } = timedController(timeoutMs, callerSignal);
  let idle: ReturnType<typeof setTimeout> | undefined;
  const touch = () => {
    clearTimeout(idle);
    if (!controller.signal.aborted) {
      idle = abortAfter(controller, idleMs, () => new Error(`nothing arrived for ${idleMs} ms`));
    }
  };
  const stop = () => {
    clearTimeout(idle);
    dispose();
  };
  controller.signal.addEventListener('abort', stop, { once: true });
  touch();
  return { signal: controller.signal, expired: () => controller.signal.aborted, touch, dispose: stop };
}

/**
 * Yields what `source` yields, each piece within `limit` (which it touches on every piece). When a
 * deadline runs out the wait ends at once with the abort reason, whether or not the source notices the
 * abort: a stream that stalls can never leave the caller waiting.
 */
export async function* within<T>(source: AsyncIterable<T>, limit: StreamDeadline): AsyncGenerator<T> {
  const iterator = source[Symbol.asyncIterator]();
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_resolve, reject) => {
    onAbort = () => reject(limit.signal.reason as Error);
    if (limit.signal.aborted) onAbort();
    else limit.signal.addEventListener('abort', onAbort, { once: true });
  });
  aborted.catch(() => undefined);
  let finished = false;
  try {
    for (;;) {
      const next = await Promise.race([iterator.next(), aborted]);
      if (next.done) {
        finished = true;
        return;
      }
      limit.touch();
      yield next.value;
    }
  } finally {
    if (onAbort) limit.signal.removeEventListener('abort', onAbort);
    // Releases the source (its connection) without waiting on it: a stalled source may never settle.
    if (!finished) Promise.resolve(iterator.return?.()).catch(() => undefined);
  }
}
