import type { Locale } from '../../../lambdas/contract/languages';

export interface RecognitionHandlers {
  /** Live partial text of the utterance being spoken. */
  onInterim(text: string): void;
  /** One finished utterance. */
  onFinal(text: string): void;
}

/**
 * What the conversation needs from a speech engine (Azure Speech or the browser's Web Speech API).
 * Components never touch an engine; the conversation controller owns one per conversation.
 */
export interface SpeechEngine {
  readonly kind: 'azure' | 'browser';
  /** False when this browser cannot recognise speech at all (typing still works). */
  readonly canListen: boolean;
  /** Starts continuous recognition with interim results in the locale. */
  startListening(locale: Locale, handlers: RecognitionHandlers): Promise<void>;
  /** Stops and closes the recogniser. Safe to call when not listening. */
  stopListening(): Promise<void>;
  /**
   * Speaks the text in the locale's voice at the speed; resolves when playback ends, rejects when
   * synthesis or playback fails.
   */
  speak(text: string, locale: Locale, speed: number): Promise<void>;
  /** Applies a new speed to what is playing now, where the engine can. */
  setSpeed(speed: number): void;
  /** Stops everything and releases timers, recognisers and streams. */
  dispose(): void;
}
