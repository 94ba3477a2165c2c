// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SpeechTokenResponse } from '#contract/schemas';
import { AzureSpeechEngine } from '#web/speech/azure-engine';
import { quiet, scriptedMicrophone, scriptedSdk, silentOutput, tokenLasting } from './scripted-speech-sdk';

// When the Azure engine renews its token (docs/behaviour.md §10.8): a minute before expiresAt, never more
// than 9 minutes apart, again after each success, 30 s after a failure; and the microphone it asked for
// is released whenever listening ended while the learner was still answering the permission prompt.

const MINUTE = 60_000;
const START = Date.parse('2026-01-01T12:00:00.000Z');

function engineWith(options: {
  token: SpeechTokenResponse;
  fetchToken: (signal?: AbortSignal) => Promise<SpeechTokenResponse | null>;
  getMicrophone?: () => Promise<MediaStream>;
  tokenRetryMs?: number;
}) {
  const scripted = scriptedSdk();
  const engine = new AzureSpeechEngine(scripted.sdk, {
    player: silentOutput,
    getMicrophone: async () => scriptedMicrophone().stream,
    ...options,
  });
  return { engine, ...scripted };
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: START });
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('renewing the speech token', () => {
  it('fetches a new token one minute before the old one expires, and reschedules from the new one', async () => {
    let issued = 0;
    const fetchToken = vi.fn(async () => tokenLasting(`token-${(issued += 1)}`, 5 * MINUTE));
    const { engine } = engineWith({ token: tokenLasting('first', 5 * MINUTE), fetchToken });

    await vi.advanceTimersByTimeAsync(4 * MINUTE - 1);
    expect(fetchToken).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchToken).toHaveBeenCalledTimes(1);

    // The new token also lasts 5 minutes from now: the next refresh is 4 minutes later.
    await vi.advanceTimersByTimeAsync(4 * MINUTE - 1);
    expect(fetchToken).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchToken).toHaveBeenCalledTimes(2);
    engine.dispose();
  });

  it('never waits more than 9 minutes, whatever expiresAt says, and at once when it cannot be read', async () => {
    const fetchToken = vi.fn(async () => tokenLasting('next', 60 * MINUTE));
    const { engine } = engineWith({ token: tokenLasting('first', 60 * MINUTE), fetchToken });

    await vi.advanceTimersByTimeAsync(9 * MINUTE - 1);
    expect(fetchToken).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchToken).toHaveBeenCalledTimes(1);
    engine.dispose();

    const unreadable = vi.fn(async () => tokenLasting('next', 60 * MINUTE));
    const other = engineWith({
      token: { token: 't', region: 'eastus', expiresAt: 'soon' },
      fetchToken: unreadable,
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(unreadable).toHaveBeenCalledTimes(1);
    other.engine.dispose();
  });

  it('tries again after tokenRetryMs when a refresh fails, then goes back to the usual schedule', async () => {
    const fetchToken = vi
      .fn<(signal?: AbortSignal) => Promise<SpeechTokenResponse | null>>()
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValueOnce(null)
      .mockImplementation(async () => tokenLasting('later', 5 * MINUTE));
    const { engine } = engineWith({
      token: tokenLasting('first', 2 * MINUTE),
      fetchToken,
      tokenRetryMs: 7_000,
    });

    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(fetchToken).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(6_999);
    expect(fetchToken).toHaveBeenCalledTimes(1);
    // A server that no longer has a key, or has reached a spending limit (null), is a failure too.
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchToken).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(7_000);
    expect(fetchToken).toHaveBeenCalledTimes(3);
    await vi.advanceTimersByTimeAsync(4 * MINUTE - 1);
    expect(fetchToken).toHaveBeenCalledTimes(3);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchToken).toHaveBeenCalledTimes(4);
    engine.dispose();
  });

  it('retries a failed refresh after 30 s by default', async () => {
    const fetchToken = vi.fn(async (): Promise<SpeechTokenResponse | null> => {
      throw new Error('offline');
    });
    const { engine } = engineWith({ token: tokenLasting('first', MINUTE), fetchToken });

    await vi.advanceTimersByTimeAsync(0);
    expect(fetchToken).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(29_999);
    expect(fetchToken).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchToken).toHaveBeenCalledTimes(2);
    engine.dispose();
  });

  it('puts the new token on the live recogniser and synthesizer', async () => {
    const fetchToken = vi.fn(async () => tokenLasting('renewed', 5 * MINUTE));
    const { engine, recognizers, synthesizers } = engineWith({
      token: tokenLasting('first', 2 * MINUTE),
      fetchToken,
    });
    await engine.startListening('en-US', quiet);
    expect(recognizers[0]?.authorizationToken).toBe('first');
    expect(synthesizers[0]?.authorizationToken).toBe('first');

    await vi.advanceTimersByTimeAsync(MINUTE);

    expect(recognizers[0]?.authorizationToken).toBe('renewed');
    expect(synthesizers[0]?.authorizationToken).toBe('renewed');
    engine.dispose();
  });

  it('stops renewing once disposed, and drops a token that arrives after', async () => {
    let answer: (token: SpeechTokenResponse) => void = () => undefined;
    const fetchToken = vi.fn(() => new Promise<SpeechTokenResponse>((resolve) => (answer = resolve)));
    const { engine, synthesizers } = engineWith({ token: tokenLasting('first', 2 * MINUTE), fetchToken });

    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(fetchToken).toHaveBeenCalledTimes(1);
    engine.dispose();
    answer(tokenLasting('late', 5 * MINUTE));
    await vi.advanceTimersByTimeAsync(20 * MINUTE);

    expect(fetchToken).toHaveBeenCalledTimes(1);
    expect(synthesizers[0]?.authorizationToken).toBe('first');
  });
});

describe('the microphone and End', () => {
  it('releases a microphone granted after the engine was disposed (End during the permission prompt)', async () => {
    const mic = scriptedMicrophone();
    let grant: (stream: MediaStream) => void = () => undefined;
    const { engine, recognizers } = engineWith({
      token: tokenLasting('first', 5 * MINUTE),
      fetchToken: async () => null,
      getMicrophone: () => new Promise((resolve) => (grant = resolve)),
    });
    const listening = engine.startListening('en-US', quiet);
    await vi.advanceTimersByTimeAsync(0);

    engine.dispose();
    grant(mic.stream);
    await listening;

    expect(mic.stopped).toEqual(['track']);
    expect(recognizers).toHaveLength(0);
  });

  it('starts no recogniser after dispose, and asks for no microphone', async () => {
    const getMicrophone = vi.fn(async () => scriptedMicrophone().stream);
    const { engine, recognizers } = engineWith({
      token: tokenLasting('first', 5 * MINUTE),
      fetchToken: async () => null,
      getMicrophone,
    });
    engine.dispose();

    await engine.startListening('en-US', quiet);

    expect(getMicrophone).not.toHaveBeenCalled();
    expect(recognizers).toHaveLength(0);
  });
});
