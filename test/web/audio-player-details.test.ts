// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AudioPlayer, isIOSDevice, silentWavDataUrl } from '#web/speech/audio-player';
import { DeadlineError } from '#web/lib/deadline';
import { SpeechAudio } from '#web/speech/speech-audio';

// The audio player's details (docs/behaviour.md §10): the unlock clip is a valid silent WAV, Skip stops
// and settles what plays, an element error is named by its code, the end deadline follows the speed, and
// a disposed player no longer listens to its element.

function scriptedAudio() {
  const element = document.createElement('audio');
  const calls: string[] = [];
  element.play = async () => void calls.push('play');
  element.pause = () => void calls.push('pause');
  return { element, calls };
}

beforeEach(() => {
  vi.spyOn(URL, 'createObjectURL').mockImplementation(() => 'blob:astro/1');
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** A whole sentence's audio lasting `durationMs`, played from a Blob (the path without MSE). */
function clip(durationMs: number): SpeechAudio {
  const audio = new SpeechAudio(1 / durationMs);
  audio.push(new Uint8Array(1));
  audio.end();
  return audio;
}

/** Lets the player's promise chain reach the element. */
async function ticks(count = 10): Promise<void> {
  for (let tick = 0; tick < count; tick += 1) await Promise.resolve();
}

describe('the audio player, in detail', () => {
  it('builds the unlock clip as 0.1 s of 8 kHz 8-bit mono PCM silence', () => {
    const bytes = Uint8Array.from(atob(silentWavDataUrl().split(',')[1] ?? ''), (char) => char.charCodeAt(0));
    const view = new DataView(bytes.buffer);
    const text = (offset: number) => String.fromCharCode(...bytes.slice(offset, offset + 4));
    expect([text(0), text(8), text(12), text(36)]).toEqual(['RIFF', 'WAVE', 'fmt ', 'data']);
    expect(view.getUint32(4, true)).toBe(36 + 800);
    expect(view.getUint32(16, true)).toBe(16);
    expect(view.getUint16(20, true)).toBe(1);
    expect(view.getUint16(22, true)).toBe(1);
    expect(view.getUint32(24, true)).toBe(8000);
    expect(view.getUint32(28, true)).toBe(8000);
    expect(view.getUint16(32, true)).toBe(1);
    expect(view.getUint16(34, true)).toBe(8);
    expect(view.getUint32(40, true)).toBe(800);
    expect(bytes.slice(44).every((byte) => byte === 128)).toBe(true);
    expect(silentWavDataUrl()).toBe(silentWavDataUrl());
  });

  it('preloads, and logs an unlock the browser refuses', async () => {
    const { element } = scriptedAudio();
    element.play = () => Promise.reject(new Error('NotAllowedError'));
    const player = new AudioPlayer(element);
    expect(element.preload).toBe('auto');
    player.unlock();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(String(vi.mocked(console.error).mock.calls[0]?.[0])).toContain('audio unlock failed');
  });

  it('Skip pauses what plays and settles it at once; with nothing playing it touches nothing', async () => {
    const { element, calls } = scriptedAudio();
    const player = new AudioPlayer(element, {}, () => false);
    player.stop();
    expect(calls).toEqual([]);

    const playing = player.play(clip(1000), 1);
    await ticks();
    player.stop();
    await expect(playing).resolves.toBeUndefined();
    expect(calls).toEqual(['play', 'pause']);
  });

  it('names an element error by its media error code', async () => {
    const { element } = scriptedAudio();
    const player = new AudioPlayer(element);
    const playing = player.play(clip(1000), 1);
    await ticks();
    Object.defineProperty(element, 'error', { value: { code: 4 }, configurable: true });
    element.dispatchEvent(new Event('error'));
    await expect(playing).rejects.toThrow(/^Audio playback error 4$/);
    // An error with no playback pending changes nothing.
    element.dispatchEvent(new Event('error'));
    // An element that gives no media error says just that.
    const next = player.play(clip(1000), 1);
    await ticks();
    Object.defineProperty(element, 'error', { value: null, configurable: true });
    element.dispatchEvent(new Event('error'));
    await expect(next).rejects.toThrow(/^Audio playback error$/);
  });

  it('moves the end deadline when the speed changes: what is left to play, at the new speed', async () => {
    vi.useFakeTimers();
    const { element } = scriptedAudio();
    const player = new AudioPlayer(element, { startMs: 100, factor: 1, slackMs: 0 }, () => false);
    const playing = player.play(clip(10_000), 1);
    await ticks();
    let outcome: unknown = 'pending';
    playing.then(
      () => (outcome = 'ended'),
      (error: unknown) => (outcome = error),
    );
    Object.defineProperty(element, 'duration', { value: 10, configurable: true });
    Object.defineProperty(element, 'currentTime', { value: 2, configurable: true, writable: true });
    element.playbackRate = 2;
    element.dispatchEvent(new Event('ratechange'));
    // 8 s left at double speed: 4 s.
    await vi.advanceTimersByTimeAsync(3_999);
    expect(outcome).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome).toBeInstanceOf(DeadlineError);
  });

  it('ignores a duration it cannot use (unknown, or paused at rate 0)', async () => {
    vi.useFakeTimers();
    const { element } = scriptedAudio();
    const player = new AudioPlayer(element, { startMs: 100, factor: 1, slackMs: 0 }, () => false);
    const playing = player.play(clip(3_000), 1);
    await ticks();
    let outcome: unknown = 'pending';
    playing.catch((error: unknown) => (outcome = error));
    Object.defineProperty(element, 'duration', { value: Number.POSITIVE_INFINITY, configurable: true });
    element.dispatchEvent(new Event('durationchange'));
    Object.defineProperty(element, 'duration', { value: 60, configurable: true });
    element.playbackRate = 0;
    element.dispatchEvent(new Event('ratechange'));
    await vi.advanceTimersByTimeAsync(3_000);
    expect(outcome).toBeInstanceOf(DeadlineError);
  });

  it('no longer listens to its element once disposed', async () => {
    const { element } = scriptedAudio();
    const player = new AudioPlayer(element);
    const removed = vi.spyOn(element, 'removeEventListener');
    player.dispose();
    expect(removed.mock.calls.map(([type]) => type).sort()).toEqual([
      'durationchange',
      'ended',
      'error',
      'ratechange',
    ]);
  });

  it('takes a Mac with one touch point for a desktop', () => {
    expect(
      isIOSDevice({ userAgent: 'Mozilla/5.0 (Macintosh)', platform: 'MacIntel', maxTouchPoints: 1 }),
    ).toBe(false);
    expect(isIOSDevice({ userAgent: 'Mozilla/5.0 (iPod touch)', platform: 'iPod', maxTouchPoints: 0 })).toBe(
      true,
    );
  });
});
