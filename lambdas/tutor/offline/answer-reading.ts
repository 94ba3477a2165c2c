/**
 * Reading a learner's answer to a check question, offline (docs/behaviour.md §17.2): which options it
 * names (the accepted answers and the question's known mistakes), which of them it negates, and whether it
 * names both. Positional, unlike topic matching: a negation reaches forward to the end of its clause ("a
 * planet, not a star", "no es una estrella", «ليست نجمة», 不是恒星) or, where the language puts it after
 * the word, negates the word just before it (「恒星じゃない」); a reason or a comparison is set aside ("a
 * planet like the stars", "a star because planets reflect light"); where two options overlap, the longer
 * one is what was said («כוכב לכת» is a planet, not «כוכב», a star).
 */
import { basesOf, fold, tokenize, wordMatches, type Matching } from './matcher';

/** How far after an option a negation written after it may start (particles between: 「太陽からじゃない」). */
const AFTER_REACH = 4;
/** A typo of one letter is forgiven in an accepted answer at least this long ("gravaty"). */
const TYPO_MIN_LETTERS = 6;

/**
 * A message as units, words in spaced scripts and characters in Chinese and Japanese, with where a clause
 * boundary (punctuation) falls before a unit.
 */
export interface Units {
  readonly units: readonly string[];
  readonly breaks: readonly boolean[];
  /** Where a number goes on past a decimal point or a group separator ("13,8", "1.3"), in spaced scripts. */
  readonly joined?: readonly boolean[];
}

/** Punctuation that ends a clause; apostrophes and hyphens do not (they are inside words). */
const BOUNDARY = /[.,;:!?…—–()[\]{}"“”«»،؛؟¿¡。，、；：！？「」『』]/u;
const HAN_OR_KANA = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]+/gu;
/** Digits and Chinese and Japanese numerals, one character each. */
const DIGIT = /^[\p{N}一二三四五六七八九十百千万]$/u;

/** The last few texts read, so one message read by several rules is split once (and indexed once). */
const recent = new Map<string, Units>();
const RECENT_TEXTS = 16;

export function unitsOf(text: string, matching: Matching): Units {
  const key = `${matching.mode}\u0000${matching.prefixes.join(',')}\u0000${matching.suffixes.join(',')}\u0000${text}`;
  const known = recent.get(key);
  if (known) return known;
  const units = splitUnits(text, matching);
  if (recent.size >= RECENT_TEXTS) recent.delete(recent.keys().next().value ?? '');
  recent.set(key, units);
  return units;
}

function splitUnits(text: string, matching: Matching): Units {
  const folded = fold(text, matching.mode);
  const units: string[] = [];
  const breaks: boolean[] = [];
  if (matching.mode === 'characters') {
    let pending = false;
    let separator = '';
    for (const character of folded) {
      if (BOUNDARY.test(character)) {
        pending = true;
        separator += character;
      } else if (/[\p{L}\p{N}\p{M}]/u.test(character)) {
        const decimal = /^\d$/.test(character) && decimalPoint(units, separator);
        units.push(character);
        breaks.push(pending && !decimal);
        pending = false;
        separator = '';
      }
    }
    return { units, breaks };
  }
  const spaced = folded.replace(HAN_OR_KANA, ' ');
  const joined: boolean[] = [];
  let last = 0;
  for (const match of spaced.matchAll(/[\p{L}\p{N}]+/gu)) {
    const between = spaced.slice(last, match.index);
    const decimal = /^\d/.test(match[0]) && decimalPoint(units, between);
    units.push(match[0]);
    breaks.push(BOUNDARY.test(between) && !decimal);
    joined.push(decimal);
    last = match.index + match[0].length;
  }
  return { units, breaks, joined };
}

/**
 * Whether the text between the last unit and a digit is a decimal point or comma, or a digit group's
 * separator: "13,8" and "4.5" are one number, no clause break (docs/behaviour.md §17.2).
 */
