/**
 * How failures of a model or storage service become the contract's errors (docs/behaviour.md §8.4),
 * shared by the tutor and picture providers. The upstream's own message goes to the log (as the
 * ApiError's cause), never to the caller.
 */
import { ApiError } from '../lib/api-error';
import type { Deadline } from './deadline';

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
