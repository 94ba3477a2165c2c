import type { Locale } from '#contract/languages';
import { logError } from '../lib/log';
import { NoVoiceError, type ListeningHealth, type RecognitionHandlers, type SpeechEngine } from './engine';
import { aliased } from './pronunciation';
import type { RecognitionConstructor, RecognitionLike, SpeechWindow } from './web-speech-api';

/** How long the engine waits for things that may never happen; tests pass shorter ones. */
export interface BrowserSpeechTimings {
  /** From handing an utterance to the browser to its `start` event (Firefox without voices never starts). */
  readonly startDeadlineMs: number;
  /** How long to wait for the browser's voice list (`voiceschanged`) before deciding there is none. */
  readonly voicesWaitMs: number;
  /** Recognition that failed is restarted after these delays; the last one repeats. */
  readonly reconnectBackoffMs: readonly number[];
}

export const BROWSER_SPEECH_TIMINGS: BrowserSpeechTimings = {
  startDeadlineMs: 3_000,
  voicesWaitMs: 1_500,
  reconnectBackoffMs: [500, 1_000, 2_000, 4_000, 10_000],
};

/** The browser refuses the microphone: restarting would only fail again until the learner allows it. */
const DENIED_ERRORS = new Set(['not-allowed', 'service-not-allowed']);
/** Chrome ends recognition after a few seconds of silence ('no-speech'); restarting is routine, not an outage. */
const ROUTINE_ERRORS = new Set(['no-speech', 'aborted']);
const ROUTINE_RESTART_MS = 250;

/**
 * Chrome sometimes never fires `end` (long utterances, some voices). A generous bound on speaking time
 * (5 characters a second, slower than any voice, plus 10 s) keeps a lost event from leaving the
 * conversation stuck in 'speaking' with the End button disabled.
 */
export function speakingDeadlineMs(text: string, speed: number): number {
  return 10_000 + Math.ceil((text.length / (5 * speed)) * 1000);
}

/** One queued utterance and the speak() call waiting for it. */
interface Queued {
  readonly utterance: SpeechSynthesisUtterance;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/**
 * The browser's own Web Speech API: used whenever the server has no Azure Speech key. Recognition runs
 * continuously with interim results; when the browser ends it on its own (Chrome does after silence) it is
 * restarted at once, and when it fails (network, no microphone) it is restarted with backoff while the
 * health says 'reconnecting'. Speech is a queue of utterances kept here and handed to the browser one at a
 * time, each with a deadline to start and one to finish (docs/behaviour.md §10.16).
 */
export class BrowserSpeechEngine implements SpeechEngine {
  readonly kind = 'browser' as const;
  readonly canListen: boolean;
  private readonly Recognition: RecognitionConstructor | undefined;
  private readonly synthesis: SpeechSynthesis | undefined;
  private readonly Utterance: typeof SpeechSynthesisUtterance | undefined;
  private recognition: RecognitionLike | null = null;
  private handlers: RecognitionHandlers | null = null;
  private health: ListeningHealth | null = null;
  // Stryker disable next-line BooleanLiteral: startListening sets it before anything reads it.
  private wantsToListen = false;
  /** The last recognition session failed; the next restart is a reconnect with backoff. */
  // Stryker disable next-line BooleanLiteral: startListening sets it before anything reads it.
  private failing = false;
  private failures = 0;
  private restartTimer: ReturnType<typeof setTimeout> | undefined;
  /**
   * The sentences to speak, in order; only the head is with the browser. Held so Chrome does not
   * garbage-collect an utterance before its end event fires.
   */
  private queue: Queued[] = [];
  /** The next sentence's hand-over, due in the task after the last one ended (see handOverNext). */
  private handOverTimer: ReturnType<typeof setTimeout> | undefined;
  private handOverDue = false;
  /** Bumped by Skip, so a speak() still waiting for the voice list speaks nothing. */
  private generation = 0;
  private voicesLoaded: Promise<readonly SpeechSynthesisVoice[]> | null = null;