function decimalPoint(units: readonly string[], between: string): boolean {
  return /^[.,'\u066b\u066c]$/u.test(between) && /\d$/.test(units[units.length - 1] ?? '');
}

/** A phrase as the units it must match. */
export function phraseUnits(phrase: string, matching: Matching): string[] {
  return matching.mode === 'characters'
    ? unitsOf(phrase, matching).units.slice()
    : tokenize(fold(phrase, matching.mode));
}

export interface Span {
  readonly start: number;
  readonly end: number;
}

/** Every place a phrase occurs, never across a clause boundary; `affixes`: the language's clitics and endings. */
/**
 * Where each unit could start a phrase: every character of a Chinese or Japanese message, every word of
 * another as the spellings it could stand for without its clitics and endings. A phrase is then tried
 * only where its first unit stands, so a long message costs one lookup per phrase.
 */
const startsByUnit = new WeakMap<Units, ReadonlyMap<string, readonly number[]>>();

function positionsOf(message: Units, matching: Matching): ReadonlyMap<string, readonly number[]> {
  const known = startsByUnit.get(message);
  if (known) return known;
  const positions = new Map<string, number[]>();
  message.units.forEach((unit, index) => {
    const bases = matching.mode === 'characters' ? [unit] : [unit, ...basesOf(unit, matching)];
    for (const base of new Set(bases)) {
      const at = positions.get(base);
      if (at) at.push(index);
      else positions.set(base, [index]);
    }
  });
  startsByUnit.set(message, positions);
  return positions;
}

function occurrencesOf(
  message: Units,
  pattern: readonly string[],
  matching: Matching,
  affixes: boolean,
): Span[] {
  const how: Matching = affixes ? matching : { ...matching, prefixes: [], suffixes: [] };
  const spans: Span[] = [];
  if (pattern.length === 0) return spans;
  const hits = (start: number) =>
    start + pattern.length <= message.units.length &&
    pattern.every(
      (unit, offset) =>
        (offset === 0 || !message.breaks[start + offset]) &&
        (matching.mode === 'characters'
          ? message.units[start + offset] === unit
          : wordMatches(message.units[start + offset] ?? '', unit, how, offset === pattern.length - 1)),
    );
  // A number is never part of a longer one: "88" is not in "188", 「八」 not in 「十八」, "1" not in "1.3".
  const numberCut = (start: number) =>
    matching.mode === 'characters'
      ? (DIGIT.test(pattern[0] ?? '') && DIGIT.test(message.units[start - 1] ?? '')) ||
        (DIGIT.test(pattern[pattern.length - 1] ?? '') &&
          DIGIT.test(message.units[start + pattern.length] ?? ''))
      : (/^\d/.test(pattern[0] ?? '') && message.joined?.[start] === true) ||
        (/\d$/.test(pattern[pattern.length - 1] ?? '') && message.joined?.[start + pattern.length] === true);
  const starts = positionsOf(message, matching).get(pattern[0] ?? '') ?? [];
  for (const start of starts)
    if (hits(start) && !numberCut(start)) spans.push({ start, end: start + pattern.length });
  return spans;
}

export function allOccurrences(
  message: Units,
  patterns: readonly (readonly string[])[],
  matching: Matching,
  affixes = false,
): Span[] {
  return patterns.flatMap((pattern) => occurrencesOf(message, pattern, matching, affixes));
}

/** Where the phrases occur in the message (as units, without affixes). */
export function occurrences(
  message: Units,
  phrases: readonly (readonly string[])[],
  matching: Matching,
): { readonly start: number; readonly end: number }[] {
  return allOccurrences(message, phrases, matching);
}

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

/** Whether any of the phrases occurs in the message (as units, without affixes). */
export function saysAny(
  message: Units,
  phrases: readonly (readonly string[])[],
  matching: Matching,
): boolean {
  return allOccurrences(message, phrases, matching).length > 0;
}

/** Where the first of the phrases occurs, as a unit index; undefined when none does. */
export function firstAt(
  message: Units,
  phrases: readonly (readonly string[])[],
  matching: Matching,
): number | undefined {
  const starts = allOccurrences(message, phrases, matching).map((span) => span.start);
  return starts.length === 0 ? undefined : Math.min(...starts);
}

/** Where the last of the phrases ends, as a unit index; undefined when none occurs. */
export function lastEnd(
  message: Units,
  phrases: readonly (readonly string[])[],
  matching: Matching,
): number | undefined {
  const ends = allOccurrences(message, phrases, matching).map((span) => span.end);
  return ends.length === 0 ? undefined : Math.max(...ends);
}
