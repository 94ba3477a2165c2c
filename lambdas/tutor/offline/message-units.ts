/**
 * A learner's message as units (docs/behaviour.md §17.2): words in spaced scripts and characters in Chinese
 * and Japanese, with where a clause boundary falls, and where phrases occur in it. Shared by reading an
 * answer, detecting a question's shape and the learner's own questions.
 */
import { basesOf, fold, tokenize, wordMatches, type Matching } from './matcher';

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
  how: Matching,
  starts: readonly number[],
  spans: Span[],
): void {
  const last = pattern.length - 1;
  const hits = (start: number) =>
    start + pattern.length <= message.units.length &&
    pattern.every(
      (unit, offset) =>
        (offset === 0 || !message.breaks[start + offset]) &&
        (matching.mode === 'characters'
          ? message.units[start + offset] === unit
          : wordMatches(message.units[start + offset] ?? '', unit, how, offset === last)),
    );
  // A number is never part of a longer one: "88" is not in "188", 「八」 not in 「十八」, "1" not in "1.3".
  const numberCut = (start: number) =>
    matching.mode === 'characters'
      ? (DIGIT.test(pattern[0] ?? '') && DIGIT.test(message.units[start - 1] ?? '')) ||
        (DIGIT.test(pattern[last] ?? '') && DIGIT.test(message.units[start + pattern.length] ?? ''))
      : (/^\d/.test(pattern[0] ?? '') && message.joined?.[start] === true) ||
        (/\d$/.test(pattern[last] ?? '') && message.joined?.[start + pattern.length] === true);
  for (const start of starts)
    if (hits(start) && !numberCut(start)) spans.push({ start, end: start + pattern.length });
}

/**
 * Every place each pattern occurs, never across a clause boundary; `affixes`: the language's clitics and
 * endings. Most patterns start with a unit the message does not have: those cost one lookup.
 */
export function allOccurrences(
  message: Units,
  patterns: readonly (readonly string[])[],
  matching: Matching,
  affixes = false,
): Span[] {
  const positions = positionsOf(message, matching);
  const how: Matching = affixes ? matching : { ...matching, prefixes: [], suffixes: [] };
  const spans: Span[] = [];
  for (const pattern of patterns) {
    const starts = positions.get(pattern[0] ?? '');
    if (starts) occurrencesOf(message, pattern, matching, how, starts, spans);
  }
  return spans;
}

/** Where the phrases occur in the message (as units, without affixes). */
export function occurrences(
  message: Units,
  phrases: readonly (readonly string[])[],
  matching: Matching,
): { readonly start: number; readonly end: number }[] {
  return allOccurrences(message, phrases, matching);
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
