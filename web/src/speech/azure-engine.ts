import type * as SpeechSdkModule from 'microsoft-cognitiveservices-speech-sdk';
import speechProcessorUrl from 'microsoft-cognitiveservices-speech-sdk/distrib/browser/speech-processor.js?url&no-inline';
import type { SpeechTokenResponse } from '../../../lambdas/contract/schemas';
import { languageOf, type Locale } from '../../../lambdas/contract/languages';
import { logError } from '../app/log';
import type { AudioOutput } from './audio-player';
import type { RecognitionHandlers, SpeechEngine } from './engine';

export type SpeechSdk = typeof SpeechSdkModule;

export interface AzureEngineOptions {
  readonly token: SpeechTokenResponse;
  /** Fetches a fresh token (POST /api/speechToken). */
  readonly fetchToken: () => Promise<SpeechTokenResponse | null>;
  readonly player: AudioOutput;
  /** The SDK, loaded on demand so it never weighs on the initial bundle. */
  readonly loadSdk?: () => Promise<SpeechSdk>;
  readonly getMicrophone?: () => Promise<MediaStream>;
  readonly now?: () => number;
}

/** Tokens live 10 minutes; refresh a minute early, and never later than 9 minutes after the last one. */
const REFRESH_MARGIN_MS = 60_000;
const MAX_TOKEN_AGE_MS = 9 * 60_000;
const RETRY_DELAY_MS = 30_000;
/** MicAudioSource's property for the audio worklet's script URL (SDK common.browser/MicAudioSource). */
const WORKLET_URL_PROPERTY = 'MICROPHONE-WorkletSourceUrl';

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

/**
 * Azure Speech with a short-lived token from our own API (the key never reaches the browser).
 * Recognition: continuous, interim results, the token refreshed in place on the live recogniser.
 * Synthesis: SSML naming the language's voice → 16 kHz 32 kbps mono MP3 → the one reused audio element.
 */
export class AzureSpeechEngine implements SpeechEngine {
  readonly kind = 'azure' as const;
  readonly canListen = true;
  private token: SpeechTokenResponse;
  private recognizer: SpeechSdkModule.SpeechRecognizer | null = null;
  private microphone: MediaStream | null = null;
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;
  private readonly now: () => number;

  constructor(
    private readonly sdk: SpeechSdk,
    private readonly options: AzureEngineOptions,
  ) {
    this.token = options.token;
    this.now = options.now ?? Date.now;
    this.scheduleRefresh();
  }

  async startListening(locale: Locale, handlers: RecognitionHandlers): Promise<void> {
    await this.stopListening();
    const { sdk } = this;
    const config = sdk.SpeechConfig.fromAuthorizationToken(this.token.token, this.token.region);
    config.speechRecognitionLanguage = locale;
    const microphone = await (this.options.getMicrophone ?? echoCancelledMicrophone)();
    if (this.disposed) {
      stopTracks(microphone);
      return;
    }
    this.microphone = microphone;
    const audio = sdk.AudioConfig.fromStreamInput(microphone);
    // The SDK would load its audio worklet from a blob: URL, which the site's CSP (script-src 'self')
    // refuses; its own worklet file, served as a same-origin asset, is allowed.
    audio.setProperty(WORKLET_URL_PROPERTY, new URL(speechProcessorUrl, window.location.href).href);
    const recognizer = new sdk.SpeechRecognizer(config, audio);
    recognizer.recognizing = (_sender, event) => handlers.onInterim(event.result.text);
    recognizer.recognized = (_sender, event) => {
      if (event.result.reason === sdk.ResultReason.RecognizedSpeech && event.result.text.trim() !== '') {
        handlers.onFinal(event.result.text.trim());
      }
    };
    recognizer.canceled = (_sender, event) => {
      logError(`speech recognition canceled: ${sdk.CancellationReason[event.reason] ?? event.reason}`);
    };
    this.recognizer = recognizer;
    await new Promise<void>((resolve, reject) =>
      recognizer.startContinuousRecognitionAsync(resolve, (error) => reject(new Error(error))),
    );
  }

  async stopListening(): Promise<void> {
    const recognizer = this.recognizer;
    this.recognizer = null;
    if (recognizer) {
      await new Promise<void>((resolve) =>
        recognizer.stopContinuousRecognitionAsync(resolve, (error) => {
          logError('stopping speech recognition failed', error);
          resolve();
        }),
      );
      recognizer.close();
    }
    if (this.microphone) {
      stopTracks(this.microphone);
      this.microphone = null;
    }
  }

  async speak(text: string, locale: Locale, speed: number): Promise<void> {
    const audio = await this.synthesize(text, locale);
    await this.options.player.play(new Blob([audio], { type: 'audio/mpeg' }), speed);
  }

  stopSpeaking(): void {
    this.options.player.stop();
  }

  setSpeed(speed: number): void {
    this.options.player.setRate(speed);
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.refreshTimer);
    this.options.player.stop();
    void this.stopListening();
  }

  private synthesize(text: string, locale: Locale): Promise<ArrayBuffer> {
    const { sdk } = this;
    const config = sdk.SpeechConfig.fromAuthorizationToken(this.token.token, this.token.region);
    config.speechSynthesisOutputFormat = sdk.SpeechSynthesisOutputFormat.Audio16Khz32KBitRateMonoMp3;
    // No audio config: the SDK must not play by itself; we play the bytes on our own element.
    const synthesizer = new sdk.SpeechSynthesizer(config, null);
    return new Promise<ArrayBuffer>((resolve, reject) => {
      synthesizer.speakSsmlAsync(
        ssmlFor(text, locale),
        (result) => {
          synthesizer.close();
          if (result.reason === sdk.ResultReason.SynthesizingAudioCompleted) resolve(result.audioData);
          else
            reject(new Error(`Speech synthesis did not complete: ${result.errorDetails ?? result.reason}`));
        },
        (error) => {
          synthesizer.close();
          reject(new Error(`Speech synthesis failed: ${error}`));
        },
      );
    });
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
      const token = await this.options.fetchToken();
      if (!token) throw new Error('the speech service is no longer configured');
      if (this.disposed) return;
      this.token = token;
      // Updated in place: the live recogniser keeps listening with the new token.
      if (this.recognizer) this.recognizer.authorizationToken = token.token;
      this.scheduleRefresh();
    } catch (error) {
      logError('refreshing the speech token failed', error);
      this.scheduleRefresh(RETRY_DELAY_MS);
    }
  }
}

/** SSML naming the locale's neural voice; the text is escaped, never interpreted as markup. */
export function ssmlFor(text: string, locale: Locale): string {
  return (
    `<speak version="1.0" xmlns="http://www.w3.org/2001/10/synthesis" xml:lang="${locale}">` +
    `<voice name="${languageOf(locale).voice}">${escapeXml(text)}</voice></speak>`
  );
}

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`);
}

function stopTracks(stream: MediaStream): void {
  for (const track of stream.getTracks()) track.stop();
}
