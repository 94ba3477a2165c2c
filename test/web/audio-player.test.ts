// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AudioPlayer, isIOSDevice, silentWavDataUrl } from '../../web/src/speech/audio-player';
import { DeadlineError } from '../../web/src/app/deadline';

/** jsdom has no media playback: the element's play() is scripted here, at the browser-API level. */
function scriptedAudio() {
  const element = document.createElement('audio');
  const plays: { src: string; rate: number }[] = [];
  element.play = async () => {
    plays.push({ src: element.src, rate: element.playbackRate });
  };
  element.pause = () => undefined;
  return { element, plays };
}

let created: string[];
let revoked: string[];

beforeEach(() => {
  created = [];
  revoked = [];
  let next = 0;
  vi.spyOn(URL, 'createObjectURL').mockImplementation(() => {
    const url = `blob:astro/${(next += 1)}`;
    created.push(url);
    return url;
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation((url) => void revoked.push(url));
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('the audio player', () => {
  it('plays every reply through the same element at the speed and revokes the URL when it ends', async () => {
    const { element, plays } = scriptedAudio();
    const player = new AudioPlayer(element);
    const first = player.play(new Blob([new Uint8Array([1])], { type: 'audio/mpeg' }), 1.5);
    await Promise.resolve();
    expect(plays).toEqual([{ src: 'blob:astro/1', rate: 1.5 }]);
    expect(revoked).toEqual([]);
    element.dispatchEvent(new Event('ended'));
    await first;
    expect(revoked).toEqual(['blob:astro/1']);

    const second = player.play(new Blob([new Uint8Array([2])]), 2);
    await Promise.resolve();
    element.dispatchEvent(new Event('ended'));
    await second;
    expect(plays.at(-1)).toEqual({ src: 'blob:astro/2', rate: 2 });
    expect(element.defaultPlaybackRate).toBe(2);
    expect(revoked).toEqual(['blob:astro/1', 'blob:astro/2']);
  });

  it('rejects on a playback error and still revokes the URL', async () => {
    const { element } = scriptedAudio();
    const player = new AudioPlayer(element);
    const playing = player.play(new Blob([new Uint8Array([1])]), 1);
    await Promise.resolve();
    element.dispatchEvent(new Event('error'));
    await expect(playing).rejects.toThrow(/Audio playback error/);
    expect(revoked).toEqual(created);
  });

  it('rejects when the browser refuses to play, and revokes the URL', async () => {
    const { element } = scriptedAudio();
    element.play = () => Promise.reject(new DOMException('not allowed', 'NotAllowedError'));
    const player = new AudioPlayer(element);
    await expect(player.play(new Blob([new Uint8Array([1])]), 1)).rejects.toThrow('not allowed');
    expect(revoked).toEqual(created);
  });

  it('changes the speed of what is playing', async () => {
    const { element } = scriptedAudio();
    const player = new AudioPlayer(element);
    void player.play(new Blob([new Uint8Array([1])]), 1);
    player.setRate(1.25);
    expect(element.playbackRate).toBe(1.25);
    player.stop();
  });

  it('gives up when play() never starts, pausing the element and revoking the URL', async () => {
    vi.useFakeTimers();
    const { element } = scriptedAudio();
    element.play = () => new Promise<void>(() => undefined);
    const paused = vi.fn();
    element.pause = paused;
    const player = new AudioPlayer(element, { startMs: 300 });
    const playing = player.play(new Blob([new Uint8Array([1])]), 1, 60_000);
    const outcome = expect(playing).rejects.toThrow(new DeadlineError('starting audio playback', 300));
    await vi.advanceTimersByTimeAsync(300);
    await outcome;
    expect(paused).toHaveBeenCalled();
    expect(revoked).toEqual(created);
  });

  it('gives up on playback that never ends: expected duration at the speed × 1.5 + slack', async () => {
    vi.useFakeTimers();
    const { element } = scriptedAudio();
    const player = new AudioPlayer(element, { startMs: 100, factor: 1.5, slackMs: 1000 });
    // 4 s of audio at double speed: 2 s, so 2 × 1.5 + 1 = 4 s.
    const playing = player.play(new Blob([new Uint8Array([1])]), 2, 4000);
    let settled = false;
    playing.catch(() => undefined).finally(() => (settled = true));
    await vi.advanceTimersByTimeAsync(3999);
    expect(settled).toBe(false);
    const outcome = expect(playing).rejects.toBeInstanceOf(DeadlineError);
    await vi.advanceTimersByTimeAsync(1);
    await outcome;
    expect(revoked).toEqual(created);
  });

  it("follows the element's real duration once it is known", async () => {
    vi.useFakeTimers();
    const { element } = scriptedAudio();
    const player = new AudioPlayer(element, { startMs: 100, factor: 1.5, slackMs: 1000 });
    // The text said 1 s; the element says 10 s: the deadline becomes 10 × 1.5 + 1 = 16 s.
    const playing = player.play(new Blob([new Uint8Array([1])]), 1, 1000);
    Object.defineProperty(element, 'duration', { value: 10, configurable: true });
    element.dispatchEvent(new Event('durationchange'));
    await vi.advanceTimersByTimeAsync(15_000);
    element.dispatchEvent(new Event('ended'));
    await expect(playing).resolves.toBeUndefined();
  });

  it('unlocks with a silent WAV clip played on the same element', () => {
    const { element, plays } = scriptedAudio();
    new AudioPlayer(element).unlock();
    expect(plays).toHaveLength(1);
    expect(plays[0]?.src).toBe(silentWavDataUrl());
    const bytes = atob(silentWavDataUrl().split(',')[1] ?? '');
    expect(bytes.slice(0, 4)).toBe('RIFF');
    expect(bytes.slice(8, 12)).toBe('WAVE');
    expect(bytes.length).toBe(44 + 800);
  });

  it('recognises iPhone and iPad (which reports itself as a Mac with touch), not desktops', () => {
    const iPhone =
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148';
    expect(isIOSDevice({ userAgent: iPhone, platform: 'iPhone', maxTouchPoints: 5 })).toBe(true);
    expect(
      isIOSDevice({ userAgent: 'Mozilla/5.0 (Macintosh)', platform: 'MacIntel', maxTouchPoints: 5 }),
    ).toBe(true);
    expect(
      isIOSDevice({ userAgent: 'Mozilla/5.0 (Macintosh)', platform: 'MacIntel', maxTouchPoints: 0 }),
    ).toBe(false);
    expect(
      isIOSDevice({ userAgent: 'Mozilla/5.0 (X11; Linux x86_64)', platform: 'Linux', maxTouchPoints: 0 }),
    ).toBe(false);
  });
});
