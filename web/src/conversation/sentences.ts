import type { Locale } from '#contract/languages';
import { nameSpans } from '../speech/pronunciation';
import { unbreakableSpans } from '../speech/speakable';

/** Shorter pieces ("Mr. ", "はい。") ride with the next sentence rather than being synthesized alone. */
const MIN_SENTENCE_CHARS = 5;
/** A run-on without sentence punctuation is cut at a pause (comma, semicolon, space) past this length. */
const MAX_SENTENCE_CHARS = 280;
/**
 * A run-on is cut once this much more has arrived, so a number's unit or a name's second word after the
 * last pause is known before deciding the pause is a place to cut ("3 × 10^8 m/s", "Proxima Centauri").
 */
const RUN_ON_LOOKAHEAD_CHARS = 40;
const PAUSES = /[,;:،、，；：]\s*|\s+/gu;
/**
 * The last piece is already a whole sentence when it ends in a mark that cannot go on: a Chinese or
 * Japanese full stop, `!`, `?`, `؟` or `…` (a first "Great question!" is spoken without waiting for the
 * next token); a `.` only with a space after it, since "1." may become "1.4" and "Mr." a name.
 */
const ENDED = /(?:[。！？!?؟…]|[.!?؟…]["'”’»)\]]*\s)\s*$/u;

/**
 * Cuts a reply that arrives in pieces into sentences as soon as each is complete, with the locale's own
 * sentence rules (`Intl.Segmenter`: Chinese and Japanese `。！？`, Arabic `؟`, decimals such as 1.4 kept
 * whole). A sentence counts as complete once text after it has arrived; `flush` gives the rest.
 */
export class SentenceCutter {
  private readonly segmenter: Intl.Segmenter;
  private pending = '';

  constructor(private readonly locale: Locale) {
    this.segmenter = new Intl.Segmenter(locale, { granularity: 'sentence' });
  }

  /** Adds the next piece of the reply; returns the sentences it completed, in order. */
  push(piece: string): string[] {
    this.pending += piece;
    const segments = [...this.segmenter.segment(this.pending)].map((segment) => segment.segment);
    // The last segment may still grow (or turn out to be the same sentence, as in "1." then "4").
    let last = segments.pop() ?? '';
    if (ENDED.test(last)) {
      segments.push(last);
      last = '';
    }
    const sentences: string[] = [];
    let carried = '';
    for (const segment of segments) {
      carried += segment;
      if (carried.trim().length >= MIN_SENTENCE_CHARS) {
        sentences.push(carried.trim());
        carried = '';
      }
    }
    this.pending = carried + last;
    if (this.pending.length > MAX_SENTENCE_CHARS + RUN_ON_LOOKAHEAD_CHARS) sentences.push(...this.cutRunOn());
    return sentences;
  }

  /** The reply is complete: whatever is left is the last sentence (nothing when it is blank). */
  flush(): string[] {
    const sentences: string[] = [];
    while (this.pending.length > MAX_SENTENCE_CHARS) sentences.push(...this.cutRunOn());
    const rest = this.pending.trim();
    this.pending = '';
    return rest === '' ? sentences : [...sentences, rest];
  }

  private cutRunOn(): string[] {
    // Never between a number and its unit or exponent ("1,000 km", "3 × 10^8 m/s") nor inside a name
    // ("Proxima Centauri"): each half would be spoken differently (docs/behaviour.md §17.7).
    const whole = [...unbreakableSpans(this.pending), ...nameSpans(this.pending, this.locale)];
    const inside = (at: number) => whole.some(([start, end]) => at > start && at < end);
    let cut = -1;
    for (const match of this.pending.slice(0, MAX_SENTENCE_CHARS).matchAll(PAUSES)) {
      const end = match.index + match[0].length;
      if (!inside(match.index) && !inside(end)) cut = end;
    }
    if (cut <= 0) cut = MAX_SENTENCE_CHARS;
    const head = this.pending.slice(0, cut).trim();
    this.pending = this.pending.slice(cut);
    return head === '' ? [] : [head];
  }
}

/** A whole reply (one that did not stream) cut into the same sentences. */
export function sentencesOf(text: string, locale: Locale): string[] {
  const cutter = new SentenceCutter(locale);
  return [...cutter.push(text), ...cutter.flush()];
}
