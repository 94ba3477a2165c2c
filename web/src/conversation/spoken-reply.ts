import type { Locale } from '../../../lambdas/contract/languages';
import { logError } from '../app/log';
import { NoVoiceError, type SpeechEngine } from '../speech/engine';
import { SentenceCutter } from './sentences';
import { speakableText } from './state';

export interface SpokenReplyOptions {
  /** The conversation's engine, or null when there is none; already bounded by a deadline. */
  readonly engine: () => Promise<SpeechEngine | null>;
  readonly locale: Locale;
  /** Read for each sentence, so a new speed applies from the next sentence on. */
  readonly speed: () => number;
  readonly onNoVoice: () => void;
}

/**
 * One reply spoken as a pipeline: text arrives in pieces, each complete sentence goes to the engine at
 * once (which prepares it while the one before plays), and `finish` waits for the last. The first failure
 * drops the rest of the reply (logged, SPEC §8: the conversation listens again); `cancel` (Skip, End)
 * makes every sentence not yet handed over stay silent. `finish` never rejects.
 */
export class SpokenReply {
  private readonly cutter: SentenceCutter;
  private readonly sentences: Promise<void>[] = [];
  private stopped = false;

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

  private say(sentence: string): void {
    // SPEC §5: asterisks are never read aloud, sentence by sentence as for a whole reply.
    const text = speakableText(sentence);
    if (text !== '') this.sentences.push(this.speak(text));
  }

  private async speak(text: string): Promise<void> {
    let engine: SpeechEngine | null = null;
    try {
      engine = await this.options.engine();
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
