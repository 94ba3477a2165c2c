// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DeadlineError } from '#web/lib/deadline';
import { AudioPlayer } from '#web/speech/audio-player';
import { streamSourceFor, type StreamSourceConstructor } from '#web/speech/media-source';
import { SpeechAudio } from '#web/speech/speech-audio';

// iPhone's Safari (iOS 17.1 on) has no MediaSource, only WebKit's ManagedMediaSource, which opens only on
// an element whose remote playback is off and says when it wants data (`streaming`, `startstreaming`,
// `endstreaming`). Scripted here at the browser-API level: jsdom has neither.

/** A ManagedSourceBuffer: records each append's size; every append finishes in a microtask. */
class ScriptedManagedBuffer extends EventTarget {
  readonly appended: number[] = [];
  appendWindowStart = 0;
  timestampOffset = 0;
  appendBuffer(chunk: Uint8Array): void {
    this.appended.push(chunk.byteLength);
    queueMicrotask(() => this.dispatchEvent(new Event('updateend')));
  }
}

/** A ManagedMediaSource that opens only on an element with remote playback off, as Safari's does. */
class ScriptedManagedMediaSource extends EventTarget {
  static latest: ScriptedManagedMediaSource | null = null;
  /** The element the next source is attached to (the tests' only one). */
  static element: HTMLAudioElement | null = null;
  static isTypeSupported(type: string): boolean {
    return type === 'audio/mpeg';
  }
  readyState = 'closed';
  streaming = false;
  ended = false;
  readonly buffer = new ScriptedManagedBuffer();
  constructor() {
    super();
    ScriptedManagedMediaSource.latest = this;
    // Attached as the player sets the element's src (the next microtask); it opens and asks for data.
    queueMicrotask(() => {
      if (!ScriptedManagedMediaSource.element?.disableRemotePlayback) return;
      this.readyState = 'open';
      this.dispatchEvent(new Event('sourceopen'));
      this.want(true);
    });
  }
  /** The browser starts (startstreaming) or stops (endstreaming) wanting data. */
  want(streaming: boolean): void {
    this.streaming = streaming;
    this.dispatchEvent(new Event(streaming ? 'startstreaming' : 'endstreaming'));
  }
  addSourceBuffer(): ScriptedManagedBuffer {
    return this.buffer;
  }
  endOfStream(): void {
    this.ended = true;
  }
}

function scriptedAudio() {
  const element = document.createElement('audio');
  const plays: string[] = [];
  element.play = async () => void plays.push(element.src);
  element.pause = () => undefined;
  ScriptedManagedMediaSource.element = element;
  return { element, plays };
}

/** Lets the player's promise chain run. */
async function ticks(count = 20): Promise<void> {
  for (let tick = 0; tick < count; tick += 1) await Promise.resolve();
}

/** 4 bytes a millisecond: 144 bytes are 36 ms of audio. */
const BYTES_PER_MS = 4;

