/**
 * Reading a learner's answer to a check question, offline (docs/behaviour.md §17.2): which options it
 * names (the accepted answers and the question's known mistakes), which of them it negates, and whether it
 * names both. Positional, unlike topic matching: a negation reaches forward to the end of its clause ("a
 * planet, not a star", "no es una estrella", «ليست نجمة», 不是恒星) or, where the language puts it after
 * the word, negates the word just before it (「恒星じゃない」); a reason or a comparison is set aside ("a
 * planet like the stars", "a star because planets reflect light"); where two options overlap, the longer
 * one is what was said («כוכב לכת» is a planet, not «כוכב», a star).
 */
import { type Matching } from './matcher';
import { allOccurrences, unitsOf, type Span, type Units } from './message-units';

/** How far after an option a negation written after it may start (particles between: 「太陽からじゃない」). */
const AFTER_REACH = 4;
/** A typo of one letter is forgiven in an accepted answer at least this long ("gravaty"). */
const TYPO_MIN_LETTERS = 6;

const overlaps = (a: Span, b: Span) => a.start < b.end && b.start < a.end;

/** Letters two strings differ by, at most one edit (a letter changed, added, dropped or swapped). */
function oneEditApart(a: string, b: string): boolean {
  if (a === b || Math.abs(a.length - b.length) > 1) return false;
  if (a.length === b.length) {
    const differ = [...a].flatMap((letter, index) => (letter === b[index] ? [] : [index]));
    if (differ.length === 1) return true;
    const [first, second] = differ;
    return (
      differ.length === 2 &&
      first !== undefined &&
      second === first + 1 &&
      a[first] === b[second] &&
      a[second] === b[first]
    );
  }
  const [longer, shorter] = a.length > b.length ? [a, b] : [b, a];
  for (let index = 0; index < longer.length; index += 1)
    if (longer.slice(0, index) + longer.slice(index + 1) === shorter) return true;
  return false;
}

/** What a language's learners use to negate, contrast, set aside and name both, as units. */
export interface JudgingUnits {
  readonly negationBefore: readonly (readonly string[])[];
  readonly negationAfter: readonly (readonly string[])[];
  readonly negationFinal: readonly (readonly string[])[];
  readonly contrast: readonly (readonly string[])[];
  readonly asideBefore: readonly (readonly string[])[];
  readonly asideAfter: readonly (readonly string[])[];
  readonly both: readonly (readonly string[])[];
  /** "I don't know" and the like: their "not" negates nothing ("I don't know, maybe a star"). */
  readonly dontKnow: readonly (readonly string[])[];
  /** "Nobody knows", 谁也不知道: an "I don't know" phrase inside one of them is no giving up. */
  readonly nobodyKnows?: readonly (readonly string[])[];
  /**
   * Whether a word is one of the language's own (it occurs in its lessons): such a word is never read
   * as a typo of an accepted answer ("contro" is no slip for "scontro").
   */
  readonly knownWord?: (word: string) => boolean;
}

/** A check question's options as units: its accepted answers, and each known mistake's words. */
export interface OptionUnits {
  readonly answers: readonly (readonly string[])[];
  readonly mistakes: readonly (readonly (readonly string[])[])[];
  /**
   * The topic's own words: a mistake inside one of them is no mistake ("star" in "shooting star",
   * 「星」 in 「流れ星」).
   */
  readonly neutral?: readonly (readonly string[])[];
  /**
   * Every topic's words, shared by all checks of a language (the topic's own words, `neutral`, are set
   * aside when reading): a one-character option inside another topic's word is not said («土», soil, is
   * not said in «土星», Saturn; 「月」 not in 「満月」).
   */
  readonly foreign?: readonly (readonly string[])[];
}

/** What an answer says about the options. */
export interface AnswerReading {
  /** An accepted answer named and not negated. */
  readonly right: boolean;
  /** An accepted answer named and negated ("not a star"). */
  readonly negatesRight: boolean;
  /** The known mistakes named and not negated, by index, in the order said. */
  readonly mistakes: readonly number[];
  /** Known mistakes named and negated ("not a planet"). */
  readonly negatesMistake: boolean;
  /** "Both" or the like. */
  readonly both: boolean;
}