  constructor(
    win: SpeechWindow = window as unknown as SpeechWindow,
    private readonly timings: BrowserSpeechTimings = BROWSER_SPEECH_TIMINGS,
  ) {
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
    recognition.onstart = () => this.recovered();
    recognition.onresult = (event) => {
      this.recovered();
      let interim = '';
      for (const result of Array.from(event.results).slice(event.resultIndex)) {
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
      if (ROUTINE_ERRORS.has(event.error)) return;
      logError(`speech recognition error: ${event.error}`);
      if (DENIED_ERRORS.has(event.error)) {
        this.wantsToListen = false;
        this.report('microphone_denied');
      } else {
        this.failing = true;
      }
    };
    // stopListening takes the handlers away, so only the current recogniser's events arrive here.
    recognition.onend = () => {
      if (!this.wantsToListen) return;
      handlers.onInterim('');
      this.scheduleRestart(recognition);
    };
    this.recognition = recognition;
    this.handlers = handlers;
    this.wantsToListen = true;
    this.failing = false;
    this.failures = 0;
    this.health = null;
    this.restart(recognition);
  }

  async stopListening(): Promise<void> {
    this.wantsToListen = false;
    clearTimeout(this.restartTimer);
    const recognition = this.recognition;
    this.recognition = null;
    this.handlers = null;
    if (!recognition) return;
    recognition.onstart = null;
    recognition.onresult = null;
    recognition.onend = null;
    try {
      recognition.abort();
    } catch (error) {
      logError('stopping speech recognition failed', error);
    }
  }

  async speak(text: string, locale: Locale, speed: number): Promise<void> {
    const synthesis = this.synthesis;
    const Utterance = this.Utterance;
    if (!synthesis || !Utterance) throw new Error('Speech synthesis is not available');
    const generation = this.generation;
    const voice = voiceFor(await this.voices(synthesis), locale);
    if (generation !== this.generation) return; // skipped while the voice list loaded
    if (!voice) throw new NoVoiceError(locale);
    return new Promise<void>((resolve, reject) => {
      // Names in an alias spelling the voice says right (docs/behaviour.md §17.8): it takes no markup.
      const utterance = new Utterance(aliased(text, locale));
      utterance.lang = locale;
      utterance.rate = speed;
      utterance.voice = voice;
      const queued: Queued = { utterance, resolve, reject, timer: undefined };
      utterance.onstart = () => {
        clearTimeout(queued.timer);
        queued.timer = setTimeout(
          () => this.abandon(new Error('Speech synthesis did not finish in time')),
          speakingDeadlineMs(text, speed),
        );
      };
      utterance.onend = () => this.settle(queued);
      utterance.onerror = (event) =>
        event.error === 'interrupted' || event.error === 'canceled'
          ? this.settle(queued)
          : this.settle(queued, new Error(`Speech synthesis error: ${event.error}`));
      this.queue.push(queued);
      // With nothing before it, a sentence goes to the browser now; otherwise once the one before it ended.
      if (this.queue[0] === queued && !this.handOverDue) this.handOver(queued);
    });
  }

  stopSpeaking(): void {
    // Stryker disable next-line AssignmentOperator: any change of generation drops the waiting speak().
    this.generation += 1;
    this.cancelHandOver();
    const dropped = this.queue.splice(0);
    for (const queued of dropped) clearTimeout(queued.timer);
    if (dropped.length > 0) this.synthesis?.cancel();
    for (const queued of dropped) queued.resolve();
  }

  /** The Web Speech API fixes the rate when an utterance starts; the next one uses the new speed. */
  setSpeed(): void {}

  /**
   * The Web Speech API has no setting for how long a pause ends a phrase: the browser keeps its own
   * (docs/behaviour.md §17.5).
   */
  setThinkTime(): void {}

  dispose(): void {
    void this.stopListening();
    this.stopSpeaking();
  }

  /** The voice list, waiting (once, boundedly) for browsers that fill it after `voiceschanged`. */
  private voices(synthesis: SpeechSynthesis): Promise<readonly SpeechSynthesisVoice[]> {
    const now = synthesis.getVoices();
    if (now.length > 0) return Promise.resolve(now);
    this.voicesLoaded ??= new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        synthesis.removeEventListener?.('voiceschanged', changed);
        resolve(synthesis.getVoices());
      };
      const changed = () => {
        if (synthesis.getVoices().length > 0) done();
      };
      const timer = setTimeout(done, this.timings.voicesWaitMs);
      synthesis.addEventListener?.('voiceschanged', changed);
    });
    return this.voicesLoaded;
  }

  /**
   * Gives the head of the queue to the browser, which must start speaking it in time, or it is not going
   * to speak at all.
   */
  private handOver(queued: Queued): void {
    queued.timer = setTimeout(
      () => this.abandon(new Error('Speech synthesis did not start in time')),
      this.timings.startDeadlineMs,
    );
    this.synthesis?.speak(queued.utterance);
  }

  /**
   * The browser is given one utterance at a time, and the next only in a later task than the `end` (or
   * error) of the one before: WebKit never ends an utterance queued behind another (Safari's speech has a
   * history of such queue faults), and one spoken from inside the previous one's `end` handler stalls
   * too, while one spoken from a zero-delay timer plays (docs/behaviour.md §10.16).
   */
  private handOverNext(): void {
    clearTimeout(this.handOverTimer);
    this.handOverDue = true;
    this.handOverTimer = setTimeout(() => {
      this.handOverDue = false;
      // Nothing was handed over meanwhile: speak() leaves a new head to this hand-over.
      const next = this.queue[0];
      if (next) this.handOver(next);
    }, 0);
  }

  private cancelHandOver(): void {
    clearTimeout(this.handOverTimer);
    this.handOverDue = false;
  }

  private settle(queued: Queued, error?: Error): void {
    const index = this.queue.indexOf(queued);
    if (index < 0) return;
    this.queue.splice(index, 1);
    clearTimeout(queued.timer);
    if (error) queued.reject(error);
    else queued.resolve();
    // Even with nothing queued now: a sentence that comes in this same task waits for the next one.
    if (index === 0) this.handOverNext();
  }

  /** A deadline passed: the browser's queue is cancelled and every waiting speak() fails with the reason. */
  private abandon(error: Error): void {
    this.cancelHandOver();
    const dropped = this.queue.splice(0);
    for (const queued of dropped) clearTimeout(queued.timer);
    this.synthesis?.cancel();
    for (const queued of dropped) queued.reject(error);
  }

  private scheduleRestart(recognition: RecognitionLike): void {
    clearTimeout(this.restartTimer);
    let delay = ROUTINE_RESTART_MS;
    if (this.failing) {
      const backoff = this.timings.reconnectBackoffMs;
      delay = backoff[Math.min(this.failures, backoff.length - 1)] ?? ROUTINE_RESTART_MS;
      this.failures += 1;
      this.report('reconnecting');
    }
    this.restartTimer = setTimeout(() => this.restart(recognition), delay);
  }

  private restart(recognition: RecognitionLike): void {
    if (!this.wantsToListen || this.recognition !== recognition) return;
    try {
      recognition.start();
    } catch (error) {
      logError('starting speech recognition failed', error);
      this.failing = true;
      this.scheduleRestart(recognition);
    }
  }

  /** Audio reaches the recogniser again (it started, or heard something). */
  private recovered(): void {
    this.failing = false;
    this.failures = 0;
    this.report('listening');
  }

  private report(health: ListeningHealth): void {
    if (this.health === health) return;
    this.health = health;
    this.handlers?.onHealth(health);
  }
}

function voiceFor(voices: readonly SpeechSynthesisVoice[], locale: Locale): SpeechSynthesisVoice | undefined {
  const normalise = (lang: string) => lang.replace('_', '-').toLowerCase();
  const language = locale.slice(0, 2).toLowerCase();
  return (
    voices.find((voice) => normalise(voice.lang) === locale.toLowerCase()) ??
    voices.find((voice) => normalise(voice.lang).startsWith(language))
  );
}
