/**
 * Text that arrives in pieces (a streamed reply) cleaned as if it had arrived whole. A piece is given
 * out only once nothing still to come can change it, so the pieces given out always concatenate to the
 * clean text of everything received: what the learner sees grow is exactly the final reply (docs/behaviour.md
 * §11.4).
 */
export class StreamedText {
  private raw = '';
  private given = '';

  /**
   * @param clean the cleaning applied to the whole text (`reply()`'s rules)
   * @param settledLength how much of the raw text so far later text can no longer change the cleaning of
   */
  constructor(
    private readonly clean: (raw: string) => string,
    private readonly settledLength: (raw: string) => number,
  ) {}

  /** Adds received text; returns the newly settled clean text ('' when nothing new is settled). */
  push(chunk: string): string {
    this.raw += chunk;
    return this.give(this.clean(this.raw.slice(0, this.settledLength(this.raw))));
  }

  /** Nothing more will come: returns the rest of the clean text. */
  finish(): string {
    const whole = this.clean(this.raw);
    // Cannot happen while `settledLength` holds back everything that could change; if it ever did, the
    // learner would see text the reply does not hold, so the reply fails instead.
    if (!whole.startsWith(this.given)) throw new Error('streamed text diverged from the whole reply');
    return this.give(whole);
  }

  /** All the clean text given out so far. */
  get text(): string {
    return this.given;
  }

  private give(settled: string): string {
    if (!settled.startsWith(this.given)) return '';
    const piece = settled.slice(this.given.length);
    this.given = settled;
    return piece;
  }
}

/** The raw text without trailing whitespace: a space at the end is trimmed now but may join words later. */
export function withoutTrailingSpace(raw: string): string {
  return raw.replace(/\s+$/, '');
}

/** The raw text without a trailing part of `word` (which, once complete, would be cleaned away). */
export function withoutPartial(raw: string, word: string): string {
  for (let length = Math.min(word.length - 1, raw.length); length > 0; length -= 1) {
    if (raw.endsWith(word.slice(0, length))) return raw.slice(0, raw.length - length);
  }
  return raw;
}