/** Whether the message names any option at all (said or negated). */
export function namesAnOption(reading: AnswerReading): boolean {
  return reading.right || reading.negatesRight || reading.mistakes.length > 0 || reading.negatesMistake;
}

interface Mention extends Span {
  /** -1 for an accepted answer, else the mistake's index. */
  readonly option: number;
  readonly letters: number;
}

export function readAnswer(
  message: string,
  options: OptionUnits,
  judging: JudgingUnits,
  matching: Matching,
): AnswerReading {
  const said = unitsOf(message, matching);
  const letters = (span: Span) => said.units.slice(span.start, span.end).join('').length;
  const found: Mention[] = [
    ...allOccurrences(said, options.answers, matching, true).map((span) => ({ ...span, option: -1 })),
    ...options.mistakes.flatMap((patterns, option) =>
      allOccurrences(said, patterns, matching, true).map((span) => ({ ...span, option })),
    ),
  ].map((mention) => ({ ...mention, letters: letters(mention) }));
  found.push(...typos(said, options, found, matching, judging.knownWord));
  const neutral = allOccurrences(said, options.neutral ?? [], matching, true);
  const own = new Set((options.neutral ?? []).map((words) => words.join('\u0000')));
  const foreign =
    matching.mode === 'characters'
      ? allOccurrences(said, options.foreign ?? [], matching, true).filter(
          (span) => !own.has(said.units.slice(span.start, span.end).join('\u0000')),
        )
      : [];
  const inside = (spans: readonly Span[], mention: Mention) =>
    spans.some(
      (span) => span.start <= mention.start && span.end >= mention.end && letters(span) > mention.letters,
    );
  // A single Chinese or Japanese character is part of a longer word more often than it is said alone.
  const inTopicWords = (mention: Mention) =>
    (mention.option >= 0 && inside(neutral, mention)) ||
    (matching.mode === 'characters' && mention.end - mention.start === 1 && inside(foreign, mention));
  // "I don't know" counts only as its own clause ("I don't know, maybe a star"; a short one needs its
  // comma: "no se hace más pequeño" is not «no sé»); the words inside it are no answer («j'en sais rien»
  // names no «rien»).
  const givingUp = givingUpSpans(said, judging, matching).filter((span) => standsAlone(said, span));
  const inGivingUp = (mention: Mention) =>
    givingUp.some((span) => span.start <= mention.start && span.end >= mention.end);
  // Where options overlap, the longer is what was said.
  const mentions: Mention[] = [];
  for (const mention of [...found]
    .filter((mention) => !inTopicWords(mention) && !inGivingUp(mention))
    .sort((a, b) => b.letters - a.letters || a.start - b.start))
    if (!mentions.some((kept) => overlaps(kept, mention))) mentions.push(mention);

  const taken = [...mentions, ...givingUp];
  const free = (spans: Span[]) => spans.filter((span) => !taken.some((other) => overlaps(other, span)));
  const before = free(allOccurrences(said, judging.negationBefore, matching));
  // A negation ending a question is a tag asking for agreement: "è una stella, no?", "una estrella no?".
  const tag = /[?？؟]\s*$/u.test(message);
  // A word that negates both ways negates what follows it when an option follows: "roca y no gas".
  const unbroken = (from: number, to: number) => said.breaks.slice(from + 1, to + 1).every((cut) => !cut);
  const after = free(allOccurrences(said, judging.negationAfter, matching)).filter(
    (span) =>
      !(tag && span.end === said.units.length) &&
      !(
        before.some((other) => other.start === span.start && other.end === span.end) &&
        mentions.some((mention) => mention.start >= span.end && unbroken(span.start, mention.start))
      ),
  );
  const final = free(allOccurrences(said, judging.negationFinal, matching));
  const contrasts = free(allOccurrences(said, judging.contrast, matching)).filter(
    (span) => ![...before, ...after, ...final].some((negation) => overlaps(negation, span)),
  );

  // Clauses: punctuation or a contrast word starts a new one.
  const clause: number[] = [];
  said.units.forEach((_, index) => {
    const starts = said.breaks[index] === true || contrasts.some((span) => span.start === index);
    clause.push(index === 0 ? 0 : (clause[index - 1] ?? 0) + (starts ? 1 : 0));
  });
  const sameClause = (a: number, b: number) => clause[a] === clause[b];
  const endsClause = (span: Span) => span.end === said.units.length || !sameClause(span.end, span.end - 1);

  const negated = (mention: Mention) =>
    before.some((span) => span.end <= mention.start && sameClause(span.start, mention.start)) ||
    after.some(
      (span) =>
        span.start >= mention.end &&
        span.start - mention.end <= AFTER_REACH &&
        sameClause(span.start, mention.end - 1),
    ) ||
    final.some(
      (span) => span.start >= mention.end && sameClause(span.start, mention.start) && endsClause(span),
    );

  const asidesBefore = free(allOccurrences(said, judging.asideBefore, matching));
  const asidesAfter = free(allOccurrences(said, judging.asideAfter, matching));
  const setAside = (mention: Mention) =>
    asidesBefore.some((span) => span.end <= mention.start && sameClause(span.start, mention.start)) ||
    asidesAfter.some(
      (span) =>
        span.start >= mention.end &&
        span.start - mention.end <= AFTER_REACH &&
        sameClause(span.start, mention.end - 1),
    );
  // A reason or comparison is set aside only beside the answer itself: "like 88" is still 88.
  const claimed = mentions.some((mention) => !setAside(mention))
    ? mentions.filter((mention) => !setAside(mention))
    : mentions;

  const inOrder = [...claimed].sort((a, b) => a.start - b.start);
  const affirmed = inOrder.filter((mention) => !negated(mention));
  const denied = inOrder.filter(negated);
  return {
    right: affirmed.some((mention) => mention.option < 0),
    negatesRight: denied.some((mention) => mention.option < 0),
    mistakes: [
      ...new Set(affirmed.filter((mention) => mention.option >= 0).map((mention) => mention.option)),
    ],
    negatesMistake: denied.some((mention) => mention.option >= 0),
    both: allOccurrences(said, judging.both, matching).length > 0,
  };
}

