import type { Locale } from '#contract/languages';

/**
 * How recognition is doing: `listening` (audio flows to the recogniser), `reconnecting` (the recogniser
 * or its connection went down and the engine is bringing it back with backoff), `microphone_denied`
 * (the browser refuses the microphone: nothing to retry until the learner allows it).
 */
export type ListeningHealth = 'listening' | 'reconnecting' | 'microphone_denied';

export interface RecognitionHandlers {
  /** Live partial text of the utterance being spoken; '' clears it (no match, empty or rejected phrase). */
  onInterim(text: string): void;
  /** One finished utterance. */
  onFinal(text: string): void;
  /** Recognition went down, came back, or cannot run; reported on every change. */
  onHealth(health: ListeningHealth): void;
}

/** The browser has no voice for the language: replies are shown, not spoken. */
export class NoVoiceError extends Error {
  constructor(readonly locale: Locale) {
    super(`no speech voice for ${locale}`);
    this.name = 'NoVoiceError';
  }
}

/**
 * What the conversation needs from a speech engine (Azure Speech or the browser's Web Speech API).
 * Components never touch an engine; the conversation controller owns one per conversation.
 */
export interface SpeechEngine {
  readonly kind: 'azure' | 'browser';
  /** False when this browser cannot recognise speech at all (typing still works). */
  readonly canListen: boolean;
  /**
   * Starts continuous recognition with interim results in the locale, and keeps it running (reconnecting
   * with backoff) until stopListening or dispose. Resolves once it has started or has reported why not.
   */
  startListening(locale: Locale, handlers: RecognitionHandlers): Promise<void>;
  /** Stops and closes the recogniser. Safe to call when not listening. */
  stopListening(): Promise<void>;
  /**
   * Queues text to be spoken in the locale's voice at the speed, after whatever is already queued, and
   * starts preparing it at once (Azure synthesizes it while earlier text plays). Resolves when it has
   * been played or skipped; rejects when synthesis or playback failed or ran past its deadline
   * (NoVoiceError when the browser has no voice for the locale). Never waits without a deadline.
   */
  speak(text: string, locale: Locale, speed: number): Promise<void>;
  /** Skip: stops what is playing now and drops everything queued; their speak() promises resolve. */
  stopSpeaking(): void;
  /** Applies a new speed to what is playing now, where the engine can. */
  setSpeed(speed: number): void;
  /**
   * Think time (docs/behaviour.md §17.5): while a check question is open, recognition waits longer for
   * the learner's pause before it ends their phrase; `false` goes back to the usual wait. Applies to the
   * recognition running now and to any started later. An engine that cannot tune it keeps its own.
   */
  setThinkTime(open: boolean): void;
  /**
   * Calls `listener` once when the engine can serve this conversation no longer and will not recover
   * (Azure: its token expired or was refused, and the server issues no more: docs/behaviour.md §10.21), at
   * once when that has already happened. An engine that cannot be withdrawn leaves it out.
   */
  onRetired?(listener: () => void): void;
  /** Stops everything and releases timers, recognisers, synthesizers, connections and streams. */
  dispose(): void;
}
