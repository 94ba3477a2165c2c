import type { SpeechTokenResponse } from '#contract/schemas';
import { logError } from '../lib/log';
import { withDeadline } from '../lib/deadline';

/** Tokens live 10 minutes; refresh a minute early, and never later than 9 minutes after the last one. */
const REFRESH_MARGIN_MS = 60_000;
const MAX_TOKEN_AGE_MS = 9 * 60_000;
const TOKEN_RETRY_MS = 30_000;

export interface AzureSpeechTokenOptions {
  /** The token Start fetched. */
  readonly token: SpeechTokenResponse;
  /** Fetches a fresh token (POST /api/speechToken); aborted past `deadlineMs`. */
  readonly fetchToken: (signal?: AbortSignal) => Promise<SpeechTokenResponse | null>;
  readonly deadlineMs: number;
  /** After a failed refresh, the next try (default 30 s). */
  readonly retryMs?: number;
  readonly now?: () => number;
  /** Sets a renewed token in place on the live recogniser and synthesizer. */
  readonly onRenewed: (token: string) => void;
  /**
   * The server issues no more tokens (no key, or a spending limit reached) and the one held has expired or
   * the service refused it: Azure cannot serve this conversation any more (docs/behaviour.md §10.21).
   */
  readonly onWithdrawn: () => void;
}

/**
 * The conversation's speech token, kept fresh (docs/behaviour.md §10.8): renewed a minute before it
 * expires and never more than 9 minutes after the last, again 30 s after a failed try, and at once when
 * the service refused it (`renewNow`). The browser only ever holds this short-lived token (§10.2). Once the
 * server answers that it issues no more, the tries follow the token to its expiry, and when the server still
 * says no then (or at once, when the service refused the token) Azure is withdrawn (§10.21).
 */
export class AzureSpeechToken {
  private token: SpeechTokenResponse;
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;
  /** The last answer was that the server issues no more tokens (no key, or a spending limit reached). */
  private refused = false;
  private readonly now: () => number;

  constructor(private readonly options: AzureSpeechTokenOptions) {
    this.token = options.token;
    this.now = options.now ?? Date.now;
    this.scheduleRefresh();
  }

  /** The newest token. */
  get current(): SpeechTokenResponse {
    return this.token;
  }

  /** Renews the token now (the service refused it) and schedules the next refresh from the new one. */
  async renewNow(): Promise<void> {
    try {
      await this.renew();
    } catch (error) {
      // The service refused the token it holds and the server will not issue another.
      if (this.refused) this.withdraw();
      throw error;
    }
    this.scheduleRefresh();
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.refreshTimer);
  }

  private scheduleRefresh(delay = this.refreshDelay()): void {
    clearTimeout(this.refreshTimer);
    if (this.disposed) return;
    this.refreshTimer = setTimeout(() => void this.refresh(), delay);
  }

  private refreshDelay(): number {
    const untilExpiry = Date.parse(this.token.expiresAt) - this.now() - REFRESH_MARGIN_MS;
    return Math.max(0, Math.min(Number.isFinite(untilExpiry) ? untilExpiry : 0, MAX_TOKEN_AGE_MS));
  }

  private async refresh(): Promise<void> {
    try {
      await this.renew();
      this.scheduleRefresh();
    } catch (error) {
      logError('refreshing the speech token failed', error);
      const retryMs = this.options.retryMs ?? TOKEN_RETRY_MS;
      if (!this.refused) {
        this.scheduleRefresh(retryMs);
        return;
      }
      // No more tokens: the one held serves until it expires (the learner loses nothing), and the server is
      // asked once more at that moment.
      const untilExpiry = Date.parse(this.token.expiresAt) - this.now();
      if (untilExpiry > 0) this.scheduleRefresh(Math.min(retryMs, untilExpiry));
      else this.withdraw();
    }
  }

  /** Azure can serve this conversation no longer: no more tries, and the engine is told once. */
  private withdraw(): void {
    if (this.disposed) return;
    this.dispose();
    this.options.onWithdrawn();
  }

  /** Fetches a token (with a deadline) and hands it on; a conversation that has ended drops it. */
  private async renew(): Promise<void> {
    const abort = new AbortController();
    const token = await withDeadline(
      this.options.fetchToken(abort.signal),
      this.options.deadlineMs,
      'fetching a speech token',
      () => abort.abort(),
    );
    // No token: the server has no speech key any more, or a spending limit is reached (docs/behaviour.md
    // §12.19). Either way a failed refresh, tried again later (§10.8); the live token serves until it expires.
    this.refused = !token;
    if (!token) throw new Error('the server gave no speech token (no key, or a spending limit reached)');
    if (this.disposed) return;
    this.token = token;
    this.options.onRenewed(token.token);
  }
}
