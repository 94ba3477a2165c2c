import type * as SpeechSdkModule from 'microsoft-cognitiveservices-speech-sdk';
import speechProcessorUrl from 'microsoft-cognitiveservices-speech-sdk/distrib/browser/speech-processor.js?url&no-inline';
import type { SpeechTokenResponse } from '#contract/schemas';
import { languageOf, type Locale } from '#contract/languages';
import { logError } from '../lib/log';
import type { AudioOutput } from './audio-player';
import { SpeechAudio } from './speech-audio';
import { SPEECH_TOKEN_DEADLINE_MS } from '../api/speech-token';
import { DeadlineError, withDeadline } from '../lib/deadline';
import type { ListeningHealth, RecognitionHandlers, SpeechEngine } from './engine';
import { pronounced, type SpokenSegment } from './pronunciation';

export type SpeechSdk = typeof SpeechSdkModule;
type Recognizer = SpeechSdkModule.SpeechRecognizer;
type Synthesizer = SpeechSdkModule.SpeechSynthesizer;

/** How long each step of the speech path may take before it is abandoned (nothing may hang). */
export interface SpeechDeadlines {
  /** From sending a reply's SSML to its first audio byte. */
  readonly synthesisFirstByteMs: number;
  /** A reply's whole synthesis: this much, plus synthesisPerCharMs for each character. */
  readonly synthesisMs: number;
  readonly synthesisPerCharMs: number;
  /** The recogniser starting or stopping. */
  readonly recognizerMs: number;
  /** Fetching a fresh token from /api/speechToken. */
  readonly tokenMs: number;
}

export const SPEECH_DEADLINES: SpeechDeadlines = {
  synthesisFirstByteMs: 10_000,
  synthesisMs: 10_000,
  synthesisPerCharMs: 20,
  recognizerMs: 10_000,
  tokenMs: SPEECH_TOKEN_DEADLINE_MS,
};

/**
 * Think time (docs/behaviour.md §17.5): the silence that ends the learner's phrase while a check question is
 * open. Without it the service uses its own default (about half a second), which cuts off a learner who
 * pauses to think.
 */
export const THINK_TIME_SILENCE_MS = 1200;

/** Reconnecting recognition: 0.5 s, 1 s, 2 s, 4 s, then every 10 s until it is back. */
export const RECONNECT_DELAYS_MS: readonly number[] = [500, 1000, 2000, 4000, 10_000];

export interface AzureEngineOptions {
  readonly token: SpeechTokenResponse;
  /** Fetches a fresh token (POST /api/speechToken); aborted past its deadline. */
  readonly fetchToken: (signal?: AbortSignal) => Promise<SpeechTokenResponse | null>;
  readonly player: AudioOutput;
  /** The SDK, loaded on demand so it never weighs on the initial bundle. */
  readonly loadSdk?: () => Promise<SpeechSdk>;
  readonly getMicrophone?: () => Promise<MediaStream>;
  /**
   * Where recognition audio comes from instead of the microphone (Node tests: a push stream). The
   * browser leaves it unset: the echo-cancelled microphone through the SDK's own worklet file.
   */
  readonly audioInput?: () => SpeechSdkModule.AudioConfig;
  /**
   * The speech service's host instead of the region's (`ws://127.0.0.1:PORT`, the tests' fake service).
   * The browser leaves it unset and talks to wss://<region>.stt|tts.speech.microsoft.com.
   */
  readonly serviceHost?: string;
  readonly deadlines?: Partial<SpeechDeadlines>;
  readonly reconnectDelaysMs?: readonly number[];
  /** After a failed token refresh, the next try (default 30 s). */
  readonly tokenRetryMs?: number;
  readonly now?: () => number;
}

/** Tokens live 10 minutes; refresh a minute early, and never later than 9 minutes after the last one. */
const REFRESH_MARGIN_MS = 60_000;
const MAX_TOKEN_AGE_MS = 9 * 60_000;
const TOKEN_RETRY_MS = 30_000;
/** MicAudioSource's property for the audio worklet's script URL (SDK common.browser/MicAudioSource). */
const WORKLET_URL_PROPERTY = 'MICROPHONE-WorkletSourceUrl';
/** audio-16khz-32kbitrate-mono-mp3: 32 kbit/s is 4 bytes a millisecond, so the bytes say how long it lasts. */
const MP3_BYTES_PER_MS = 4;
/**
 * One silent frame of that format, for the player to set up its media pipeline with before the audio
 * comes: MPEG-2 Layer III, 32 kbit/s, 16 kHz, mono (header FF F3 48 C0), 144 bytes, the rest zeros
 * (no coded samples: 36 ms of silence).
 */
