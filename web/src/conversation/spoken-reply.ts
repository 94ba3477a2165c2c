import type { Locale } from '#contract/languages';
import { logError } from '../lib/log';
import { NoVoiceError, type SpeechEngine } from '../speech/engine';
import { SentenceCutter } from './sentences';
import { speakableText } from '../speech/speakable';

export interface SpokenReplyOptions {
  /**
   * The conversation's engine: at once when it is ready (so a sentence reaches it in the same tick, before
   * any render), or a promise already bounded by a deadline; null when there is none.
   */
  readonly engine: () => SpeechEngine | null | Promise<SpeechEngine | null>;
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
  private readonly cutter: SentenceCutter;
  private readonly sentences: Promise<void>[] = [];
  private stopped = false;
  /** The engine once known; until then every sentence waits on the same promise, so they stay in order. */
  private engine: SpeechEngine | null | undefined;
  private engineReady: Promise<SpeechEngine | null> | undefined;

  constructor(private readonly options: SpokenReplyOptions) {
    this.cutter = new SentenceCutter(options.locale);
  }

  /** The next piece of the reply's text. */
  add(piece: string): void {
    for (const sentence of this.cutter.push(piece)) this.say(sentence);
  }

  /** The reply is complete: speaks what is left and waits until every sentence has played or failed. */
  async finish(): Promise<void> {
    for (const sentence of this.cutter.flush()) this.say(sentence);
    await Promise.all(this.sentences);
  }

  cancel(): void {
    this.stopped = true;
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

  private say(sentence: string): void {
    // docs/behaviour.md §5.5, §17.7: no markdown is read aloud, and symbols and units are said as words,
    // sentence by sentence as for a whole reply.
    const text = speakableText(sentence, this.options.locale);
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
