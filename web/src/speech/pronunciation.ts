import type { Locale } from '#contract/languages';
import { LEXICON, MESSIER_NUMBER, type NameEntry } from './pronunciation-lexicon';

/**
 * One piece of a sentence as the Azure voice should say it (docs/behaviour.md §17.8): plain text, or a
 * name with its pronunciation. The SSML builder escapes every field; nothing here is markup.
 */
export type SpokenSegment =
  | { readonly kind: 'text'; readonly text: string }
  | {
      readonly kind: 'phoneme';
      readonly text: string;
      readonly alphabet: 'ipa' | 'sapi';
      readonly ph: string;
    }
  | { readonly kind: 'sub'; readonly text: string; readonly alias: string };

/**
 * A speakable sentence (see speakable.ts) cut into segments for Azure: each name of the lexicon becomes
 * an IPA phoneme where the locale's voice takes IPA, Chinese pinyin where a character has several
 * readings, or an alias (the name as the language writes it, or a kanji's kana) where the voice reads
 * that right; "M31" is said "Messier 31".
 */
export function pronounced(text: string, locale: Locale): SpokenSegment[] {
  const segments: SpokenSegment[] = [];
  const plain = (piece: string) => {
    if (piece === '') return;
    const last = segments.at(-1);
    if (last?.kind === 'text') segments[segments.length - 1] = { kind: 'text', text: last.text + piece };
    else segments.push({ kind: 'text', text: piece });
  };
  const matcher = matcherFor(locale);
  const spelled = withMessierSpelled(text, locale);
  let at = 0;
  for (const match of spelled.matchAll(matcher.pattern)) {
    plain(spelled.slice(at, match.index));
    const entry = matcher.entries.get(match[0]);
    // Stryker disable next-line ArrayDeclaration,ObjectLiteral: every match is one of the matcher's spellings.
    const said = entry ? azureSays(entry, locale, match[0]) : [{ kind: 'text' as const, text: match[0] }];
    for (const segment of said) {
      if (segment.kind === 'text') plain(segment.text);
      else segments.push(segment);
    }
    at = match.index + match[0].length;
  }
  plain(spelled.slice(at));
  return segments;
}

/** The same sentence for the browser's own voice, which takes no markup: each name as an alias spelling. */
export function aliased(text: string, locale: Locale): string {
  const matcher = matcherFor(locale);
  return withMessierSpelled(text, locale).replace(matcher.pattern, (found) => {
    const entry = matcher.entries.get(found);
    return entry ? browserSays(entry, locale, found) : found;
  });
}

/** Where the names are in `text` (`[start, end)`), so that no sentence cut falls inside one. */
export function nameSpans(text: string, locale: Locale): Array<readonly [number, number]> {
  const spans: Array<readonly [number, number]> = [];
  for (const match of text.matchAll(matcherFor(locale).pattern)) {
    spans.push([match.index, match.index + match[0].length]);
  }
  for (const match of text.matchAll(MESSIER_NUMBER)) spans.push([match.index, match.index + match[0].length]);
  return spans;
}

function azureSays(entry: NameEntry, locale: Locale, found: string): SpokenSegment[] {
  // Only the IPA locales have an IPA spelling.
  const ipa = (entry.ipa as Readonly<Partial<Record<Locale, string>>>)[locale];
  if (ipa !== undefined) return phonemes(found, ipa);
  // A Chinese name's pinyin is for its one Chinese spelling, and for its Latin ones said in Chinese.
  if (locale === 'zh-CN' && entry.pinyin !== undefined) {
    return [{ kind: 'phoneme', text: found, alphabet: 'sapi', ph: entry.pinyin }];
  }
  const alias = entry.readings?.[found] ?? ownSpelling(entry, locale, found);
  return alias === undefined ? [{ kind: 'text', text: found }] : [{ kind: 'sub', text: found, alias }];
}

