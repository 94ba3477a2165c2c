/**
 * The words a language's lessons use, gathered once per language when first needed: a message made
 * mostly of words Astro has never used ("blorp zibble wakka moon cheese") is not a question Astro can
 * answer with confidence, and a word of the lessons is never read as a learner's typo of an answer
 * (docs/behaviour.md §15.4, §17.2).
 */
import { unitsOf } from './message-units';
import type { LocaleKnowledge } from './knowledge-schema';
import { basesOf, fold, tokenize, type Matching } from './matcher';

export interface Vocabulary {
  /** Whether the word (folded, as the message reader splits it) occurs in the lessons. */
  readonly has: (word: string) => boolean;
  /** The share (0–1) of the message's words (or, in Chinese and Japanese, its characters) it knows. */
  readonly knownShare: (message: string) => number;
}

const vocabularies = new WeakMap<LocaleKnowledge, Vocabulary>();

/** Every string of the lesson file, templates, phrase lists and keywords included. */
function stringsOf(value: unknown, into: string[]): string[] {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const item of value) stringsOf(item, into);
  else if (value && typeof value === 'object') for (const item of Object.values(value)) stringsOf(item, into);
  return into;
}

export function vocabularyOf(data: LocaleKnowledge): Vocabulary {
  const known = vocabularies.get(data);
  if (known) return known;
  const { matching } = data;
  const words = new Set<string>();
  for (const text of stringsOf(data, [])) {
    const folded = fold(text, matching.mode);
    if (matching.mode === 'words') for (const word of tokenize(folded)) words.add(word);
    else for (const character of folded) words.add(character);
  }
  const has = (word: string) =>
    words.has(word) ||
    (matching.mode === 'words' && [...basesOf(word, matching)].some((base) => words.has(base)));
  const vocabulary: Vocabulary = { has, knownShare: (message) => share(message, matching, has) };
  vocabularies.set(data, vocabulary);
  return vocabulary;
}

function share(message: string, matching: Matching, has: (word: string) => boolean): number {
  const { units } = unitsOf(message, matching);
  // Digits say nothing about whether the words are real: "2+2" is all numbers.
  const words = units.filter((unit) => !/^\p{N}+$/u.test(unit));
  if (words.length === 0) return 1;
  return words.filter(has).length / words.length;
}
