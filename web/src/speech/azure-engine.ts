import type * as SpeechSdkModule from 'microsoft-cognitiveservices-speech-sdk';
import type { SpeechTokenResponse } from '#contract/schemas';
import type { Locale } from '#contract/languages';
import type { AudioOutput } from './audio-player';
import { AzureRecognition } from './azure-recognition';
import { SPEECH_DEADLINES, speechConfigFor, type SpeechDeadlines, type SpeechSdk } from './azure-service';
import { AzureSynthesis } from './azure-synthesis';
import { AzureSpeechToken } from './azure-token';
import type { RecognitionHandlers, SpeechEngine } from './engine';

export type { SpeechDeadlines, SpeechSdk } from './azure-service';

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

export const loadSpeechSdk = (): Promise<SpeechSdk> => import('microsoft-cognitiveservices-speech-sdk');

/** Loads the SDK (a separate chunk) and builds the engine; called on Start only. */
export async function createAzureEngine(options: AzureEngineOptions): Promise<AzureSpeechEngine> {
  const sdk = await (options.loadSdk ?? loadSpeechSdk)();
  return new AzureSpeechEngine(sdk, options);
}

/**
 * Azure Speech with a short-lived token from our own API (the key never reaches the browser,
 * docs/behaviour.md §10): the token kept fresh (azure-token.ts), recognition that heals itself
 * (azure-recognition.ts) and one synthesizer per conversation (azure-synthesis.ts). This class only
 * joins them: each new recogniser or synthesizer is configured with the current token, a renewed token
 * goes to the live recogniser and synthesizer, a refused token is renewed before the recogniser is
 * rebuilt, and a think-time rebuild waits for the sentences being synthesized.
 */
export class AzureSpeechEngine implements SpeechEngine {
  readonly kind = 'azure' as const;
  readonly canListen = true;
  private readonly token: AzureSpeechToken;
  private readonly recognition: AzureRecognition;
  private readonly synthesis: AzureSynthesis;
  private readonly retiredListeners = new Set<() => void>();
  private retired = false;

  constructor(sdk: SpeechSdk, options: AzureEngineOptions) {
    const deadlines = { ...SPEECH_DEADLINES, ...options.deadlines };
    this.token = new AzureSpeechToken({
      token: options.token,
      fetchToken: options.fetchToken,
      deadlineMs: deadlines.tokenMs,
      retryMs: options.tokenRetryMs,
      now: options.now,
      onRenewed: (token) => {
        this.recognition.setToken(token);
        this.synthesis.setToken(token);
      },
      onWithdrawn: () => this.retire(),
    });
    const speechConfig = () =>
      speechConfigFor(sdk, this.token.current, {
        serviceHost: options.serviceHost,
        recognizerMs: deadlines.recognizerMs,
      });
    // Opens the conversation's synthesis connection now, at Start (docs/behaviour.md §10.14).
    this.synthesis = new AzureSynthesis({ sdk, player: options.player, deadlines, speechConfig });
    this.recognition = new AzureRecognition({
      sdk,
      speechConfig,
      recognizerMs: deadlines.recognizerMs,
      reconnectDelaysMs: options.reconnectDelaysMs,
      renewToken: () => this.token.renewNow(),
      synthesisPending: () => this.synthesis.pending(),
      getMicrophone: options.getMicrophone,
      audioInput: options.audioInput,
    });
  }

  startListening(locale: Locale, handlers: RecognitionHandlers): Promise<void> {
    return this.recognition.startListening(locale, handlers);
  }

  stopListening(): Promise<void> {
    return this.recognition.stopListening();
  }

  speak(text: string, locale: Locale, speed: number): Promise<void> {
    return this.synthesis.speak(text, locale, speed);
  }

  stopSpeaking(): void {
    this.synthesis.stopSpeaking();
  }

  setSpeed(speed: number): void {
    this.synthesis.setSpeed(speed);
  }

  setThinkTime(open: boolean): void {
    this.recognition.setThinkTime(open);
  }

  /** Azure is withdrawn from this conversation: its token expired or was refused, and no more are issued. */
  onRetired(listener: () => void): void {
    if (this.retired) listener();
    else this.retiredListeners.add(listener);
  }

  dispose(): void {
    this.retiredListeners.clear();
    this.token.dispose();
    this.synthesis.dispose();
    this.recognition.dispose();
  }

  /**
   * The token is gone for good (docs/behaviour.md §10.21): recognition stops reconnecting with it, and
   * whoever owns the engine moves the conversation on and disposes it.
   */
  private retire(): void {
    this.retired = true;
    void this.recognition.stopListening();
    const listeners = [...this.retiredListeners];
    this.retiredListeners.clear();
    for (const listener of listeners) listener();
  }
}
