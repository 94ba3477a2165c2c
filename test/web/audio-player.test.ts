// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AudioPlayer, isIOSDevice, silentWavDataUrl } from '#web/speech/audio-player';
import { DeadlineError } from '#web/lib/deadline';
import { SpeechAudio } from '#web/speech/speech-audio';

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

/** Audio that has all arrived: `bytes` bytes lasting `durationMs` at rate 1. */
function arrived(bytes = 1, durationMs = 0): SpeechAudio {
  const audio = new SpeechAudio(durationMs > 0 ? bytes / durationMs : Number.POSITIVE_INFINITY);
  audio.push(new Uint8Array(bytes));
  audio.end();
  return audio;
}

/** Lets the player's promise chain run (it waits for the audio before it touches the element). */
async function ticks(count = 10): Promise<void> {
  for (let tick = 0; tick < count; tick += 1) await Promise.resolve();
}

/** The Blob path, as on a browser without Media Source Extensions for MP3 (iPhone before iOS 17.1). */
const WHOLE = (element: HTMLAudioElement, deadlines = {}) => new AudioPlayer(element, deadlines, () => false);

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

describe('the audio player, playing each sentence once it has all arrived', () => {
  it('plays every reply through the same element at the speed and revokes the URL when it ends', async () => {
    const { element, plays } = scriptedAudio();
    const player = WHOLE(element);
    const first = player.play(arrived(), 1.5);
    await ticks();
    expect(plays).toEqual([{ src: 'blob:astro/1', rate: 1.5 }]);
    expect(revoked).toEqual([]);
    element.dispatchEvent(new Event('ended'));
    await first;
    expect(revoked).toEqual(['blob:astro/1']);

    const second = player.play(arrived(), 2);
    await ticks();
    element.dispatchEvent(new Event('ended'));
    await second;
    expect(plays.at(-1)).toEqual({ src: 'blob:astro/2', rate: 2 });
    expect(element.defaultPlaybackRate).toBe(2);
    expect(revoked).toEqual(['blob:astro/1', 'blob:astro/2']);
  });

  it('rejects on a playback error and still revokes the URL', async () => {
    const { element } = scriptedAudio();
    const player = WHOLE(element);
    const playing = player.play(arrived(), 1);
    await ticks();
    element.dispatchEvent(new Event('error'));
    await expect(playing).rejects.toThrow(/Audio playback error/);
    expect(revoked).toEqual(created);
  });

  it('rejects when the browser refuses to play, and revokes the URL', async () => {
    const { element } = scriptedAudio();
    element.play = () => Promise.reject(new DOMException('not allowed', 'NotAllowedError'));
    const player = WHOLE(element);
    await expect(player.play(arrived(), 1)).rejects.toThrow('not allowed');
    expect(revoked).toEqual(created);
  });

  it('changes the speed of what is playing', async () => {
    const { element } = scriptedAudio();
    const player = WHOLE(element);
    void player.play(arrived(), 1);
    await ticks();
    player.setRate(1.25);
    expect(element.playbackRate).toBe(1.25);
    player.stop();
  });

  it('never plays a sentence stopped (Skip) while it was still arriving', async () => {
    const { element, plays } = scriptedAudio();
    const player = WHOLE(element);
    const audio = new SpeechAudio(1);
    const playing = player.play(audio, 1);
    player.stop();
    audio.push(new Uint8Array(1));
    audio.end();
    await playing;
    await ticks();
    expect(plays).toEqual([]);
  });

  it('plays a sentence that starts after a speed change at the new speed', async () => {
    const { element, plays } = scriptedAudio();
    const player = WHOLE(element);
    const audio = new SpeechAudio(1);
    void player.play(audio, 1);
    player.setRate(2);
    audio.push(new Uint8Array(1));
    audio.end();
    await ticks();
    expect(plays).toEqual([{ src: 'blob:astro/1', rate: 2 }]);
    player.stop();
  });

  it('gives up when play() never starts, pausing the element and revoking the URL', async () => {
    vi.useFakeTimers();
    const { element } = scriptedAudio();
    element.play = () => new Promise<void>(() => undefined);
    const paused = vi.fn();
    element.pause = paused;
    const player = WHOLE(element, { startMs: 300 });
    const playing = player.play(arrived(1, 60_000), 1);
    const outcome = expect(playing).rejects.toThrow(new DeadlineError('starting audio playback', 300));
    await vi.advanceTimersByTimeAsync(300);
    await outcome;
    expect(paused).toHaveBeenCalled();
    expect(revoked).toEqual(created);
  });

  it('gives up on playback that never ends: expected duration at the speed × 1.5 + slack', async () => {
    vi.useFakeTimers();
    const { element } = scriptedAudio();
    const player = WHOLE(element, { startMs: 100, factor: 1.5, slackMs: 1000 });
    // 4 s of audio at double speed: 2 s, so 2 × 1.5 + 1 = 4 s.
    const playing = player.play(arrived(1, 4000), 2);
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
    const player = WHOLE(element, { startMs: 100, factor: 1.5, slackMs: 1000 });
    // The text said 1 s; the element says 10 s: the deadline becomes 10 × 1.5 + 1 = 16 s.
    const playing = player.play(arrived(1, 1000), 1);
    await ticks();
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

/** Media Source Extensions scripted at the browser-API level (jsdom has none): what was appended, when. */
class ScriptedSourceBuffer extends EventTarget {
  readonly appended: number[] = [];
  /** The append window's start and the timestamp offset each append was made with, in order. */
  readonly placed: { windowStart: number; offset: number }[] = [];
  appendWindowStart = 0;
  timestampOffset = 0;
  /** false: appendBuffer never finishes (a stuck media pipeline). */
  finishes = true;
  /** true: the media pipeline refuses the bytes (an `error` event, as for audio it cannot parse). */
  refuses = false;
  appendBuffer(chunk: Uint8Array): void {
    this.appended.push(chunk.byteLength);
    this.placed.push({ windowStart: this.appendWindowStart, offset: this.timestampOffset });
    // MP3 carries no timestamps: as in a browser, the next frames are placed after these (144 bytes, 36 ms).
    this.timestampOffset += (chunk.byteLength / 144) * 0.036;
    if (this.refuses) queueMicrotask(() => this.dispatchEvent(new Event('error')));
    else if (this.finishes) queueMicrotask(() => this.dispatchEvent(new Event('updateend')));
  }
}

class ScriptedMediaSource extends EventTarget {
  static latest: ScriptedMediaSource | null = null;
  static isTypeSupported(type: string): boolean {
    return type === 'audio/mpeg';
  }
  /** false: sourceopen never fires. */
  static opens = true;
  /** true: the source is open as soon as it is attached (no sourceopen event to wait for). */
  static openAtOnce = false;
  /** false: the new source's buffer never finishes an append. */
  static buffersFinish = true;
  readyState = ScriptedMediaSource.openAtOnce ? 'open' : 'closed';
  readonly buffer = Object.assign(new ScriptedSourceBuffer(), {
    finishes: ScriptedMediaSource.buffersFinish,
  });
  ended = false;
  constructor() {
    super();
    ScriptedMediaSource.latest = this;
    if (ScriptedMediaSource.opens && !ScriptedMediaSource.openAtOnce)
      queueMicrotask(() => {
        this.readyState = 'open';
        this.dispatchEvent(new Event('sourceopen'));
      });
  }
  addSourceBuffer(): ScriptedSourceBuffer {
    return this.buffer;
  }
  endOfStream(): void {
    this.ended = true;
  }
}

const STREAMING = (element: HTMLAudioElement, deadlines = {}) =>
  new AudioPlayer(element, deadlines, () => true);

describe('the audio player, playing each sentence while it arrives', () => {
  beforeEach(() => {
    ScriptedMediaSource.latest = null;
    ScriptedMediaSource.opens = true;
    ScriptedMediaSource.openAtOnce = false;
    ScriptedMediaSource.buffersFinish = true;
    vi.stubGlobal('MediaSource', ScriptedMediaSource);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('asks to play once the source is open, feeds each chunk as it arrives and ends the stream after the last', async () => {
    const { element, plays } = scriptedAudio();
    const player = STREAMING(element);
    const audio = new SpeechAudio(4);
    const playing = player.play(audio, 1.5);
    await ticks();
    // Ready before the first chunk: the element starts on it.
    expect(plays).toEqual([{ src: 'blob:astro/1', rate: 1.5 }]);
    audio.push(new Uint8Array(144));
    await ticks();
    const source = ScriptedMediaSource.latest;
    audio.push(new Uint8Array(288));
    await ticks();
    expect(source?.buffer.appended).toEqual([144, 288]);
    expect(source?.ended).toBe(false);
    audio.end();
    await ticks();
    expect(source?.ended).toBe(true);
    element.dispatchEvent(new Event('ended'));
    await playing;
    expect(revoked).toEqual(['blob:astro/1']);
  });

  it("sets the media pipeline up with the audio's primer before the first chunk, outside the append window", async () => {
    const { element, plays } = scriptedAudio();
    const player = STREAMING(element);
    const audio = new SpeechAudio(4, new Uint8Array(144));
    const playing = player.play(audio, 1);
    await ticks(20);
    const buffer = ScriptedMediaSource.latest?.buffer;
    // The primer went in far past any sentence (dropped by the browser: nothing buffered, nothing heard).
    expect(buffer?.appended).toEqual([144]);
    expect(buffer?.placed[0]?.windowStart).toBeGreaterThan(3600);
    expect(plays).toHaveLength(1);
    audio.push(new Uint8Array(288));
    audio.push(new Uint8Array(144));
    await ticks();
    // The window and the timestamps are back: the sentence plays from its start, its chunks in a row.
    expect(buffer?.appended).toEqual([144, 288, 144]);
    expect(buffer?.placed.slice(1)).toEqual([
      { windowStart: 0, offset: 0 },
      { windowStart: 0, offset: 0.072 },
    ]);
    audio.end();
    await ticks();
    element.dispatchEvent(new Event('ended'));
    await playing;
  });

  it('goes straight to the audio when some has already come (a sentence synthesized while the one before played)', async () => {
    const { element } = scriptedAudio();
    const audio = new SpeechAudio(4, new Uint8Array(144));
    audio.push(new Uint8Array(288));
    const playing = STREAMING(element).play(audio, 1);
    await ticks(20);
    expect(ScriptedMediaSource.latest?.buffer.appended).toEqual([288]);
    audio.end();
    await ticks();
    element.dispatchEvent(new Event('ended'));
    await playing;
  });

  it('leaves the element alone when Skip comes before the media source opens', async () => {
    const { element, plays } = scriptedAudio();
    const player = STREAMING(element);
    const audio = new SpeechAudio(4);
    const playing = player.play(audio, 1);
    player.stop();
    await playing;
    audio.push(new Uint8Array(144));
    await ticks(20);
    expect(plays).toEqual([]);
    expect(ScriptedMediaSource.latest?.buffer.appended).toEqual([]);
  });

  it('buffers no more of a sentence once Skip comes while one of its chunks goes in', async () => {
    ScriptedMediaSource.buffersFinish = false;
    const { element } = scriptedAudio();
    const player = STREAMING(element);
    const audio = new SpeechAudio(4);
    const playing = player.play(audio, 1);
    audio.push(new Uint8Array(144));
    audio.push(new Uint8Array(288));
    await ticks(20);
    const buffer = ScriptedMediaSource.latest?.buffer;
    expect(buffer?.appended).toEqual([144]);
    player.stop();
    await playing;
    // The chunk in flight is taken after Skip; the one that had already come is never appended.
    buffer?.dispatchEvent(new Event('updateend'));
    await ticks(20);
    expect(buffer?.appended).toEqual([144]);
    expect(ScriptedMediaSource.latest?.ended).toBe(false);
  });

  it("keeps the next sentence's start deadline when a skipped sentence's chunk finishes going in late", async () => {
    vi.useFakeTimers();
    ScriptedMediaSource.buffersFinish = false;
    const { element } = scriptedAudio();
    element.play = () => new Promise<void>(() => undefined);
    const player = STREAMING(element, { startMs: 200 });
    const skipped = new SpeechAudio(4);
    const first = player.play(skipped, 1);
    skipped.push(new Uint8Array(144));
    await vi.advanceTimersByTimeAsync(0);
    const lateBuffer = ScriptedMediaSource.latest?.buffer;
    player.stop();
    await first;

    ScriptedMediaSource.buffersFinish = true;
    const next = new SpeechAudio(4);
    const playing = player.play(next, 1);
    let failure: unknown;
    playing.catch((error: unknown) => (failure = error));
    next.push(new Uint8Array(144));
    await vi.advanceTimersByTimeAsync(0);
    // The skipped sentence's chunk is taken only now: nothing of it may touch the sentence playing.
    lateBuffer?.dispatchEvent(new Event('updateend'));
    await vi.advanceTimersByTimeAsync(200);
    expect(failure).toEqual(new DeadlineError('starting audio playback', 200));
  });

  it('buffers nothing that comes after Skip while it waited for the next chunk', async () => {
    const { element } = scriptedAudio();
    const player = STREAMING(element);
    const audio = new SpeechAudio(4);
    const playing = player.play(audio, 1);
    audio.push(new Uint8Array(144));
    await ticks(20);
    player.stop();
    await playing;
    audio.push(new Uint8Array(288));
    audio.end();
    await ticks(40);
    expect(ScriptedMediaSource.latest?.buffer.appended).toEqual([144]);
    expect(ScriptedMediaSource.latest?.ended).toBe(false);
  });

  it('leaves the element alone when Skip comes while the primer is going in', async () => {
    ScriptedMediaSource.buffersFinish = false;
    const { element, plays } = scriptedAudio();
    const player = STREAMING(element);
    const audio = new SpeechAudio(4, new Uint8Array(144));
    const playing = player.play(audio, 1);
    await ticks(20);
    const buffer = ScriptedMediaSource.latest?.buffer;
    player.stop();
    await playing;
    buffer?.dispatchEvent(new Event('updateend'));
    audio.push(new Uint8Array(288));
    await ticks(20);
    expect(plays).toEqual([]);
    expect(buffer?.appended).toEqual([144]);
  });

  it('gives up when the media pipeline never takes the primer', async () => {
    vi.useFakeTimers();
    ScriptedMediaSource.buffersFinish = false;
    const { element, plays } = scriptedAudio();
    const player = STREAMING(element, { startMs: 200 });
    const playing = player.play(new SpeechAudio(4, new Uint8Array(144)), 1);
    const outcome = expect(playing).rejects.toThrow(new DeadlineError('preparing audio playback', 200));
    await vi.advanceTimersByTimeAsync(199);
    expect(ScriptedMediaSource.latest?.buffer.appended).toEqual([144]);
    await vi.advanceTimersByTimeAsync(1);
    await outcome;
    expect(plays).toEqual([]);
    expect(revoked).toEqual(created);
  });

  it('feeds a source that is open at once without waiting for it to open', async () => {
    ScriptedMediaSource.openAtOnce = true;
    const { element, plays } = scriptedAudio();
    const playing = STREAMING(element).play(new SpeechAudio(4), 1);
    await ticks();
    expect(plays).toHaveLength(1);
    element.dispatchEvent(new Event('ended'));
    await expect(playing).resolves.toBeUndefined();
  });

  it('gives the end of a streamed sentence what is left of it to play, at the speed, × 1.5 + slack', async () => {
    vi.useFakeTimers();
    const { element } = scriptedAudio();
    const player = STREAMING(element, { slackMs: 100 });
    // 8,000 bytes at 4 bytes a millisecond: 2 s of audio, half a second of it already played, at 2×.
    const audio = new SpeechAudio(4);
    const playing = player.play(audio, 2);
    const outcome = expect(playing).rejects.toThrow(new DeadlineError('audio playback', 1225));
    await vi.advanceTimersByTimeAsync(0);
    audio.push(new Uint8Array(8000));
    await vi.advanceTimersByTimeAsync(0);
    Object.defineProperty(element, 'currentTime', { value: 0.5, configurable: true });
    audio.end();
    await vi.advanceTimersByTimeAsync(0);
    // (2,000 − 500) ms / 2 = 750 ms left: 750 × 1.5 + 100.
    await vi.advanceTimersByTimeAsync(1224);
    expect(revoked).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await outcome;
  });

  it('stops with the audio when its synthesis fails half-way, pausing the element', async () => {
    const { element } = scriptedAudio();
    const paused = vi.fn();
    element.pause = paused;
    const player = STREAMING(element);
    const audio = new SpeechAudio(4);
    const playing = player.play(audio, 1);
    audio.push(new Uint8Array(144));
    await ticks();
    audio.fail(new Error('Speech synthesis failed: 1011'));
    await expect(playing).rejects.toThrow('Speech synthesis failed: 1011');
    expect(paused).toHaveBeenCalled();
    expect(revoked).toEqual(created);
  });

  it('gives up when the media source never opens', async () => {
    vi.useFakeTimers();
    ScriptedMediaSource.opens = false;
    const { element } = scriptedAudio();
    const player = STREAMING(element, { startMs: 200 });
    const playing = player.play(new SpeechAudio(4), 1);
    const outcome = expect(playing).rejects.toThrow(new DeadlineError('opening the audio stream', 200));
    await vi.advanceTimersByTimeAsync(200);
    await outcome;
    expect(revoked).toEqual(created);
  });

  it('gives up when the media pipeline never takes a chunk', async () => {
    vi.useFakeTimers();
    const { element } = scriptedAudio();
    const player = STREAMING(element, { startMs: 200 });
    const audio = new SpeechAudio(4);
    const playing = player.play(audio, 1);
    await ticks();
    const source = ScriptedMediaSource.latest;
    if (source) source.buffer.finishes = false;
    audio.push(new Uint8Array(144));
    const outcome = expect(playing).rejects.toThrow(new DeadlineError('buffering synthesized audio', 200));
    await vi.advanceTimersByTimeAsync(200);
    await outcome;
  });

  it('stops with an error when the media pipeline refuses a chunk, pausing the element', async () => {
    const { element } = scriptedAudio();
    const paused = vi.fn();
    element.pause = paused;
    const player = STREAMING(element);
    const audio = new SpeechAudio(4);
    const playing = player.play(audio, 1);
    await ticks();
    const source = ScriptedMediaSource.latest;
    if (source) source.buffer.refuses = true;
    audio.push(new Uint8Array(144));
    await expect(playing).rejects.toThrow('the synthesized audio could not be buffered');
    expect(paused).toHaveBeenCalled();
    expect(revoked).toEqual(created);
  });

  it('gives the element the start deadline from the first chunk, not while the synthesis is still coming', async () => {
    vi.useFakeTimers();
    const { element } = scriptedAudio();
    element.play = () => new Promise<void>(() => undefined);
    const player = STREAMING(element, { startMs: 200 });
    const audio = new SpeechAudio(4);
    const playing = player.play(audio, 1);
    let settled = false;
    playing.catch(() => undefined).finally(() => (settled = true));
    await vi.advanceTimersByTimeAsync(1000);
    expect(settled).toBe(false);
    audio.push(new Uint8Array(144));
    const outcome = expect(playing).rejects.toThrow(new DeadlineError('starting audio playback', 200));
    await vi.advanceTimersByTimeAsync(200);
    await outcome;
  });

  it('lets a sentence that has started playing go on past the start deadline while its chunks keep coming', async () => {
    vi.useFakeTimers();
    const { element } = scriptedAudio();
    const player = STREAMING(element, { startMs: 200 });
    const audio = new SpeechAudio(4);
    const playing = player.play(audio, 1);
    let failure: unknown;
    playing.catch((error: unknown) => (failure = error));
    // The element plays from the first chunk; the rest comes over a second, five times the start deadline.
    for (let chunk = 0; chunk < 10; chunk += 1) {
      audio.push(new Uint8Array(400));
      await vi.advanceTimersByTimeAsync(100);
    }
    audio.end();
    await vi.advanceTimersByTimeAsync(0);
    expect(failure).toBeUndefined();

    element.dispatchEvent(new Event('ended'));
    await expect(playing).resolves.toBeUndefined();
    expect(ScriptedMediaSource.latest?.buffer.appended).toHaveLength(10);
  });

  it('resolves at once for a sentence with no audio, and on Skip without buffering what comes after', async () => {
    const { element } = scriptedAudio();
    const paused = vi.fn();
    element.pause = paused;
    const player = STREAMING(element);
    const silent = new SpeechAudio(4);
    silent.end();
    await player.play(silent, 1);
    expect(paused).toHaveBeenCalled();

    const audio = new SpeechAudio(4);
    const playing = player.play(audio, 1);
    audio.push(new Uint8Array(144));
    await ticks();
    player.stop();
    await playing;
    audio.push(new Uint8Array(144));
    audio.end();
    await ticks();
    expect(ScriptedMediaSource.latest?.buffer.appended).toEqual([144]);
    expect(ScriptedMediaSource.latest?.ended).toBe(false);
  });
});