const MP3_SILENT_FRAME = new Uint8Array(144);
MP3_SILENT_FRAME.set([0xff, 0xf3, 0x48, 0xc0]);

export const loadSpeechSdk = (): Promise<SpeechSdk> => import('microsoft-cognitiveservices-speech-sdk');

/** The microphone with the browser's echo cancellation, so Astro's voice is not heard as the learner's. */
export function echoCancelledMicrophone(): Promise<MediaStream> {
  return navigator.mediaDevices.getUserMedia({
    audio: { echoCancellation: true, noiseSuppression: true, autoGainControl: true },
  });
}

/** Loads the SDK (a separate chunk) and builds the engine; called on Start only. */
export async function createAzureEngine(options: AzureEngineOptions): Promise<AzureSpeechEngine> {
  const sdk = await (options.loadSdk ?? loadSpeechSdk)();
  return new AzureSpeechEngine(sdk, options);
}

/** One conversation's recognition: kept alive (rebuilt with backoff) until stopListening. */
interface Listening {
  readonly locale: Locale;
  readonly handlers: RecognitionHandlers;
  recognizer: Recognizer | null;
  /** Opened once for the session and given to every rebuilt recogniser. */
  microphone: MediaStream | null;
  health: ListeningHealth | null;
  failures: number;
  needsFreshToken: boolean;
  retry: ReturnType<typeof setTimeout> | undefined;
}

/** The conversation's one synthesizer and the synthesis it is doing now, if any. */
interface SynthesisLine {
  readonly synthesizer: Synthesizer;
  onAudio: ((chunk: ArrayBuffer) => void) | null;
  /** Ends the synthesis in flight with this error (the synthesizer is being replaced). */
  abandon: ((error: Error) => void) | null;
}

/**
 * Azure Speech with a short-lived token from our own API (the key never reaches the browser).
 * Recognition: continuous with interim results, one recogniser at a time, rebuilt with backoff whenever the
 * service cancels or ends the session. Synthesis: ONE synthesizer per conversation whose connection is
 * opened here, at Start, and reused for every reply (replaced after any failure); SSML naming the
 * language's voice → 16 kHz 32 kbps mono MP3 → the one reused audio element. Every await has a deadline.
 */
export class AzureSpeechEngine implements SpeechEngine {
  readonly kind = 'azure' as const;
  readonly canListen = true;
  private token: SpeechTokenResponse;
  private listening: Listening | null = null;
  private line: SynthesisLine | null = null;
  /** Each reply waits for the one before it: synthesis in order, playback in order. */
  private synthesisQueue: Promise<unknown> = Promise.resolve();
  private playbackQueue: Promise<unknown> = Promise.resolve();
  /** Sentences whose synthesis has not finished yet (queued or in flight). */
  private synthesesAhead = 0;
  /** Bumped by Skip: everything queued under an older value is dropped. */
  private speechGeneration = 0;
  private speed = 1;
  /** A check question is open: recognisers are built with the longer phrase silence. */
  private thinkTime = false;
  /** Whether the running recogniser was built with the longer phrase silence. */
  private builtThinkTime = false;
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;
  private readonly deadlines: SpeechDeadlines;
  private readonly reconnectDelays: readonly number[];
  private readonly now: () => number;

  constructor(
    private readonly sdk: SpeechSdk,
    private readonly options: AzureEngineOptions,
  ) {
    this.token = options.token;
    this.now = options.now ?? Date.now;
    this.deadlines = { ...SPEECH_DEADLINES, ...options.deadlines };
    this.reconnectDelays = options.reconnectDelaysMs ?? RECONNECT_DELAYS_MS;
    this.scheduleRefresh();
    // Opened now, at Start, so the greeting does not wait for a connection (docs/behaviour.md §10.14).
    this.synthesisLine();
  }

  async startListening(locale: Locale, handlers: RecognitionHandlers): Promise<void> {
    await this.stopListening();
    if (this.disposed) return;
    const listening: Listening = {
      locale,
      handlers,
      recognizer: null,
      microphone: null,
      health: null,
      failures: 0,
      needsFreshToken: false,
      retry: undefined,
    };
    this.listening = listening;
    await this.connect(listening);
  }

