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
  if (mode === 'characters') return asciiDigits(text.normalize('NFKC')).toLowerCase().replace(/\s+/g, '');
  // Plain ASCII has no marks, ligatures or other scripts' digits to fold: the common case, made cheap.
  if (ASCII.test(text)) return text.toLowerCase();
  return (
    asciiDigits(text)
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

const ASCII = /^[ -~]*$/;

/** Arabic-Indic and extended Arabic-Indic digits as 0–9: "٨٨" is the answer "88" (§15.4). */
function asciiDigits(text: string): string {
  return text
    .replace(/[\u0660-\u0669]/g, (digit) => String(digit.charCodeAt(0) - 0x0660))
    .replace(/[\u06f0-\u06f9]/g, (digit) => String(digit.charCodeAt(0) - 0x06f0));
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

/** Whether one message word is the keyword's word, with a clitic prefix and (on its last word) an ending. */
export function wordMatches(word: string, keyword: string, matching: Matching, last: boolean): boolean {
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

interface IndexedPattern {
  readonly pattern: Pattern;
  /** Which group (topic) the pattern belongs to. */
  readonly owner: number;
}

/**
 * Patterns grouped by owner and looked up by their first word (or first character), so matching a long
 * message costs one lookup per word instead of one comparison per keyword per word.
 */
export interface PatternIndex {
  readonly byFirst: ReadonlyMap<string, readonly IndexedPattern[]>;
}

export function indexPatterns(groups: readonly (readonly Pattern[])[], matching: Matching): PatternIndex {
  const byFirst = new Map<string, IndexedPattern[]>();
  groups.forEach((patterns, owner) => {
    for (const pattern of patterns) {
      const first = matching.mode === 'words' ? pattern.words[0] : pattern.text[0];
      if (first === undefined) continue;
      byFirst.set(first, [...(byFirst.get(first) ?? []), { pattern, owner }]);
    }
  });
  return { byFirst };
}

/** How well each owner's patterns cover the message; owners with no match are absent. */
export function coverAll(
  message: PreparedMessage,
  index: PatternIndex,
  matching: Matching,
): ReadonlyMap<number, Coverage> {
  return matching.mode === 'words' ? coverWords(message, index, matching) : coverCharacters(message, index);
}

/** Whether any pattern of the index occurs in the message. */
export function mentions(message: PreparedMessage, index: PatternIndex, matching: Matching): boolean {
  return coverAll(message, index, matching).size > 0;
}

/** The keyword spellings a message word could stand for once a clitic prefix or an ending is removed. */
export function basesOf(word: string, matching: Matching): Set<string> {
  const bases = new Set<string>();
  for (const prefix of ['', ...matching.prefixes]) {
    if (!word.startsWith(prefix)) continue;
    const rest = word.slice(prefix.length);
    bases.add(rest);
    for (const suffix of matching.suffixes)
      if (rest.endsWith(suffix)) bases.add(rest.slice(0, -suffix.length));
  }
  return bases;
}

function coverWords(
  message: PreparedMessage,
  index: PatternIndex,
  matching: Matching,
): Map<number, Coverage> {
  const covered = new Map<number, { letters: number[]; longest: number }>();
  message.words.forEach((word, start) => {
    for (const base of basesOf(word, matching)) {
      for (const { pattern, owner } of index.byFirst.get(base) ?? []) {
        const size = pattern.words.length;
        // Stryker disable next-line ConditionalExpression,ArithmeticOperator: a shortcut; past the end no word matches.
        if (start + size > message.words.length) continue;
        const hit = pattern.words.every((keyword, offset) =>
          wordMatches(message.words[start + offset] ?? '', keyword, matching, offset === size - 1),
        );
        if (!hit) continue;
        const entry = covered.get(owner) ?? {
          letters: new Array<number>(message.words.length).fill(0),
          longest: 0,
        };
        pattern.words.forEach((keyword, offset) => {
          entry.letters[start + offset] = Math.max(entry.letters[start + offset] ?? 0, keyword.length);
        });
        entry.longest = Math.max(entry.longest, pattern.words.join('').length);
        covered.set(owner, entry);
      }
    }
  });
  return new Map(
    [...covered].map(([owner, entry]) => [
      owner,
      { score: entry.letters.reduce((sum, letters) => sum + letters, 0), longest: entry.longest },
    ]),
  );
}

function coverCharacters(message: PreparedMessage, index: PatternIndex): Map<number, Coverage> {
  const covered = new Map<number, { characters: boolean[]; longest: number }>();
  const text = message.text;
  for (let at = 0; at < text.length; at += 1) {
    for (const { pattern, owner } of index.byFirst.get(text[at] ?? '') ?? []) {
      if (!text.startsWith(pattern.text, at)) continue;
      const entry = covered.get(owner) ?? {
        characters: new Array<boolean>(text.length).fill(false),
        longest: 0,
      };
      entry.characters.fill(true, at, at + pattern.text.length);
      entry.longest = Math.max(entry.longest, pattern.text.length);
      covered.set(owner, entry);
    }
  }
  return new Map(
    [...covered].map(([owner, entry]) => [
      owner,
      { score: entry.characters.filter(Boolean).length, longest: entry.longest },
    ]),
  );
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
