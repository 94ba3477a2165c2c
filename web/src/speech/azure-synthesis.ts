import type * as SpeechSdkModule from 'microsoft-cognitiveservices-speech-sdk';
import type { Locale } from '#contract/languages';
import { logError } from '../lib/log';
import { DeadlineError } from '../lib/deadline';
import type { AudioOutput } from './audio-player';
import { closeQuietly, withoutToken, type SpeechDeadlines, type SpeechSdk } from './azure-service';
import { pronounced } from './pronunciation';
import { SpeechAudio } from './speech-audio';
import { ssmlFor } from './ssml';

/** audio-16khz-32kbitrate-mono-mp3: 32 kbit/s is 4 bytes a millisecond, so the bytes say how long it lasts. */
const MP3_BYTES_PER_MS = 4;
/**
 * One silent frame of that format, for the player to set up its media pipeline with before the audio
 * comes: MPEG-2 Layer III, 32 kbit/s, 16 kHz, mono (header FF F3 48 C0), 144 bytes, the rest zeros
 * (no coded samples: 36 ms of silence).
 */
const MP3_SILENT_FRAME = new Uint8Array(144);
MP3_SILENT_FRAME.set([0xff, 0xf3, 0x48, 0xc0]);

export interface AzureSynthesisOptions {
  readonly sdk: SpeechSdk;
  readonly player: AudioOutput;
  readonly deadlines: SpeechDeadlines;
  /** A new SpeechConfig carrying the current token. */
  readonly speechConfig: () => SpeechSdkModule.SpeechConfig;
}

/** The conversation's one synthesizer and the synthesis it is doing now, if any. */
interface SynthesisLine {
  readonly synthesizer: SpeechSdkModule.SpeechSynthesizer;
  onAudio: ((chunk: ArrayBuffer) => void) | null;
  /** Ends the synthesis in flight with this error (the synthesizer is being replaced). */
  abandon: ((error: Error) => void) | null;
}

/**
 * Azure speaking (docs/behaviour.md §10.9, §10.14, §10.15, §10.17): ONE synthesizer per conversation whose
 * connection is opened at Start and reused for every sentence (replaced after any failure, deadline or
 * Skip during a synthesis); SSML naming the language's voice → 16 kHz 32 kbps mono MP3 → the one reused
 * audio element. The next sentence is synthesized while the one before it plays; they play in order.
 */
export class AzureSynthesis {
  private line: SynthesisLine | null = null;
  /** Each reply waits for the one before it: synthesis in order, playback in order. */
  private synthesisQueue: Promise<unknown> = Promise.resolve();
  private playbackQueue: Promise<unknown> = Promise.resolve();
  /** Sentences whose synthesis has not finished yet (queued or in flight). */
  private synthesesAhead = 0;
  /** Bumped by Skip: everything queued under an older value is dropped. */
  private speechGeneration = 0;
  private speed = 1;
  private disposed = false;

  constructor(private readonly options: AzureSynthesisOptions) {
    // Opened now, at Start, so the greeting does not wait for a connection (docs/behaviour.md §10.14).
    this.synthesisLine();
  }

  speak(text: string, locale: Locale, speed: number): Promise<void> {
    this.speed = speed;
    const generation = this.speechGeneration;
    const skipped = () => generation !== this.speechGeneration || this.disposed;
    // Synthesis of this reply starts as soon as the one before it is synthesized, while that one plays;
    // its playback starts when the one before has played, while its audio may still be arriving.
    // With nothing ahead of it, the sentence goes to the service in this very task.
    const start = () => (skipped() ? null : this.synthesize(text, locale));
    const audio =
      this.synthesesAhead === 0
        ? new Promise<SpeechAudio | null>((resolve) => resolve(start()))
        : this.synthesisQueue.then(start);
    this.synthesesAhead += 1;
    this.synthesisQueue = audio
      .then((speech) => speech?.finished)
      .catch(() => undefined)
      .finally(() => (this.synthesesAhead -= 1));
    const played = this.playbackQueue.then(async () => {
      try {
        const speech = await audio;
        if (speech === null || skipped()) return;
        await this.options.player.play(speech, this.speed);
      } catch (error) {
        // Skipped replies resolve, whatever their synthesis or playback was doing when Skip came.
        if (!skipped()) throw error;
      }
    });
    this.playbackQueue = played.catch(() => undefined);
    return played;
  }