beforeEach(() => {
  ScriptedManagedMediaSource.latest = null;
  vi.stubGlobal('MediaSource', undefined);
  vi.stubGlobal('ManagedMediaSource', ScriptedManagedMediaSource);
  vi.spyOn(URL, 'createObjectURL').mockImplementation(() => 'blob:astro/managed');
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('which media source a sentence streams through', () => {
  const supporting = (supported: boolean) =>
    Object.assign(function Source() {}, {
      isTypeSupported: (type: string) => supported && type === 'audio/mpeg',
    }) as unknown as StreamSourceConstructor;

  it('takes MediaSource where the browser has it for MP3, else ManagedMediaSource, else none', () => {
    const media = supporting(true);
    const managed = supporting(true);
    expect(streamSourceFor('audio/mpeg', { MediaSource: media, ManagedMediaSource: managed })).toBe(media);
    // iPhone from iOS 17.1: no MediaSource at all.
    expect(streamSourceFor('audio/mpeg', { ManagedMediaSource: managed })).toBe(managed);
    expect(
      streamSourceFor('audio/mpeg', { MediaSource: supporting(false), ManagedMediaSource: managed }),
    ).toBe(managed);
    // iPhone before iOS 17.1, or a type neither plays: the sentence plays once it has all arrived.
    expect(streamSourceFor('audio/mpeg', {})).toBeUndefined();
    expect(streamSourceFor('audio/ogg', { MediaSource: media, ManagedMediaSource: managed })).toBeUndefined();
  });

  it("reads the page's own window by default", () => {
    expect(streamSourceFor('audio/mpeg')).toBe(ScriptedManagedMediaSource);
  });
});

describe('the audio player on a browser with only ManagedMediaSource (iPhone)', () => {
  it('turns remote playback off and plays each sentence while it arrives', async () => {
    const { element, plays } = scriptedAudio();
    const player = new AudioPlayer(element);
    expect(element.disableRemotePlayback).toBe(true);
    const audio = new SpeechAudio(BYTES_PER_MS);
    const playing = player.play(audio, 1);
    await ticks();
    // The source opened (it would not with remote playback on) and the element waits for the first chunk.
    expect(plays).toEqual(['blob:astro/managed']);
    const source = ScriptedManagedMediaSource.latest;
    audio.push(new Uint8Array(144));
    await ticks();
    audio.push(new Uint8Array(288));
    await ticks();
    expect(source?.buffer.appended).toEqual([144, 288]);
    audio.end();
    await ticks();
    expect(source?.ended).toBe(true);
    element.dispatchEvent(new Event('ended'));
    await expect(playing).resolves.toBeUndefined();
  });

  it('holds the audio after endstreaming and appends it, in order, at startstreaming', async () => {
    const { element } = scriptedAudio();
    const audio = new SpeechAudio(BYTES_PER_MS);
    const playing = new AudioPlayer(element).play(audio, 1);
    await ticks();
    const source = ScriptedManagedMediaSource.latest;
    audio.push(new Uint8Array(144));
    await ticks();
    // The browser has enough for now.
    source?.want(false);
    audio.push(new Uint8Array(288));
    audio.push(new Uint8Array(432));
    audio.end();
    await ticks();
    expect(source?.buffer.appended).toEqual([144]);
    expect(source?.ended).toBe(false);
    source?.want(true);
    await ticks();
    expect(source?.buffer.appended).toEqual([144, 288, 432]);
    expect(source?.ended).toBe(true);
    element.dispatchEvent(new Event('ended'));
    await expect(playing).resolves.toBeUndefined();
  });

  it('gives up when the browser does not ask for more before the audio it holds has played out', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { element } = scriptedAudio();
    // Distinct values: 2 s of audio come, at speed 2, × 1.5 + 700 ms = 2.2 s, past the 400 ms start deadline.
    const player = new AudioPlayer(element, { startMs: 400, factor: 1.5, slackMs: 700 });
    const audio = new SpeechAudio(BYTES_PER_MS);
    let outcome: unknown = 'pending';
    player.play(audio, 2).then(
      () => (outcome = 'resolved'),
      (error: unknown) => (outcome = error),
    );
    await vi.advanceTimersByTimeAsync(0);
    const source = ScriptedManagedMediaSource.latest;
    audio.push(new Uint8Array(1_964 * BYTES_PER_MS));
    await vi.advanceTimersByTimeAsync(0);
    source?.want(false);
    // 36 ms more: 2 s of audio have come.
    audio.push(new Uint8Array(144));
    await vi.advanceTimersByTimeAsync(2_199);
    expect(outcome).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome).toBeInstanceOf(DeadlineError);
    expect((outcome as DeadlineError).message).toBe(
      'waiting for the browser to want more audio did not finish within 2200 ms',
    );
    expect(source?.buffer.appended).toEqual([1_964 * BYTES_PER_MS]);
  });

  it('waits at least the start deadline when it holds almost nothing', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { element } = scriptedAudio();
    const player = new AudioPlayer(element, { startMs: 3_000, factor: 1.5, slackMs: 700 });
    const audio = new SpeechAudio(BYTES_PER_MS);
    let outcome: unknown = 'pending';
    player.play(audio, 1).then(
      () => (outcome = 'resolved'),
      (error: unknown) => (outcome = error),
    );
    await vi.advanceTimersByTimeAsync(0);
    ScriptedManagedMediaSource.latest?.want(false);
    audio.push(new Uint8Array(144));
    await vi.advanceTimersByTimeAsync(2_999);
    expect(outcome).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome).toBeInstanceOf(DeadlineError);
  });

  it('Skip while the browser wants no more: the held audio never goes in', async () => {
    const { element } = scriptedAudio();
    const player = new AudioPlayer(element);
    const audio = new SpeechAudio(BYTES_PER_MS);
    const playing = player.play(audio, 1);
    await ticks();
    const source = ScriptedManagedMediaSource.latest;
    source?.want(false);
    audio.push(new Uint8Array(144));
    await ticks();
    player.stop();
    await expect(playing).resolves.toBeUndefined();
    source?.want(true);
    audio.end();
    await ticks();
    expect(source?.buffer.appended).toEqual([]);
    expect(source?.ended).toBe(false);
  });
});
