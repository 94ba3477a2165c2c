/**
 * A secret in Secrets Manager, read at most once per cache period with one read in flight: the shape the
 * Azure Speech key (lambdas/speech/speech-key.ts) and the signing key (lambdas/trust/trust-keys.ts) share.
 * A rotated secret reaches every instance within the cache period. The secret's content never reaches an
 * error message or a log line (docs/behaviour.md §7.13).
 */
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { endpointOverride } from '../config';
import { ApiError } from '../lib/api-error';

export interface CachedSecretOptions<T> {
  readonly secretId: string;
  /** How long a value read is reused. */
  readonly cacheMs: number;
  /**
   * Turns the SecretString into the value. It may throw (nothing is cached then); it gets undefined when
   * the secret has no string, or does not exist and `missingIsEmpty` is set.
   */
  readonly parse: (secretString: string | undefined) => T;
  /** A secret that does not exist (yet) reads as empty instead of failing: a deployment without a key. */
  readonly missingIsEmpty?: boolean;
  /** What the secret is, in the caller's error messages: "the speech key". */
  readonly what: string;
  readonly now?: () => number;
}

export class CachedSecret<T> {
  private cached: { value: T; readAt: number } | undefined;
  private pending: Promise<T> | undefined;
  private readonly now: () => number;

  constructor(
    private readonly client: SecretsManagerClient,
    private readonly options: CachedSecretOptions<T>,
  ) {
    this.now = options.now ?? Date.now;
  }

  get(): Promise<T> {
    if (this.cached && this.now() - this.cached.readAt < this.options.cacheMs) {
      return Promise.resolve(this.cached.value);
    }
    // Callers arriving while the secret is being read share that one read.
    this.pending ??= this.read().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  /** Forgets the cached value, e.g. after the service it unlocks refused it because it was rotated. */
  forget(): void {
    this.cached = undefined;
  }

  private async read(): Promise<T> {
    let secretString: string | undefined;
    try {
      const output = await this.client.send(new GetSecretValueCommand({ SecretId: this.options.secretId }));
      secretString = output.SecretString;
    } catch (error) {
      const missing = error instanceof Error && error.name === 'ResourceNotFoundException';
      if (!(missing && this.options.missingIsEmpty)) throw secretReadError(error, this.options.what);
    }
    const value = this.options.parse(secretString);
    this.cached = { value, readAt: this.now() };
    return value;
  }
}

/** Secrets Manager's failures as the contract's errors, naming what could not be read. */
function secretReadError(error: unknown, what: string): ApiError {
  const name = error instanceof Error ? error.name : '';
  if (name === 'TimeoutError' || name === 'AbortError') {
    return new ApiError('upstream_timeout', `Reading ${what} took too long. Please try again.`, {
      cause: error,
    });
  }
  if (name === 'ThrottlingException') {
    return new ApiError('rate_limited', 'Too many requests right now. Please try again.', { cause: error });
  }
  const subject = what.charAt(0).toUpperCase() + what.slice(1);
  return new ApiError('upstream_error', `${subject} could not be read. Please try again.`, { cause: error });
}

export interface SecretsManagerClientOptions {
  readonly region: string;
  readonly endpoint?: string;
  /** Connecting and each request; past it the read fails as `upstream_timeout`. */
  readonly timeoutMs: number;
  /** The SDK's attempts in all (its default is 3). */
  readonly maxAttempts?: number;
}

/** A Secrets Manager client whose every call has a deadline (docs/behaviour.md §9.7). */
export function secretsManagerClient(options: SecretsManagerClientOptions): SecretsManagerClient {
  return new SecretsManagerClient({
    region: options.region,
    ...endpointOverride(options.endpoint),
    ...(options.maxAttempts === undefined ? {} : { maxAttempts: options.maxAttempts }),
    requestHandler: {
      connectionTimeout: options.timeoutMs,
      requestTimeout: options.timeoutMs,
      throwOnRequestTimeout: true,
    },
  });
}
