/**
 * Keyword matching for the offline tutor. Text is folded (case, accents, Arabic and Hebrew diacritics)
 * the same way on both sides; spaced scripts are compared word by word, Chinese and Japanese (no spaces)
 * by substring. A topic's score is how much of the message its keywords cover, so a longer, more specific
 * keyword ("black hole") outweighs a shorter one ("hole"), and one word is never counted twice.
 */
import type { LocaleKnowledge } from './knowledge-schema';

export type MatchMode = LocaleKnowledge['matching']['mode'];

/** Folds text for comparison. `characters` mode keeps kana voicing marks, which change the word. */
export function fold(text: string, mode: MatchMode): string {
  if (mode === 'characters') return text.normalize('NFKC').toLowerCase().replace(/\s+/g, '');
  return (
    text
      .normalize('NFKD')
      // Combining marks: Latin accents, Arabic harakat and hamza forms, Hebrew niqqud.
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .replace(/ß/g, 'ss')
      .replace(/œ/g, 'oe')
      .replace(/æ/g, 'ae')
      // Arabic spelling variants learners and recognisers mix: tatweel, ta marbuta, alef maqsura.
      .replace(/\u0640/g, '')
      .replace(/\u0629/g, '\u0647')
      .replace(/\u0649/g, '\u064a')
  );
}

/**
 * Splits folded text into words. Chinese and Japanese runs count as separators: words-mode keywords never
 * contain them, and this lets "Mars是什么" still yield "mars" when English keywords are tried.
 */
export function tokenize(folded: string): string[] {
  return folded
    .replace(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]+/gu, ' ')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((token) => token.length > 0);
}

/** A phrase prepared once for matching: its folded words, or its folded characters. */
export interface Pattern {
  readonly words: readonly string[];
  readonly text: string;
}

export interface Matching {
  readonly mode: MatchMode;
  readonly prefixes: readonly string[];
  readonly suffixes: readonly string[];
}

export function compilePattern(phrase: string, matching: Matching): Pattern {
  const text = fold(phrase, matching.mode);
  return { words: matching.mode === 'words' ? tokenize(text) : [], text };
}

/** A message prepared once: folded, and split into words for spaced scripts. */
export interface PreparedMessage {
  readonly text: string;
  readonly words: readonly string[];
}

export function prepareMessage(message: string, matching: Matching): PreparedMessage {
  const text = fold(message, matching.mode);
  return { text, words: matching.mode === 'words' ? tokenize(text) : [] };
}

function wordMatches(word: string, keyword: string, matching: Matching, last: boolean): boolean {
  const endings = last ? ['', ...matching.suffixes] : [''];
  for (const prefix of ['', ...matching.prefixes]) {
    if (!word.startsWith(prefix)) continue;
    const rest = word.slice(prefix.length);
    if (endings.some((ending) => rest === keyword + ending)) return true;
  }
  return false;
}

export interface Coverage {
  /** How much of the message the patterns cover (letters of the keywords, each position counted once). */
  readonly score: number;
  /** The longest single pattern that matched: a tie-breaker favouring specific keywords. */
  readonly longest: number;
}

/** How well `patterns` cover `message`; a score of 0 means no pattern matched. */
export function cover(message: PreparedMessage, patterns: readonly Pattern[], matching: Matching): Coverage {
  return matching.mode === 'words'
    ? coverWords(message, patterns, matching)
    : coverCharacters(message, patterns);
}

function coverWords(message: PreparedMessage, patterns: readonly Pattern[], matching: Matching): Coverage {
  const covered = new Array<number>(message.words.length).fill(0);
  let longest = 0;
  for (const pattern of patterns) {
    const size = pattern.words.length;
    if (size === 0) continue;
    for (let start = 0; start + size <= message.words.length; start += 1) {
      const hit = pattern.words.every((keyword, offset) =>
        wordMatches(message.words[start + offset] ?? '', keyword, matching, offset === size - 1),
      );
      if (!hit) continue;
      pattern.words.forEach((keyword, offset) => {
        covered[start + offset] = Math.max(covered[start + offset] ?? 0, keyword.length);
      });
      longest = Math.max(longest, pattern.words.join('').length);
    }
  }
  return { score: covered.reduce((sum, letters) => sum + letters, 0), longest };
}

function coverCharacters(message: PreparedMessage, patterns: readonly Pattern[]): Coverage {
  const covered = new Array<boolean>(message.text.length).fill(false);
  let longest = 0;
  for (const pattern of patterns) {
    if (pattern.text.length === 0) continue;
    for (
      let at = message.text.indexOf(pattern.text);
      at >= 0;
      at = message.text.indexOf(pattern.text, at + 1)
    ) {
      covered.fill(true, at, at + pattern.text.length);
      longest = Math.max(longest, pattern.text.length);
    }
  }
  return { score: covered.filter(Boolean).length, longest };
}

/** Orders candidates best first: higher score, then longer keyword, then priority, then data order. */
export function compareCandidates(
  a: Coverage & { priority: number; order: number },
  b: Coverage & { priority: number; order: number },
): number {
  return b.score - a.score || b.longest - a.longest || b.priority - a.priority || a.order - b.order;
}

/** FNV-1a: a small stable hash so the same message always gets the same suggestions. */
export function stableHash(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
