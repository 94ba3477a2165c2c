import type { Locale } from '#contract/languages';
import { logError } from '../lib/log';
import { NoVoiceError, type SpeechEngine } from '../speech/engine';
import type { SentenceCutter } from './sentences';
import type * as SpeechTextModule from './speech-text';

/** The sentence cutter and the speakable text (speech-text.ts), loaded on Start. */
export type SpeechText = typeof SpeechTextModule;

export interface SpokenReplyOptions {
  /**
   * The conversation's engine: at once when it is ready (so a sentence reaches it in the same tick, before
   * any render), or a promise already bounded by a deadline; null when there is none.
   */
  readonly engine: () => SpeechEngine | null | Promise<SpeechEngine | null>;
  /**
   * How the shown text becomes spoken sentences: at once when it is loaded, or a promise already bounded
   * by a deadline; null when it could not load (the reply is then shown and not spoken).
   */
  readonly text: () => SpeechText | null | Promise<SpeechText | null>;
  readonly locale: Locale;
  /** Read for each sentence, so a new speed applies from the next sentence on. */
  readonly speed: () => number;
  readonly onNoVoice: () => void;
}

/**
 * One reply spoken as a pipeline: text arrives in pieces, each complete sentence goes to the engine at
 * once (which prepares it while the one before plays), and `finish` waits for the last. The first failure
 * drops the rest of the reply (logged, docs/behaviour.md §10.12: listening again); `cancel` (Skip, End) makes
 * every sentence not yet handed over stay silent. `finish` never rejects.
 */
export class SpokenReply {
  private readonly sentences: Promise<void>[] = [];
  private stopped = false;
  /** The engine once known; until then every sentence waits on the same promise, so they stay in order. */
  private engine: SpeechEngine | null | undefined;
  private engineReady: Promise<SpeechEngine | null> | undefined;
  /** The speech text once known (null: it did not load); until then the reply's text is held, in order. */
  private text: SpeechText | null | undefined;
  private textReady: Promise<void> | undefined;
  private cutter: SentenceCutter | undefined;
  private held = '';

  constructor(private readonly options: SpokenReplyOptions) {}

  /** The next piece of the reply's text. */
  add(piece: string): void {
    if (this.knownText() === undefined) this.held += piece;
    else this.cut(piece);
  }

  /** The reply is complete: speaks what is left and waits until every sentence has played or failed. */
  async finish(): Promise<void> {
    if (this.knownText() === undefined) await this.textReady;
    if (this.text && this.cutter) {
      for (const sentence of this.cutter.flush()) this.say(sentence, this.text);
    }
    await Promise.all(this.sentences);
  }

  cancel(): void {
    this.stopped = true;
  }

  /** The speech text if it is known now; undefined while it is still loading (then await textReady). */
  private knownText(): SpeechText | null | undefined {
    if (this.text !== undefined || this.textReady) return this.text;
    const now = this.options.text();
    if (now instanceof Promise) {
      this.textReady = now.then(
        (text) => this.learn(text),
        () => this.learn(null),
      );
      return undefined;
    }
    this.learn(now);
    return now;
  }

  /** The speech text is known: what was held is cut now, and whatever comes next as it comes. */
  private learn(text: SpeechText | null): void {
    this.text = text;
    if (!text) {
      // Like a missing engine (docs/behaviour.md §10.12): shown, not spoken; the controller listens again.
      logError('the reply is shown, not spoken: the words of speech are missing');
      this.stopped = true;
      return;
    }
    this.cutter = new text.SentenceCutter(this.options.locale);
    const held = this.held;
    this.held = '';
    if (held !== '') this.cut(held);
  }

  private cut(piece: string): void {
    if (!this.text || !this.cutter) return;
    for (const sentence of this.cutter.push(piece)) this.say(sentence, this.text);
  }

  /** The engine if it is known now; undefined while it is still getting ready (then await engineReady). */
  private knownEngine(): SpeechEngine | null | undefined {
    if (this.engine !== undefined || this.engineReady) return this.engine;
    const now = this.options.engine();
    if (now instanceof Promise) {
      this.engineReady = now.then((engine) => (this.engine = engine));
      return undefined;
    }
    this.engine = now;
    return now;
  }

  private say(sentence: string, speechText: SpeechText): void {
    // docs/behaviour.md §5.5, §17.7: no markdown is read aloud, and symbols and units are said as words,
    // sentence by sentence as for a whole reply.
    const text = speechText.speakableText(sentence, this.options.locale);
    if (text !== '') this.sentences.push(this.speak(text));
  }

  private async speak(text: string): Promise<void> {
    let engine: SpeechEngine | null = null;
    try {
      const known = this.knownEngine();
      engine = known === undefined ? ((await this.engineReady) ?? null) : known;
      if (this.stopped) return;
      if (!engine) throw new Error('no speech engine to speak with');
      await engine.speak(text, this.options.locale, this.options.speed());
    } catch (error) {
      if (this.stopped) return;
      this.stopped = true;
      if (error instanceof NoVoiceError) this.options.onNoVoice();
      logError('speaking the reply failed', error);
      engine?.stopSpeaking();
    }
  }
}
