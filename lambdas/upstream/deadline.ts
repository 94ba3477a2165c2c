/**
 * Deadlines for calls to a model or storage service, shared by the tutor and picture providers: nothing
 * may wait on an upstream without one.
 */

/** A deadline for one upstream operation, also ended early by the caller's signal. */
export interface Deadline {
  readonly signal: AbortSignal;
  /** True once the time ran out. */
  readonly expired: () => boolean;
}

export function deadline(timeoutMs: number, callerSignal?: AbortSignal): Deadline {
  const timer = AbortSignal.timeout(timeoutMs);
  const signal = callerSignal ? AbortSignal.any([timer, callerSignal]) : timer;
  // Callers only abort when their own, wider deadline ran out: either way the answer came too late.
  return { signal, expired: () => signal.aborted };
}

/**
 * The deadlines of a streamed answer: one for the whole stream and one for the silence between two
 * pieces of it (a model that stops sending mid-reply is given up on long before the whole deadline).
 * `touch` marks that something arrived; `dispose` stops the idle timer once the stream is over.
 */
export interface StreamDeadline extends Deadline {
  readonly touch: () => void;
  readonly dispose: () => void;
}

export function streamDeadline(
  timeoutMs: number,
  idleMs: number,
  callerSignal?: AbortSignal,
): StreamDeadline {
  const idle = new AbortController();
  const signals = [AbortSignal.timeout(timeoutMs), idle.signal, ...(callerSignal ? [callerSignal] : [])];
  const signal = AbortSignal.any(signals);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const touch = () => {
    clearTimeout(timer);
    if (!signal.aborted) {
      timer = setTimeout(() => idle.abort(new Error(`nothing arrived for ${idleMs} ms`)), idleMs);
    }
  };
  touch();
  return { signal, expired: () => signal.aborted, touch, dispose: () => clearTimeout(timer) };
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
