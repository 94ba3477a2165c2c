import { logError } from '../app/log';

/** Where synthesized speech is played. */
export interface AudioOutput {
  play(audio: Blob, rate: number): Promise<void>;
  setRate(rate: number): void;
  stop(): void;
}

/**
 * The ONE audio element every synthesized reply plays through, reused so that the silent clip played
 * inside the Start tap unlocks it for later playback on iPhone (Safari only lets an element play without a
 * gesture once it has played in one).
 */
export class AudioPlayer implements AudioOutput {
  private readonly element: HTMLAudioElement;
  private currentUrl: string | null = null;
  private settle: ((error?: Error) => void) | null = null;

  constructor(element: HTMLAudioElement = document.createElement('audio')) {
    this.element = element;
    this.element.preload = 'auto';
    this.element.addEventListener('ended', this.onEnded);
    this.element.addEventListener('error', this.onError);
  }

  /** Plays a short silent clip; must be called synchronously inside the user's tap. */
  unlock(): void {
    this.element.src = silentWavDataUrl();
    this.element.play().catch((error: unknown) => logError('audio unlock failed', error));
  }

  /** Plays MP3 bytes at the rate; resolves on end, rejects on a playback error. The Blob URL is always revoked. */
  play(audio: Blob, rate: number): Promise<void> {
    this.stop();
    const url = URL.createObjectURL(audio);
    this.currentUrl = url;
    return new Promise<void>((resolve, reject) => {
      this.settle = (error) => {
        this.settle = null;
        this.release();
        if (error) reject(error);
        else resolve();
      };
      this.element.src = url;
      // Loading a new source resets playbackRate to defaultPlaybackRate, so set both.
      this.element.defaultPlaybackRate = rate;
      this.element.playbackRate = rate;
      this.element.play().catch((error: unknown) => this.settle?.(asError(error)));
    });
  }

  setRate(rate: number): void {
    this.element.defaultPlaybackRate = rate;
    this.element.playbackRate = rate;
  }

  /** Stops what is playing; a pending play() resolves. */
  stop(): void {
    if (this.settle) {
      this.element.pause();
      this.settle();
    }
  }

  dispose(): void {
    this.stop();
    this.element.removeEventListener('ended', this.onEnded);
    this.element.removeEventListener('error', this.onError);
  }

  private readonly onEnded = (): void => this.settle?.();

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
