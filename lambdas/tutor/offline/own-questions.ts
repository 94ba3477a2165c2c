/**
 * A learner's own question (docs/behaviour.md §17.2): whether a message asks something (a question word,
 * a yes-or-no opener, a question mark) rather than answering the open check question.
 */
import type { CompiledLocale } from './compiled-locale';
import { firstAt, lastEnd, occurrences, unitsOf } from './message-units';

/** In Chinese and Japanese, a question word this near the start (in characters) makes a question. */
const QUESTION_WORD_WITHIN = { characters: 2 } as const;

/** "Nothing" in Chinese and Japanese starts with a question word: 「なにも」, 「什么都」, 「谁也」. */
const NOT_A_QUESTION_AFTER = new Set(['も', '都', '也']);

/**
 * Whether the message is a question of the learner's own: `open` when a question word asks it ("why",
 * "how far", 「なんで」); `yes-no` when a yes-or-no opener does, or it ends like a question. A yes-or-no
 * question naming an option is a guess ("is it a star?"), judged as an answer.
 */
export function ownQuestion(message: string, language: CompiledLocale): 'open' | 'yes-no' | undefined {
  const { matching } = language;
  const said = unitsOf(message, matching);
  const marked = /[?？؟]\s*$/u.test(message);
  if (matching.mode === 'characters') {
    const endsAsking = marked || lastEnd(said, language.askWords, matching) === said.units.length;
    const asks = occurrences(said, language.questionWords, matching).some(
      (span) =>
        !NOT_A_QUESTION_AFTER.has(said.units[span.end] ?? '') &&
        (span.start <= QUESTION_WORD_WITHIN.characters || span.end === said.units.length || endsAsking),
    );
    if (asks) return 'open';
    const opensAsking = firstAt(said, language.askWords, matching) === 0;
    return endsAsking || opensAsking ? 'yes-no' : undefined;
  }
  // Words before the question word may only be openers: "wait, how far…", never "I think what…".
  let start = 0;
  while (start < said.units.length && language.openers.has(said.units[start] ?? '')) start += 1;
  const opening = {
    units: said.units.slice(start),
    breaks: said.breaks.slice(start),
    joined: said.joined?.slice(start),
  };
  // Typed with a question mark, a question word may come later: "a lua fica a quantos quilômetros?".
  if (firstAt(opening, language.questionWords, matching) === 0) return 'open';
  if (marked && firstAt(said, language.questionWords, matching) !== undefined) return 'open';
  if (firstAt(opening, language.askWords, matching) === 0 || marked) return 'yes-no';
  return undefined;
}

/** Whether a question word occurs anywhere in a Chinese or Japanese message, other than in "nothing" (なにも). */
export function asksAnywhere(message: string, language: CompiledLocale): boolean {
  const said = unitsOf(message, language.matching);
  return occurrences(said, language.questionWords, language.matching).some(
    (span) => !NOT_A_QUESTION_AFTER.has(said.units[span.end] ?? ''),
  );
}