  stopSpeaking(): void {
    this.speechGeneration += 1;
    this.options.player.stop();
    // A synthesis in flight cannot be cancelled in the SDK: its synthesizer is replaced instead.
    if (this.line?.abandon) this.replaceSynthesizer(new Error('speech synthesis skipped'));
  }

  setSpeed(speed: number): void {
    this.speed = speed;
    this.options.player.setRate(speed);
  }

  /** While sentences are queued or being synthesized: settles once the last of them has been; else null. */
  pending(): Promise<unknown> | null {
    return this.synthesesAhead > 0 ? this.synthesisQueue : null;
  }

  /** A renewed token, set in place on the live synthesizer. */
  setToken(token: string): void {
    if (this.line) this.line.synthesizer.authorizationToken = token;
  }

  dispose(): void {
    this.disposed = true;
    this.speechGeneration += 1;
    this.options.player.stop();
    const line = this.line;
    this.line = null;
    if (line) {
      line.abandon?.(new Error('the conversation ended'));
      closeQuietly('speech synthesizer', line.synthesizer);
    }
  }

  private synthesisLine(): SynthesisLine {
    if (this.line) return this.line;
    const { sdk } = this.options;
    const config = this.options.speechConfig();
    config.speechSynthesisOutputFormat = sdk.SpeechSynthesisOutputFormat.Audio16Khz32KBitRateMonoMp3;
    // No audio config: the SDK must not play by itself; we play the bytes on our own element.
    const synthesizer = new sdk.SpeechSynthesizer(config, null);
    const line: SynthesisLine = { synthesizer, onAudio: null, abandon: null };
    synthesizer.synthesizing = (_synthesizer, event) => line.onAudio?.(event.result.audioData);
    // Not awaited: a reply waits on it through its own synthesis deadline, and the SDK reconnects a line
    // that failed to open when the next reply needs it.
    sdk.Connection.fromSynthesizer(synthesizer).openConnection(undefined, (error) => {
      if (this.line === line)
        logError(`opening the speech synthesis connection failed: ${withoutToken(error)}`);
    });
    this.line = line;
    return line;
  }

  /** Closes the synthesizer (its synthesis in flight fails with `reason`); the next reply opens a new one. */
  private replaceSynthesizer(reason: Error): void {
    const line = this.line;
    if (!line) return;
    this.line = null;
    line.abandon?.(reason);
    closeQuietly('speech synthesizer', line.synthesizer);
  }

  /** Starts synthesizing; the audio arrives in chunks, and ends or fails within the deadlines. */
  private synthesize(text: string, locale: Locale): SpeechAudio {
    const { sdk, deadlines } = this.options;
    const line = this.synthesisLine();
    const audio = new SpeechAudio(MP3_BYTES_PER_MS, MP3_SILENT_FRAME);
    const timers: ReturnType<typeof setTimeout>[] = [];
    const settle = (failure?: Error) => {
      if (line.abandon !== fail) return;
      timers.forEach(clearTimeout);
      line.onAudio = null;
      line.abandon = null;
      if (failure) audio.fail(failure);
      else audio.end();
    };
    const fail = (error: Error) => settle(error);
    // A failed or late synthesis leaves the synthesizer in an unknown state: never reuse it.
    const failAndReplace = (error: Error) => {
      settle(error);
      if (this.line === line) this.replaceSynthesizer(error);
    };
    line.abandon = fail;
    const firstByteMs = deadlines.synthesisFirstByteMs;
    const wholeMs = deadlines.synthesisMs + deadlines.synthesisPerCharMs * text.length;
    timers.push(
      setTimeout(
        () => failAndReplace(new DeadlineError('the first synthesized audio', firstByteMs)),
        firstByteMs,
      ),
      setTimeout(() => failAndReplace(new DeadlineError('speech synthesis', wholeMs)), wholeMs),
    );
    line.onAudio = (chunk) => {
      clearTimeout(timers[0]);
      audio.push(chunk);
    };
    line.synthesizer.speakSsmlAsync(
      ssmlFor(pronounced(text, locale), locale),
      (result) => {
        if (result.reason === sdk.ResultReason.SynthesizingAudioCompleted) settle();
        else
          failAndReplace(
            new Error(
              `Speech synthesis did not complete: ${withoutToken(result.errorDetails ?? String(result.reason))}`,
            ),
          );
      },
      (error) => failAndReplace(new Error(`Speech synthesis failed: ${withoutToken(error)}`)),
    );
    return audio;
  }
}
