import { logError } from '../lib/log';
import { DeadlineError, withDeadline } from '../lib/deadline';
import { appended, opened, primed, streamSourceFor, type StreamSource } from './media-source';
import type { SpeechAudio } from './speech-audio';

/** Where synthesized speech is played. */
export interface AudioOutput {
  /**
   * Plays a sentence's audio at the rate, starting while it still arrives where the browser can.
   * Resolves on end or stop, rejects on an error (the audio's own failure included) or past a deadline.
   */
  play(audio: SpeechAudio, rate: number): Promise<void>;
  setRate(rate: number): void;
  stop(): void;
}

/** How long playback may take (nothing may hang: an element that never ends must not hold the turn). */
export interface PlaybackDeadlines {
  /** For play() to start playing once there is audio; also for the stream to open and take a chunk. */
  readonly startMs: number;
  /** Playback may last its expected duration × factor + slackMs. */
  readonly factor: number;
  readonly slackMs: number;
}

export const PLAYBACK_DEADLINES: PlaybackDeadlines = { startMs: 5000, factor: 1.5, slackMs: 5000 };

/**
 * The ONE audio element every synthesized reply plays through, reused so that the silent clip played
 * inside the Start tap unlocks it for later playback on iPhone (Safari only lets an element play without a
 * gesture once it has played in one). Where the browser can play MP3 through a media source
 * (`MediaSource`, or `ManagedMediaSource` on iPhone from iOS 17.1), a sentence plays as its chunks arrive,
 * from a media source opened before the first chunk (a new Blob source costs the media pipeline ~15 ms
 * more to start, measured in Chromium) and, when the audio comes with a primer, already set up for its
 * format; elsewhere (iPhone before iOS 17.1) it plays from a Blob once it has all arrived.
 */
export class AudioPlayer implements AudioOutput {
  private readonly element: HTMLAudioElement;
  private currentUrl: string | null = null;
  private settle: ((error?: Error) => void) | null = null;
  private startTimer: ReturnType<typeof setTimeout> | undefined;
  private endTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly deadlines: PlaybackDeadlines;
  /** The speed asked for last: a sentence that starts later plays at it too. */
  private rate = 1;
  /** Whether the element has started playing what it plays now. */
  private started = false;
  /** How many times stop() was called: a sentence still arriving when it is called never plays. */
  private stops = 0;

  constructor(
    element: HTMLAudioElement = document.createElement('audio'),
    deadlines: Partial<PlaybackDeadlines> = {},
    private readonly canStream: (type: string) => boolean = (type) => streamSourceFor(type) !== undefined,
  ) {
    this.element = element;
    this.deadlines = { ...PLAYBACK_DEADLINES, ...deadlines };
    this.element.preload = 'auto';
    // Speech plays here, never on a remote screen (AirPlay); and a ManagedMediaSource opens only on an
    // element whose remote playback is off.
    this.element.disableRemotePlayback = true;
    this.element.addEventListener('ended', this.onEnded);
    this.element.addEventListener('error', this.onError);
    // Once the element knows the real duration (or the speed changes), the deadline follows it.
    this.element.addEventListener('durationchange', this.onTimingChange);
    this.element.addEventListener('ratechange', this.onTimingChange);
  }

  /** Plays a short silent clip; must be called synchronously inside the user's tap. */
  unlock(): void {
    this.element.src = silentWavDataUrl();
    this.element.play().catch((error: unknown) => logError('audio unlock failed', error));
  }

  /**
   * Plays the audio at the rate; resolves on end, rejects on a playback error, the audio's failure or past a
   * deadline (then the element is paused). Its object URL is always revoked.
   */
  play(audio: SpeechAudio, rate: number): Promise<void> {
    this.rate = rate;
    const Source = this.canStream(audio.type) ? streamSourceFor(audio.type) : undefined;
    if (!Source) {
      // Stop (Skip) while the rest of the sentence arrives means it is never played.
      const stops = this.stops;
      return audio
        .whole()
        .then((bytes) =>
          stops === this.stops ? this.playWhole(new Blob([bytes], { type: audio.type }), audio) : undefined,
        );
    }
    const source = new Source();
    return this.begin(URL.createObjectURL(source), (settle) =>
      this.feed(source, audio, settle).catch((error: unknown) => settle(asError(error))),
    );
  }

