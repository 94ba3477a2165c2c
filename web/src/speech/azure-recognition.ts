import type * as SpeechSdkModule from 'microsoft-cognitiveservices-speech-sdk';
import type { Locale } from '#contract/languages';
import { logError } from '../lib/log';
import { withDeadline } from '../lib/deadline';
import {
  echoCancelledMicrophone,
  isMicrophoneDenied,
  microphoneAudio,
  releaseMicrophone,
} from './azure-microphone';
import { closeQuietly, withoutToken, type SpeechSdk } from './azure-service';
import type { ListeningHealth, RecognitionHandlers } from './engine';

type Recognizer = SpeechSdkModule.SpeechRecognizer;

/**
 * Think time (docs/behaviour.md §17.5): the silence that ends the learner's phrase while a check question is
 * open. Without it the service uses its own default (about half a second), which cuts off a learner who
 * pauses to think.
 */
export const THINK_TIME_SILENCE_MS = 1200;

/** Reconnecting recognition: 0.5 s, 1 s, 2 s, 4 s, then every 10 s until it is back. */
export const RECONNECT_DELAYS_MS: readonly number[] = [500, 1000, 2000, 4000, 10_000];

export interface AzureRecognitionOptions {
  readonly sdk: SpeechSdk;
  /** A new SpeechConfig carrying the current token. */
  readonly speechConfig: () => SpeechSdkModule.SpeechConfig;
  /** The recogniser starting or stopping. */
  readonly recognizerMs: number;
  readonly reconnectDelaysMs?: readonly number[];
  /** Fetches a fresh token, before a rebuild after the service refused the one it had. */
  readonly renewToken: () => Promise<void>;
  /** While sentences are being synthesized: settles once they have been (null when none are). */
  readonly synthesisPending: () => Promise<unknown> | null;
  readonly getMicrophone?: () => Promise<MediaStream>;
  /** Recognition audio instead of the microphone (Node tests: a push stream). */
  readonly audioInput?: () => SpeechSdkModule.AudioConfig;
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

/**
 * Azure recognition (docs/behaviour.md §10.3–§10.5, §10.7): continuous with interim results, one
 * recogniser at a time on the echo-cancelled microphone, rebuilt with backoff whenever the service cancels
 * or ends the session, and rebuilt with the longer phrase silence while a check question is open (§17.5).
 */
export class AzureRecognition {
  private listening: Listening | null = null;
  /** A check question is open: recognisers are built with the longer phrase silence. */
  private thinkTime = false;
  /** Whether the running recogniser was built with the longer phrase silence. */
  private builtThinkTime = false;
  private disposed = false;

  constructor(private readonly options: AzureRecognitionOptions) {}

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
        await withDeadline(stopped, this.options.recognizerMs, 'stopping speech recognition').catch(
          (error: unknown) => logError('stopping speech recognition failed', error),
        );
        closeQuietly('speech recogniser', recognizer);
      }
      if (listening.microphone) releaseMicrophone(listening.microphone);
      listening.microphone = null;
    }
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

  /** A renewed token, set in place on the live recogniser. */
  setToken(token: string): void {
    if (this.listening?.recognizer) this.listening.recognizer.authorizationToken = token;
  }

  dispose(): void {
    this.disposed = true;
    void this.stopListening();
  }

  /**
   * Rebuilds the recogniser for the wanted phrase silence once no sentence is being synthesized: a new
   * recogniser and its socket must not compete with a reply's first words for the page (the reply that
   * opens a question is being spoken just then).
   */
  private applyThinkTime(): void {
    if (this.disposed || this.thinkTime === this.builtThinkTime) return;
    const synthesis = this.options.synthesisPending();
    if (synthesis) {
      void synthesis.then(() => this.applyThinkTime());
      return;
    }
    const listening = this.listening;
    const running = listening?.recognizer;
    if (!listening || !running) return;
    listening.recognizer = null;
    closeQuietly('speech recogniser', running);
    listening.handlers.onInterim('');
    void this.connect(listening);
  }

  /** Builds and starts a recogniser for `listening`; any failure goes to reconnect(). */
  private async connect(listening: Listening): Promise<void> {
    listening.retry = undefined;
    let recognizer: Recognizer | null = null;
    try {
      if (listening.needsFreshToken) {
        await this.options.renewToken();
        listening.needsFreshToken = false;
      }
      const audio = await this.audioInput(listening);
      if (this.listening !== listening) {
        // Stopped while the permission prompt was open: release what it granted.
        if (listening.microphone) releaseMicrophone(listening.microphone);
        listening.microphone = null;
        return;
      }
      const { sdk } = this.options;
      const config = this.options.speechConfig();
      config.speechRecognitionLanguage = listening.locale;
      this.builtThinkTime = this.thinkTime;
      if (this.thinkTime) {
        config.setProperty(sdk.PropertyId.Speech_SegmentationSilenceTimeoutMs, String(THINK_TIME_SILENCE_MS));
      }
      recognizer = new sdk.SpeechRecognizer(config, audio);
      listening.recognizer = recognizer;
      this.wire(listening, recognizer);
      const started = new Promise<void>((resolve, reject) =>
        recognizer?.startContinuousRecognitionAsync(resolve, (error) =>
          reject(new Error(withoutToken(error))),
        ),
      );
      await withDeadline(started, this.options.recognizerMs, 'starting speech recognition');
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
    const { sdk } = this.options;
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
    if (recognizer) closeQuietly('speech recogniser', recognizer);
    listening.needsFreshToken ||= auth;
    this.report(listening, 'reconnecting');
    const delays = this.options.reconnectDelaysMs ?? RECONNECT_DELAYS_MS;
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
    return microphoneAudio(this.options.sdk, listening.microphone);
  }
}

/**
 * Whether a failure may be the token's: the service's 401/403, or a browser's refused handshake (1006,
 * which the SDK itself treats as unauthorized since a browser never sees the HTTP status).
 */
function isAuthError(details: string): boolean {
  return /\b(401|403|1006)\b|unauthori[sz]ed|authentication|forbidden/i.test(details);
}
