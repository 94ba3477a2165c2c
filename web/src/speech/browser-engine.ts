import type { Locale } from '../../../lambdas/contract/languages';
import { logError } from '../app/log';
import type { RecognitionHandlers, SpeechEngine } from './engine';

/** The slice of the Web Speech API's SpeechRecognition this engine uses (not in TypeScript's DOM lib). */
interface RecognitionLike {
  continuous: boolean;
  interimResults: boolean;
  lang: string;
  onresult: ((event: RecognitionResultEvent) => void) | null;
  onerror: ((event: { readonly error: string }) => void) | null;
  onend: (() => void) | null;
  start(): void;
  stop(): void;
  abort(): void;
}

interface RecognitionResultEvent {
  readonly resultIndex: number;
  readonly results: ArrayLike<{ readonly isFinal: boolean; readonly 0: { readonly transcript: string } }>;
}

type RecognitionConstructor = new () => RecognitionLike;

interface SpeechWindow {
  SpeechRecognition?: RecognitionConstructor;
  webkitSpeechRecognition?: RecognitionConstructor;
  speechSynthesis?: SpeechSynthesis;
  SpeechSynthesisUtterance?: typeof SpeechSynthesisUtterance;
}

/** Errors after which restarting would only fail again (permission refused, no microphone). */
const FATAL_ERRORS = new Set(['not-allowed', 'service-not-allowed', 'audio-capture']);
const RESTART_DELAY_MS = 250;
/**
 * Chrome sometimes never fires `end` (long utterances, some voices). A generous bound on speaking time
 * (5 characters a second, slower than any voice, plus 10 s) keeps a lost event from leaving the
 * conversation stuck in 'speaking' with the End button disabled.
 */
export function speakingDeadlineMs(text: string, speed: number): number {
  return 10_000 + Math.ceil((text.length / (5 * speed)) * 1000);
}

/**
 * The browser's own Web Speech API: used whenever the server has no Azure Speech key. Recognition runs
 * continuously with interim results and is restarted whenever the browser ends it on its own (Chrome does
 * after silence) while the conversation wants to listen.
 */
export class BrowserSpeechEngine implements SpeechEngine {
  readonly kind = 'browser' as const;
  readonly canListen: boolean;
  private readonly Recognition: RecognitionConstructor | undefined;
  private readonly synthesis: SpeechSynthesis | undefined;
  private readonly Utterance: typeof SpeechSynthesisUtterance | undefined;
  private recognition: RecognitionLike | null = null;
  private wantsToListen = false;
  private restartTimer: ReturnType<typeof setTimeout> | undefined;
  /** Held so Chrome does not garbage-collect the utterance before its end event fires. */
  private utterance: SpeechSynthesisUtterance | null = null;
  private finishSpeaking: (() => void) | null = null;

  constructor(win: SpeechWindow = window as unknown as SpeechWindow) {
    this.Recognition = win.SpeechRecognition ?? win.webkitSpeechRecognition;
    this.synthesis = win.speechSynthesis;
    this.Utterance = win.SpeechSynthesisUtterance;
    this.canListen = this.Recognition !== undefined;
  }

  async startListening(locale: Locale, handlers: RecognitionHandlers): Promise<void> {
    if (!this.Recognition) return;
    await this.stopListening();
    const recognition = new this.Recognition();
    recognition.continuous = true;
    recognition.interimResults = true;
    recognition.lang = locale;
    recognition.onresult = (event) => {
      let interim = '';
      for (let index = event.resultIndex; index < event.results.length; index += 1) {
        const result = event.results[index];
        if (!result) continue;
        const transcript = result[0].transcript;
        if (result.isFinal) {
          if (transcript.trim() !== '') handlers.onFinal(transcript.trim());
        } else {
          interim += transcript;
        }
      }
      handlers.onInterim(interim.trim());
    };
    recognition.onerror = (event) => {
      if (event.error === 'no-speech' || event.error === 'aborted') return;
      logError(`speech recognition error: ${event.error}`);
      if (FATAL_ERRORS.has(event.error)) this.wantsToListen = false;
    };
    recognition.onend = () => {
      if (!this.wantsToListen || this.recognition !== recognition) return;
      this.restartTimer = setTimeout(() => this.restart(recognition), RESTART_DELAY_MS);
    };
    this.recognition = recognition;
    this.wantsToListen = true;
    recognition.start();
  }

  async stopListening(): Promise<void> {
    this.wantsToListen = false;
    clearTimeout(this.restartTimer);
    const recognition = this.recognition;
    this.recognition = null;
    if (!recognition) return;
    recognition.onresult = null;
    recognition.onend = null;
    try {
      recognition.abort();
    } catch (error) {
      logError('stopping speech recognition failed', error);
    }
  }

  speak(text: string, locale: Locale, speed: number): Promise<void> {
    const synthesis = this.synthesis;
    const Utterance = this.Utterance;
    if (!synthesis || !Utterance) return Promise.reject(new Error('Speech synthesis is not available'));
    this.cancelSpeech();
    return new Promise<void>((resolve, reject) => {
      const utterance = new Utterance(text);
      utterance.lang = locale;
      utterance.rate = speed;
      const voice = voiceFor(synthesis, locale);
      if (voice) utterance.voice = voice;
      const watchdog = setTimeout(
        () => {
          synthesis.cancel();
          finish(new Error('Speech synthesis did not finish in time'));
        },
        speakingDeadlineMs(text, speed),
      );
      const finish = (error?: Error) => {
        if (this.utterance !== utterance) return;
        clearTimeout(watchdog);
        this.utterance = null;
        this.finishSpeaking = null;
        if (error) reject(error);
        else resolve();
      };
      utterance.onend = () => finish();
      utterance.onerror = (event) =>
        event.error === 'interrupted' || event.error === 'canceled'
          ? finish()
          : finish(new Error(`Speech synthesis error: ${event.error}`));
      this.utterance = utterance;
      this.finishSpeaking = () => finish();
      synthesis.speak(utterance);
    });
  }

  stopSpeaking(): void {
    this.cancelSpeech();
  }

  /** The Web Speech API fixes the rate when an utterance starts; the next reply uses the new speed. */
  setSpeed(): void {}

  dispose(): void {
    void this.stopListening();
    this.cancelSpeech();
  }

  private cancelSpeech(): void {
    if (this.utterance) {
      this.finishSpeaking?.();
      this.synthesis?.cancel();
    }
  }

  private restart(recognition: RecognitionLike): void {
    if (!this.wantsToListen || this.recognition !== recognition) return;
    try {
      recognition.start();
    } catch (error) {
      logError('restarting speech recognition failed', error);
    }
  }
}

function voiceFor(synthesis: SpeechSynthesis, locale: Locale): SpeechSynthesisVoice | undefined {
  const voices = synthesis.getVoices();
  const normalise = (lang: string) => lang.replace('_', '-').toLowerCase();
  const language = locale.slice(0, 2).toLowerCase();
  return (
    voices.find((voice) => normalise(voice.lang) === locale.toLowerCase()) ??
    voices.find((voice) => normalise(voice.lang).startsWith(language))
  );
}