function browserSays(entry: NameEntry, locale: Locale, found: string): string {
  return entry.alias[locale] ?? entry.readings?.[found] ?? ownSpelling(entry, locale, found) ?? found;
}

/** The language's own spelling of a name found written another way ("Betelgeuse" in Arabic text). */
function ownSpelling(entry: NameEntry, locale: Locale, found: string): string | undefined {
  const own = entry.written[locale] ?? [];
  return own.includes(found) ? undefined : own[0];
}

/**
 * One phoneme element per written word ("Proxima Centauri"), so each word keeps its own stress; the
 * lexicon gives each written word its own IPA word (pronunciation.test.ts checks every entry).
 */
function phonemes(found: string, ipa: string): SpokenSegment[] {
  const sounds = ipa.split(' ');
  return found.split(' ').flatMap((word, index): SpokenSegment[] => {
    // Stryker disable next-line StringLiteral: the lexicon has an IPA word for every written word.
    const said: SpokenSegment = { kind: 'phoneme', text: word, alphabet: 'ipa', ph: sounds[index] ?? '' };
    return index === 0 ? [said] : [{ kind: 'text', text: ' ' }, said];
  });
}

/** The lexicon's "Messier", as each language writes it. */
const MESSIER = LEXICON.find((entry) => entry.id === 'messier');

/** "M31" → "Messier 31" ("メシエ31"), as the language writes Messier. */
function withMessierSpelled(text: string, locale: Locale): string {
  const spelled = MESSIER?.written[locale]?.[0] ?? 'Messier';
  const gap = locale === 'ja-JP' || locale === 'zh-CN' ? '' : ' ';
  return text.replace(MESSIER_NUMBER, (_all, number: string) => `${spelled}${gap}${number}`);
}

interface Matcher {
  readonly pattern: RegExp;
  readonly entries: ReadonlyMap<string, NameEntry>;
}

const matchers = new Map<Locale, Matcher>();

/** One pattern for every spelling of every name in the locale, longest first, each whole. */
function matcherFor(locale: Locale): Matcher {
  const known = matchers.get(locale);
  // Stryker disable next-line ConditionalExpression: a cache; building the matcher again gives the same one.
  if (known) return known;
  // No spelling names two entries in one language (pronunciation.test.ts checks the lexicon).
  const entries = new Map<string, NameEntry>();
  for (const entry of LEXICON) {
    for (const spelling of [...entry.en, ...(entry.written[locale] ?? [])]) entries.set(spelling, entry);
  }
  // One group per script's word boundary, so each boundary is compiled once, not once per spelling;
  // longest first, so "الشعرى اليمانية" is one name, not "الشعرى" and a word.
  const byBoundary = new Map<string, { readonly after: string; readonly spellings: string[] }>();
  for (const spelling of [...entries.keys()].sort((a, b) => b.length - a.length)) {
    const [before, after] = boundaries(spelling);
    const group = byBoundary.get(before) ?? { after, spellings: [] };
    group.spellings.push(spelling.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    byBoundary.set(before, group);
  }
  const alternatives = [...byBoundary].map(
    ([before, { after, spellings }]) => `${before}(?:${spellings.join('|')})${after}`,
  );
  const matcher = { pattern: new RegExp(alternatives.join('|'), 'gu'), entries };
  matchers.set(locale, matcher);
  return matcher;
}

/**
 * A name is a whole word: not part of a longer word in its own script (Betelgeuse may touch Japanese
 * text, イオ is Io but イオン is "ion"). Chinese and kanji names have no word breaks to respect.
 */
function boundaries(spelling: string): readonly [string, string] {
  for (const script of ['Latin', 'Katakana', 'Arabic', 'Hebrew']) {
    if (new RegExp(`\\p{Script=${script}}`, 'u').test(spelling)) {
      const word = script === 'Katakana' ? `[\\p{Script=Katakana}ー]` : `[\\p{Script=${script}}\\p{N}]`;
      return [`(?<!${word})`, `(?!${word})`];
    }
  }
  return ['', ''];
}
