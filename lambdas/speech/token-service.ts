import type { SpeechTokenResponse } from '../contract/schemas';
import { ApiError } from '../lib/api-error';
import { log } from '../lib/log';
import { deadline } from '../upstream/deadline';
import type { SpeechKey, SpeechKeySource } from './speech-key';

/** Azure STS tokens are valid for 10 minutes from issue. */
export const TOKEN_LIFETIME_MS = 10 * 60 * 1000;
/** `expiresAt` is this much earlier than Azure's own expiry, for clock skew and the request in flight. */
export const TOKEN_EXPIRY_MARGIN_MS = 60 * 1000;
/**
 * How long one issued token is handed out again. Well under the 9 minutes a token is usable, so every
 * answer carries at least 4 minutes of life and the browser's refresh-before-expiry gets a new token.
 */
export const TOKEN_REUSE_MS = 5 * 60 * 1000;

/** An Azure token is a JWT: printable ASCII without spaces. Anything else is a malformed answer. */
const TOKEN_PATTERN = /^[\x21-\x7e]{16,8192}$/;

export interface SpeechTokenOptions {
  /** Replaces `https://{region}.api.cognitive.microsoft.com` (tests use a loopback fake). */
  readonly stsBaseUrl?: string;
  readonly timeoutMs: number;
  readonly now?: () => number;
}

interface IssuedToken {
  readonly token: string;
  readonly region: string;
  readonly issuedAt: number;
}

/**
 * Exchanges the Azure Speech key for a short-lived token the browser can use, so the key stays on the
 * server. Tokens are reused for {@link TOKEN_REUSE_MS}; callers arriving while one is being issued share
 * that single STS request.
 */
export class SpeechTokenService {
  private cached: IssuedToken | undefined;
  private pending: Promise<IssuedToken> | undefined;
  private readonly now: () => number;

  constructor(
    private readonly keys: SpeechKeySource,
    private readonly options: SpeechTokenOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  async token(): Promise<SpeechTokenResponse> {
    return (await this.tokenAndMint()).token;
  }

  /**
   * The token, and whether this call minted it: true for exactly the one caller whose request went to STS
   * (the spend ledger charges that mint once, docs/behaviour.md §12.18).
   */
  async tokenAndMint(): Promise<{ readonly token: SpeechTokenResponse; readonly minted: boolean }> {
    const { issued, minted } = this.current();
    const token = await issued;
    return {
      token: {
        token: token.token,
        region: token.region,
        expiresAt: new Date(token.issuedAt + TOKEN_LIFETIME_MS - TOKEN_EXPIRY_MARGIN_MS).toISOString(),
      },
      minted,
    };
  }

  private current(): { readonly issued: Promise<IssuedToken>; readonly minted: boolean } {
    if (this.cached && this.now() - this.cached.issuedAt < TOKEN_REUSE_MS)
      return { issued: Promise.resolve(this.cached), minted: false };
    if (this.pending) return { issued: this.pending, minted: false };
    this.pending = this.issue().finally(() => {
      this.pending = undefined;
    });
    return { issued: this.pending, minted: true };
  }

  private async issue(): Promise<IssuedToken> {
    const key = await this.keys.get();
    if (!key) throw new ApiError('not_configured', 'Cloud speech is not configured on the server.');
    const issuedAt = this.now();
    const token = await this.exchange(key);
    this.cached = { token, region: key.region, issuedAt };
    log.info('speech token issued', { region: key.region });
    return this.cached;
  }

  private async exchange(key: SpeechKey): Promise<string> {
    const base = this.options.stsBaseUrl ?? `https://${key.region}.api.cognitive.microsoft.com`;
    const url = `${base.replace(/\/+$/, '')}/sts/v1.0/issueToken`;
    let response: Response;
    let text: string;
    // One signal bounds the whole exchange: connecting, waiting for headers and reading the body.
    const limit = deadline(this.options.timeoutMs);
    try {
      const { signal } = limit;
      response = await fetch(url, {
        method: 'POST',
        headers: {
          'Ocp-Apim-Subscription-Key': key.key,
          'Content-Type': 'application/x-www-form-urlencoded',
        },
        body: '',
        signal,
        redirect: 'error',
      });
      text = await response.text();
    } catch (error) {
      throw stsFailure(error);
    } finally {
      limit.dispose();
    }
    if (response.status === 401 || response.status === 403) {
      // The key may have been rotated: read it again next time instead of waiting out the cache.
      this.keys.forget();
      throw new ApiError('upstream_error', 'The speech service refused the server key.', {
        cause: new Error(`STS answered ${response.status}`),
      });
    }
    if (response.status === 429) {
      throw new ApiError('rate_limited', 'The speech service is busy. Please try again shortly.', {
        cause: new Error('STS answered 429'),
      });
    }
    if (!response.ok) {
      throw new ApiError('upstream_error', 'The speech service is unavailable. Please try again.', {
        cause: new Error(`STS answered ${response.status}`),
      });
    }
    const token = text.trim();
    if (!TOKEN_PATTERN.test(token)) {
      // The body is not described in the log: a malformed answer could still carry something secret.
      throw new ApiError('upstream_error', 'The speech service answered with something unexpected.', {
        cause: new Error(`STS answered a malformed token (${text.length} characters)`),
      });
    }
    return token;
  }
}

function stsFailure(error: unknown): ApiError {
  const name = error instanceof Error ? error.name : '';
  if (name === 'TimeoutError') {
    return new ApiError('upstream_timeout', 'The speech service took too long to answer. Please try again.', {
      cause: new Error('STS timed out'),
    });
  }
  return new ApiError('upstream_error', 'The speech service could not be reached. Please try again.', {
    cause: new Error(`STS request failed (${name || typeof error})`),
  });
}