  private playWhole(blob: Blob, audio: SpeechAudio): Promise<void> {
    return this.begin(URL.createObjectURL(blob), (settle) => {
      this.armEndDeadline(audio.durationMs / this.rate);
      this.startPlaying(settle);
    });
  }

  /**
   * Points the element at `url` and settles when it has played: `run` starts the playback. Whatever was
   * playing before is stopped first.
   */
  private begin(url: string, run: (settle: (error?: Error) => void) => void): Promise<void> {
    this.stop();
    this.currentUrl = url;
    return new Promise<void>((resolve, reject) => {
      const settle = (error?: Error) => {
        if (this.settle !== settle) return;
        this.settle = null;
        clearTimeout(this.startTimer);
        clearTimeout(this.endTimer);
        if (error) this.element.pause();
        this.release();
        if (error) reject(error);
        else resolve();
      };
      this.settle = settle;
      this.started = false;
      this.element.src = url;
      // Loading a new source resets playbackRate to defaultPlaybackRate, so set both.
      this.element.defaultPlaybackRate = this.rate;
      this.element.playbackRate = this.rate;
      run(settle);
    });
  }

  /** play(), which must start within the start deadline. */
  private startPlaying(settle: (error?: Error) => void): void {
    this.armStartDeadline(settle);
    this.requestPlay(settle);
  }

  /** Asks the element to play; once it does, the start deadline is over. */
  private requestPlay(settle: (error?: Error) => void): void {
    Promise.resolve(this.element.play()).then(
      () => {
        if (this.settle !== settle) return;
        this.started = true;
        clearTimeout(this.startTimer);
      },
      (error: unknown) => settle(asError(error)),
    );
  }

  private armStartDeadline(settle: (error?: Error) => void): void {
    const { startMs } = this.deadlines;
    clearTimeout(this.startTimer);
    if (this.started) return;
    this.startTimer = setTimeout(
      () => settle(new DeadlineError('starting audio playback', startMs)),
      startMs,
    );
  }

  /**
   * Feeds the chunks to the media source as they arrive. Once the source is open, the pipeline is set up
   * with the audio's primer while none of the audio has come (see `primed`) and the element is asked to
   * play, so it is ready when the first chunk comes (it starts on that chunk); the start deadline runs from
   * the first chunk, since the synthesis has its own deadline for the first byte. A ManagedMediaSource is
   * given the sentence's audio only while it wants it (see `whenWanted`); the primer, which only sets the
   * pipeline up, goes in as it opens.
   */
  private async feed(
    source: StreamSource,
    audio: SpeechAudio,
    settle: (error?: Error) => void,
  ): Promise<void> {
    const { startMs } = this.deadlines;
    const current = () => this.settle === settle;
    await withDeadline(opened(source), startMs, 'opening the audio stream');
    if (!current()) return;
    const buffer = source.addSourceBuffer(audio.type);
    // Audio already here (synthesized while the sentence before played) sets the pipeline up as well.
    if (audio.primer && audio.byteLength === 0) {
      await withDeadline(primed(buffer, audio.primer), startMs, 'preparing audio playback');
      if (!current()) return;
    }
    this.requestPlay(settle);
    let fed = false;
    for await (const chunk of audio) {
      if (!current()) return;
      // A ManagedMediaSource that wants no audio now (see whenWanted); a MediaSource always takes it.
      if (source.streaming === false) {
        await this.whenWanted(source, audio);
        if (!current()) return;
      }
      await withDeadline(appended(buffer, chunk), startMs, 'buffering synthesized audio');
      if (!current()) return;
      if (!fed) {
        fed = true;
        this.armStartDeadline(settle);
      }
    }
    if (!current()) return;
    // No audio at all: nothing to hear, nothing to wait for.
    if (!fed) {
      this.element.pause();
      return settle();
    }
    source.endOfStream();
    this.armEndDeadline((audio.durationMs - this.element.currentTime * 1000) / this.element.playbackRate);
  }

