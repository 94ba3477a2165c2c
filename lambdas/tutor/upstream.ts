/**
 * How failures of a model or storage service become the contract's errors (docs/behaviour.md §8.4), shared by
 * the tutor and picture providers. The upstream's own message goes to the log (as the ApiError's cause),
 * never to the caller.
 */
import { ApiError } from '../http/api-error';

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

export const timedOut = (cause?: unknown) =>
  new ApiError('upstream_timeout', 'The model took too long to answer. Please try again.', { cause });
export const rateLimited = (cause?: unknown) =>
  new ApiError('rate_limited', 'Too many requests right now. Please try again in a moment.', { cause });
export const contentFiltered = (cause?: unknown) =>
  new ApiError(
    'content_filtered',
    'That request was blocked by the content filter. Please try something else.',
    {
      cause,
    },
  );
export const upstreamFailed = (cause?: unknown) =>
  new ApiError('upstream_error', 'The model service failed to answer. Please try again.', { cause });

/** An upstream answer that cannot be used (not JSON, wrong shape, nothing to say). */
export class MalformedReply extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MalformedReply';
  }
}

/** Words with which Bedrock and OpenAI-compatible services explain a content-safety refusal. */
const CONTENT_FILTER = /content[ _-]?(filter|policy|moderation)|guardrail|responsible ai|safety system/i;

export function mentionsContentFilter(message: string | undefined): boolean {
  return message !== undefined && CONTENT_FILTER.test(message);
}

const AWS_RATE_LIMITS = new Set([
  'ThrottlingException',
  'ServiceQuotaExceededException',
  'TooManyRequestsException',
  'SlowDown',
]);

interface AwsLikeError {
  readonly name?: string;
  readonly message?: string;
  readonly $metadata?: { readonly httpStatusCode?: number };
}

/**
 * Maps an error thrown by an AWS SDK v3 call (Bedrock Runtime, S3) made under `limit`: throttling and
 * quotas → 429, a content-safety refusal → 422, a model-side timeout or our own deadline → 504,
 * anything else (service faults, access, unknown model, unreadable answers) → 502.
 */
export function fromAwsError(error: unknown, limit: Deadline): ApiError {
  if (error instanceof ApiError) return error;
  if (limit.expired()) return timedOut(error);
  const aws = (typeof error === 'object' && error !== null ? error : {}) as AwsLikeError;
  if (aws.name && AWS_RATE_LIMITS.has(aws.name)) return rateLimited(error);
  if (aws.$metadata?.httpStatusCode === 429) return rateLimited(error);
  if (aws.name === 'ModelTimeoutException') return timedOut(error);
  if (aws.name === 'ValidationException' && mentionsContentFilter(aws.message)) return contentFiltered(error);
  return upstreamFailed(error);
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
