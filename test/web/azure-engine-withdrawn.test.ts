// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SpeechTokenResponse } from '#contract/schemas';
import { AzureSpeechEngine } from '#web/speech/azure-engine';
import { quiet, scriptedMicrophone, scriptedSdk, silentOutput, tokenLasting } from './scripted-speech-sdk';

// When Azure is withdrawn from a conversation (docs/behaviour.md §10.21): the server answers that it issues
// no more tokens (no key, or a spending limit reached: fetchToken gives null) and the token held has
// expired, or the service refused it. Until then the token held serves; a failed fetch is not an answer.

const MINUTE = 60_000;
const START = Date.parse('2026-01-01T12:00:00.000Z');
const AUTHENTICATION_FAILURE = 1;

type FetchToken = (signal?: AbortSignal) => Promise<SpeechTokenResponse | null>;

function engineWith(fetchToken: FetchToken, lastsMs = 2 * MINUTE) {
  const scripted = scriptedSdk();
  const engine = new AzureSpeechEngine(scripted.sdk, {
    token: tokenLasting('first', lastsMs),
    fetchToken,
    player: silentOutput,
    getMicrophone: async () => scriptedMicrophone().stream,
    reconnectDelaysMs: [500],
    tokenRetryMs: 30_000,
  });
  let retirements = 0;
  engine.onRetired(() => (retirements += 1));
  return { engine, retired: () => retirements, ...scripted };
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: START });
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('Azure withdrawn once no more tokens are issued', () => {
  it('keeps the token held until it expires, asks once more then, and is withdrawn when the answer is still no', async () => {
    const fetchToken = vi.fn<FetchToken>(async () => null);
    const { engine, retired, recognizers } = engineWith(fetchToken);
    await engine.startListening('en-US', quiet);

    // The refresh a minute early, then every 30 s: the last try falls on the expiry itself.
    await vi.advanceTimersByTimeAsync(2 * MINUTE - 1);
    expect(fetchToken).toHaveBeenCalledTimes(2);
    expect(retired()).toBe(0);
    expect(recognizers[0]?.calls).toEqual(['start']);

    await vi.advanceTimersByTimeAsync(1);
    expect(fetchToken).toHaveBeenCalledTimes(3);
    expect(retired()).toBe(1);
    // Recognition stops reconnecting with a token that can no longer work, and nothing more is asked.
    expect(recognizers[0]?.calls).toEqual(['start', 'stop', 'close']);
    await vi.advanceTimersByTimeAsync(30 * MINUTE);
    expect(fetchToken).toHaveBeenCalledTimes(3);
    expect(recognizers).toHaveLength(1);
    expect(retired()).toBe(1);
    engine.dispose();
  });

  it('stays when a token comes again before the old one expires (the key is back)', async () => {
    const fetchToken = vi
      .fn<FetchToken>()
      .mockResolvedValueOnce(null)
      .mockImplementation(async () => tokenLasting('back', 5 * MINUTE));
    const { engine, retired, synthesizers } = engineWith(fetchToken);

    await vi.advanceTimersByTimeAsync(10 * MINUTE);

    expect(retired()).toBe(0);
    expect(synthesizers[0]?.authorizationToken).toBe('back');
    engine.dispose();
  });

  it('is not withdrawn by a token service that fails to answer: that is retried as before', async () => {
    const fetchToken = vi.fn<FetchToken>(async () => {
      throw new Error('offline');
    });
    const { engine, retired } = engineWith(fetchToken);

    await vi.advanceTimersByTimeAsync(10 * MINUTE);

    expect(retired()).toBe(0);
    expect(fetchToken.mock.calls.length).toBeGreaterThan(15);
    engine.dispose();
  });

  it('is withdrawn at once, before the expiry, when the service refuses the token and the server says no', async () => {
    const fetchToken = vi.fn<FetchToken>(async () => null);
    const { engine, retired, recognizers } = engineWith(fetchToken, 10 * MINUTE);
    await engine.startListening('en-US', quiet);

    recognizers[0]?.canceled?.(null, {
      reason: 0,
      errorCode: AUTHENTICATION_FAILURE,
      errorDetails: 'WebSocket upgrade failed: Authentication error (401)',
    });
    await vi.advanceTimersByTimeAsync(500);

    expect(fetchToken).toHaveBeenCalledTimes(1);
    expect(retired()).toBe(1);
    // No recogniser is rebuilt with the refused token, then or later.
    await vi.advanceTimersByTimeAsync(5 * MINUTE);
    expect(recognizers).toHaveLength(1);
    engine.dispose();
  });

  it('tells a listener that comes after the withdrawal at once, and none after dispose', async () => {
    const { engine, retired } = engineWith(async () => null, MINUTE);
    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(retired()).toBe(1);

    const late = vi.fn();
    engine.onRetired(late);
    expect(late).toHaveBeenCalledTimes(1);

    const other = engineWith(async () => null, MINUTE);
    const never = vi.fn();
    other.engine.onRetired(never);
    other.engine.dispose();
    await vi.advanceTimersByTimeAsync(10 * MINUTE);
    expect(never).not.toHaveBeenCalled();
    engine.dispose();
  });
});