  /**
   * A ManagedMediaSource says when it wants data (`streaming`: `startstreaming` sets it, `endstreaming`
   * clears it, e.g. when it holds enough or to save power); audio that arrives meanwhile waits here, in
   * memory, until it asks again. It must ask before what it holds has played out (the end deadline's
   * bound on the audio that has come), or at least within the start deadline.
   */
  private whenWanted(source: StreamSource, audio: SpeechAudio): Promise<void> {
    const { startMs, factor, slackMs } = this.deadlines;
    const heldMs =
      Math.max(0, audio.durationMs - this.element.currentTime * 1000) / this.element.playbackRate;
    const ms = Math.max(startMs, Math.round(heldMs * factor + slackMs));
    return withDeadline(
      new Promise<void>((resolve) =>
        source.addEventListener('startstreaming', () => resolve(), { once: true }),
      ),
      ms,
      'waiting for the browser to want more audio',
    );
  }

  setRate(rate: number): void {
    this.rate = rate;
    this.element.defaultPlaybackRate = rate;
    this.element.playbackRate = rate;
  }

  /** Stops what is playing (Skip): paused, its URL released; a pending play() resolves. */
  stop(): void {
    this.stops += 1;
    if (this.settle) {
      this.element.pause();
      this.settle();
    }
  }

  dispose(): void {
    this.stop();
    this.element.removeEventListener('ended', this.onEnded);
    this.element.removeEventListener('error', this.onError);
    this.element.removeEventListener('durationchange', this.onTimingChange);
    this.element.removeEventListener('ratechange', this.onTimingChange);
  }

  private readonly onEnded = (): void => this.settle?.();

  private readonly onTimingChange = (): void => {
    const { duration, currentTime, playbackRate } = this.element;
    if (this.settle && Number.isFinite(duration) && playbackRate > 0) {
      this.armEndDeadline(((duration - currentTime) * 1000) / playbackRate);
    }
  };

  /** Playback ends within what is left to play × factor + slack, or is abandoned. */
  private armEndDeadline(remainingMs: number): void {
    clearTimeout(this.endTimer);
    const settle = this.settle;
    const ms = Math.max(0, remainingMs) * this.deadlines.factor + this.deadlines.slackMs;
    this.endTimer = setTimeout(() => settle?.(new DeadlineError('audio playback', Math.round(ms))), ms);
  }

  private readonly onError = (): void => {
    // The unlock clip has no pending play(); only a reply's playback error matters here.
    this.settle?.(new Error(`Audio playback error ${this.element.error?.code ?? ''}`.trim()));
  };

  private release(): void {
    if (this.currentUrl) {
      URL.revokeObjectURL(this.currentUrl);
      this.currentUrl = null;
    }
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

let silentClip: string | null = null;

/** A 0.1 s silent 8 kHz 8-bit mono WAV, built once (no asset to fetch inside the tap). */
export function silentWavDataUrl(): string {
  if (silentClip) return silentClip;
  const samples = 800;
  const bytes = new Uint8Array(44 + samples);
  const view = new DataView(bytes.buffer);
  const ascii = (offset: number, text: string) =>
    [...text].forEach((char, index) => view.setUint8(offset + index, char.charCodeAt(0)));
  ascii(0, 'RIFF');
  view.setUint32(4, 36 + samples, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, 8000, true);
  view.setUint32(28, 8000, true);
  view.setUint16(32, 1, true);
  view.setUint16(34, 8, true);
  ascii(36, 'data');
  view.setUint32(40, samples, true);
  bytes.fill(128, 44); // 8-bit PCM silence is the midpoint
  silentClip = `data:audio/wav;base64,${btoa(String.fromCharCode(...bytes))}`;
  return silentClip;
}

/** iPhone (and iPad, which reports itself as a Mac with touch) needs the unlock. */
export function isIOSDevice(
  nav: Pick<Navigator, 'userAgent' | 'platform' | 'maxTouchPoints'> = navigator,
): boolean {
  return /iPhone|iPad|iPod/.test(nav.userAgent) || (nav.platform === 'MacIntel' && nav.maxTouchPoints > 1);
}