/** Accepted one-word answers written with one letter wrong, in words no option already covers. */
function typos(
  said: Units,
  options: OptionUnits,
  found: readonly Mention[],
  matching: Matching,
  knownWord: (word: string) => boolean = () => false,
): Mention[] {
  if (matching.mode === 'characters') return [];
  const long = options.answers.flatMap((pattern) =>
    pattern.length === 1 && (pattern[0]?.length ?? 0) >= TYPO_MIN_LETTERS ? [pattern[0] ?? ''] : [],
  );
  return said.units.flatMap((unit, start) => {
    if (found.some((mention) => start >= mention.start && start < mention.end)) return [];
    if (knownWord(unit)) return [];
    return long.some((answer) => oneEditApart(unit, answer))
      ? [{ start, end: start + 1, option: -1, letters: unit.length }]
      : [];
  });
}

/**
 * Where the message says "I don't know" (or the like), leaving out those inside a statement that nobody
 * knows (谁也不知道).
 */
export function givingUpSpans(said: Units, judging: JudgingUnits, matching: Matching): Span[] {
  const nobody = allOccurrences(said, judging.nobodyKnows ?? [], matching);
  return allOccurrences(said, judging.dontKnow, matching).filter(
    (span) => !nobody.some((other) => other.start <= span.start && other.end >= span.end),
  );
}

/**
 * Whether the message gives up on the question: an "I don't know" phrase as its own clause (a short one
 * needs a clause of its own, or only filler words after it: «ni idea tío» gives up, «no se ve» is no
 * «no sé»).
 */
export function givesUp(
  said: Units,
  judging: JudgingUnits,
  matching: Matching,
  fillers: ReadonlySet<string> = new Set(),
): boolean {
  return givingUpSpans(said, judging, matching).some((span) => standsAlone(said, span, fillers));
}

/**
 * A span that is its own clause (words in `fillers` after it do not count), or (three units or more)
 * opens or closes one.
 */
function standsAlone(said: Units, span: Span, fillers: ReadonlySet<string> = new Set()): boolean {
  let end = span.end;
  while (end < said.units.length && said.breaks[end] !== true && fillers.has(said.units[end] ?? '')) end += 1;
  return (
    (span.start === 0 || said.breaks[span.start] === true) &&
    (end === said.units.length || said.breaks[end] === true || span.end - span.start >= 3)
  );
}