  async stopListening(): Promise<void> {
    const listening = this.listening;
    this.listening = null;
    if (listening) {
      clearTimeout(listening.retry);
      const recognizer = listening.recognizer;
      listening.recognizer = null;
      if (recognizer) {
        const stopped = new Promise<void>((resolve, reject) =>
          recognizer.stopContinuousRecognitionAsync(resolve, (error) =>
            reject(new Error(withoutToken(error))),
          ),
        );
        await withDeadline(stopped, this.deadlines.recognizerMs, 'stopping speech recognition').catch(
          (error: unknown) => logError('stopping speech recognition failed', error),
        );
        this.closeRecognizer(recognizer);
      }
      if (listening.microphone) stopTracks(listening.microphone);
      listening.microphone = null;
    }
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

  /**
   * SDK 1.52 reads `Speech_SegmentationSilenceTimeoutMs` only when recognition starts: `recognize()` writes
   * it into the `speech.context` message (`phraseDetection.<mode>.segmentation`) and the connection puts
   * it in the socket's URL (`segmentationSilenceTimeoutMs`). A running continuous session re-sends the
   * same context only at a service turn end, which conversation mode may never reach, and
   * `Connection.setMessageProperty` only edits that same context. So the running recogniser is replaced
   * by one built with the new value, on the same microphone stream. The controller calls this when a
   * reply closes or opens a check question, while Astro speaks or thinks: nothing heard then counts
   * (docs/behaviour.md §10.20), so the short gap costs the learner nothing.
   */
  setThinkTime(open: boolean): void {
    this.thinkTime = open;
    this.applyThinkTime();
  }

  /**
   * Rebuilds the recogniser for the wanted phrase silence once no sentence is being synthesized: a new
   * recogniser and its socket must not compete with a reply's first words for the page (the reply that
   * opens a question is being spoken just then).
   */
  private applyThinkTime(): void {
    if (this.disposed || this.thinkTime === this.builtThinkTime) return;
    if (this.synthesesAhead > 0) {
      void this.synthesisQueue.then(() => this.applyThinkTime());
      return;
    }
    const listening = this.listening;
    const running = listening?.recognizer;
    if (!listening || !running) return;
    listening.recognizer = null;
    this.closeRecognizer(running);
    listening.handlers.onInterim('');
    void this.connect(listening);
  }

  dispose(): void {
    this.disposed = true;
    this.speechGeneration += 1;
    clearTimeout(this.refreshTimer);
    this.options.player.stop();
    const line = this.line;
    this.line = null;
    if (line) {
      line.abandon?.(new Error('the conversation ended'));
      closeSynthesizer(line.synthesizer);
    }
    void this.stopListening();
  }

  // ---- recognition ----

  /** Builds and starts a recogniser for `listening`; any failure goes to reconnect(). */
  private async connect(listening: Listening): Promise<void> {
    listening.retry = undefined;
    let recognizer: Recognizer | null = null;
    try {
      if (listening.needsFreshToken) {
        await this.renewToken();
        listening.needsFreshToken = false;
        this.scheduleRefresh();
      }
      const audio = await this.audioInput(listening);
      if (this.listening !== listening) {
        // Stopped while the permission prompt was open: release what it granted.
        if (listening.microphone) stopTracks(listening.microphone);
        listening.microphone = null;
        return;
      }
      const config = this.speechConfig();
      config.speechRecognitionLanguage = listening.locale;
      this.builtThinkTime = this.thinkTime;
      if (this.thinkTime) {
        config.setProperty(
          this.sdk.PropertyId.Speech_SegmentationSilenceTimeoutMs,
          String(THINK_TIME_SILENCE_MS),
        );
      }
      recognizer = new this.sdk.SpeechRecognizer(config, audio);
      listening.recognizer = recognizer;
      this.wire(listening, recognizer);
      const started = new Promise<void>((resolve, reject) =>
        recognizer?.startContinuousRecognitionAsync(resolve, (error) =>
          reject(new Error(withoutToken(error))),
        ),
      );
      await withDeadline(started, this.deadlines.recognizerMs, 'starting speech recognition');
    } catch (error) {
      // Stopped, or replaced meanwhile (think time, a reconnect): this attempt no longer matters.
      if (this.listening !== listening) return;
      if (recognizer !== null && listening.recognizer !== recognizer) return;
      if (isMicrophoneDenied(error)) {
        logError('the microphone is not allowed', error);
        this.report(listening, 'microphone_denied');
        return;
      }
      logError('speech recognition could not start', error);
      this.reconnect(listening, recognizer, error instanceof Error && isAuthError(error.message));
    }
  }

  private wire(listening: Listening, recognizer: Recognizer): void {
    const { sdk } = this;
    const current = () => this.listening === listening && listening.recognizer === recognizer;
    recognizer.recognizing = (_sender, event) => {
      if (current()) listening.handlers.onInterim(event.result.text);
    };
    recognizer.recognized = (_sender, event) => {
      if (!current()) return;
      const text = event.result.text?.trim() ?? '';
      if (event.result.reason === sdk.ResultReason.RecognizedSpeech && text !== '') {
        listening.handlers.onFinal(text);
      } else {
        // NoMatch or an empty phrase: the learner's faded bubble must not stay on screen.
        listening.handlers.onInterim('');
      }
    };
    recognizer.sessionStarted = () => {
      if (!current()) return;
      listening.failures = 0;
      this.report(listening, 'listening');
    };
    recognizer.canceled = (_sender, event) => {
      if (!current()) return;
      const details = `${sdk.CancellationReason[event.reason]} ${sdk.CancellationErrorCode[event.errorCode]}: ${event.errorDetails ?? ''}`;
      logError(`speech recognition canceled: ${withoutToken(details)}`);
      const auth =
        event.errorCode === sdk.CancellationErrorCode.AuthenticationFailure ||
        isAuthError(event.errorDetails ?? '');
      this.reconnect(listening, recognizer, auth);
    };
    recognizer.sessionStopped = () => {
      if (current()) this.reconnect(listening, recognizer, false);
    };
  }

  /** The recogniser went down: report it, close it and build a new one after the backoff. */
  private reconnect(listening: Listening, recognizer: Recognizer | null, auth: boolean): void {
    if (this.listening !== listening || listening.retry !== undefined) return;
    listening.recognizer = null;
    if (recognizer) this.closeRecognizer(recognizer);
    listening.needsFreshToken ||= auth;
    this.report(listening, 'reconnecting');
    const delays = this.reconnectDelays;
    const delay = delays[Math.min(listening.failures, delays.length - 1)] ?? 10_000;
    listening.failures += 1;
    listening.retry = setTimeout(() => void this.connect(listening), delay);
  }

  private report(listening: Listening, health: ListeningHealth): void {
    if (listening.health === health) return;
    listening.health = health;
    listening.handlers.onHealth(health);
  }

  /**
   * The recogniser's audio: the test's input, or the microphone (opened once per listening session and
   * reused by every rebuilt recogniser: the SDK leaves a stream it was given running when it closes).
   */
  private async audioInput(listening: Listening): Promise<SpeechSdkModule.AudioConfig> {
    if (this.options.audioInput) return this.options.audioInput();
    // No deadline here on purpose: this waits on the learner answering the permission prompt.
    listening.microphone ??= await (this.options.getMicrophone ?? echoCancelledMicrophone)();
    const audio = this.sdk.AudioConfig.fromStreamInput(listening.microphone);
    // The SDK would load its audio worklet from a blob: URL, which the site's CSP (script-src 'self')
    // refuses; its own worklet file, served as a same-origin asset, is allowed.
    audio.setProperty(WORKLET_URL_PROPERTY, new URL(speechProcessorUrl, window.location.href).href);
    return audio;
  }

  private closeRecognizer(recognizer: Recognizer): void {
    try {
      recognizer.close(undefined, (error) =>
        logError(`closing the speech recogniser failed: ${withoutToken(error)}`),
      );
    } catch (error) {
      // Already closed (the SDK throws on a second close).
      logError('closing the speech recogniser failed', error);
    }
  }

  // ---- synthesis ----

  private synthesisLine(): SynthesisLine {
    if (this.line) return this.line;
    const { sdk } = this;
    const config = this.speechConfig();
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
    closeSynthesizer(line.synthesizer);
  }

  /** Starts synthesizing; the audio arrives in chunks, and ends or fails within the deadlines. */
  private synthesize(text: string, locale: Locale): SpeechAudio {
    const { sdk, deadlines } = this;
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

  // ---- configuration and tokens ----

  private speechConfig(): SpeechSdkModule.SpeechConfig {
    const { sdk, token } = this;
    let config: SpeechSdkModule.SpeechConfig;
    if (this.options.serviceHost) {
      config = sdk.SpeechConfig.fromHost(new URL(this.options.serviceHost));
      config.authorizationToken = token.token;
      // fromHost assumes a container's v1 routes; the cloud (and the fake of it) serves the SDK's default v2.
      config.setProperty(sdk.PropertyId.SpeechServiceConnection_RecognitionEndpointVersion, '2');
    } else {
      config = sdk.SpeechConfig.fromAuthorizationToken(token.token, token.region);
    }
    // The SDK paces its audio upload with a timer worker loaded from a data: URL, which the site's CSP
    // (script-src 'self', no worker-src) refuses: after the first 5 s, the first stall would leave the
    // upload waiting on a timer that never fires. SDK 1.52 can only load that worker from its data: URL,
    // so it is switched off: the page's own timers pace the upload.
    config.setProperty(sdk.PropertyId.WebWorkerLoadType, 'off');
    // Past this, the SDK itself drops a stop the service never answers (our own deadline wraps it too).
    config.setProperty(sdk.PropertyId.Recognizer_StopTimeoutMs, String(this.deadlines.recognizerMs));
    return config;
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
      await this.renewToken();
      this.scheduleRefresh();
    } catch (error) {
      logError('refreshing the speech token failed', error);
      this.scheduleRefresh(this.options.tokenRetryMs ?? TOKEN_RETRY_MS);
    }
  }

  /** Fetches a token (with a deadline) and sets it in place on the live recogniser and synthesizer. */
  private async renewToken(): Promise<void> {
    const abort = new AbortController();
    const token = await withDeadline(
      this.options.fetchToken(abort.signal),
      this.deadlines.tokenMs,
      'fetching a speech token',
      () => abort.abort(),
    );
    if (!token) throw new Error('the speech service is no longer configured');
    if (this.disposed) return;
    this.token = token;
    if (this.listening?.recognizer) this.listening.recognizer.authorizationToken = token.token;
    if (this.line) this.line.synthesizer.authorizationToken = token.token;
  }
}

/**
 * Characters XML 1.0 forbids (C0 controls but tab, newline and carriage return; U+FFFE, U+FFFF) and
 * surrogates that are not part of a pair: any of them makes the service refuse the whole document.
 */
const FORBIDDEN_IN_XML =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * SSML naming the locale's neural voice. It is built from segments, never from markup in the reply: every
 * text and attribute is cleaned and escaped, and a name's pronunciation is its own element, never inside
 * another (docs/behaviour.md §10.14, §17.8).
 */
export function ssmlFor(spoken: readonly SpokenSegment[], locale: Locale): string {
  return (
    `<speak version="1.0" xmlns="http://www.w3.org/2001/10/synthesis" xml:lang="${locale}">` +
    `<voice name="${languageOf(locale).voice}">${spoken.map(segmentSsml).join('')}</voice></speak>`
  );
}

function segmentSsml(segment: SpokenSegment): string {
  switch (segment.kind) {
    case 'text':
      return escapeXml(segment.text);
    case 'phoneme':
      return `<phoneme alphabet="${segment.alphabet}" ph="${escapeXml(segment.ph)}">${escapeXml(segment.text)}</phoneme>`;
    case 'sub':
      return `<sub alias="${escapeXml(segment.alias)}">${escapeXml(segment.text)}</sub>`;
  }
}

function escapeXml(text: string): string {
  return text.replace(FORBIDDEN_IN_XML, '').replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** getUserMedia's refusal (a DOMException, which not every runtime makes an Error). */
function isMicrophoneDenied(error: unknown): boolean {
  const name = typeof error === 'object' && error !== null && 'name' in error ? error.name : undefined;
  return name === 'NotAllowedError' || name === 'SecurityError';
}

/**
 * Whether a failure may be the token's: the service's 401/403, or a browser's refused handshake (1006,
 * which the SDK itself treats as unauthorized since a browser never sees the HTTP status).
 */
function isAuthError(details: string): boolean {
  return /\b(401|403|1006)\b|unauthori[sz]ed|authentication|forbidden/i.test(details);
}

/** SDK messages may quote a socket URL, whose query repeats the token: never log it. */
export function withoutToken(text: string): string {
  return text.replace(/(Authorization=|Bearer(%20|\s)+)[^\s&"']+/gi, '$1[token]');
}

function closeSynthesizer(synthesizer: Synthesizer): void {
  try {
    synthesizer.close(undefined, (error) =>
      logError(`closing the speech synthesizer failed: ${withoutToken(error)}`),
    );
  } catch (error) {
    logError('closing the speech synthesizer failed', error);
  }
}

function stopTracks(stream: MediaStream): void {
  for (const track of stream.getTracks()) track.stop();
}
