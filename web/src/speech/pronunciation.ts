import type { Locale } from '#contract/languages';
import { LEXICON, MESSIER_NUMBER, type IpaLocale, type NameEntry } from './pronunciation-lexicon';

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
    for (const segment of entry
      ? azureSays(entry, locale, match[0])
      : [{ kind: 'text' as const, text: match[0] }]) {
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
  const ipa = isIpaLocale(locale) ? entry.ipa[locale] : undefined;
  if (ipa !== undefined) return phonemes(found, ipa);
  const own = entry.written[locale];
  const foreign = own !== undefined && !own.includes(found);
  if (locale === 'zh-CN' && entry.pinyin !== undefined && (foreign || own?.[0] === found)) {
    return [{ kind: 'phoneme', text: found, alphabet: 'sapi', ph: entry.pinyin }];
  }
  const reading = entry.readings?.[found];
  if (reading !== undefined) return [{ kind: 'sub', text: found, alias: reading }];
  if (foreign && own[0] !== undefined) return [{ kind: 'sub', text: found, alias: own[0] }];
  return [{ kind: 'text', text: found }];
}

function browserSays(entry: NameEntry, locale: Locale, found: string): string {
  const alias = entry.alias[locale];
  if (alias !== undefined) return alias;
  const reading = entry.readings?.[found];
  if (reading !== undefined) return reading;
  const own = entry.written[locale];
  return own !== undefined && !own.includes(found) && own[0] !== undefined ? own[0] : found;
}

/** One phoneme element per written word ("Proxima Centauri"), so each word keeps its own stress. */
function phonemes(found: string, ipa: string): SpokenSegment[] {
  const words = found.split(' ');
  const sounds = ipa.split(' ');
  if (words.length !== sounds.length) return [{ kind: 'phoneme', text: found, alphabet: 'ipa', ph: ipa }];
  return words.flatMap((word, index): SpokenSegment[] => {
    const said: SpokenSegment = { kind: 'phoneme', text: word, alphabet: 'ipa', ph: sounds[index] ?? '' };
    return index === 0 ? [said] : [{ kind: 'text', text: ' ' }, said];
  });
}

function isIpaLocale(locale: Locale): locale is IpaLocale {
  return locale !== 'ar-SA' && locale !== 'he-IL' && locale !== 'ja-JP' && locale !== 'zh-CN';
}

/** "M31" → "Messier 31" ("メシエ31"), as the language writes Messier. */
function withMessierSpelled(text: string, locale: Locale): string {
  const messier = LEXICON.find((entry) => entry.id === 'messier');
  const spelled = messier?.written[locale]?.[0] ?? messier?.en[0] ?? 'Messier';
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
  if (known) return known;
  const entries = new Map<string, NameEntry>();
  for (const entry of LEXICON) {
    for (const spelling of [...entry.en, ...(entry.written[locale] ?? [])]) {
      if (!entries.has(spelling)) entries.set(spelling, entry);
    }
  }
  // One group per kind of word boundary, so each boundary is compiled once, not once per spelling.
  const byBoundary = new Map<string, string[]>();
  for (const spelling of [...entries.keys()].sort((a, b) => b.length - a.length)) {
    const [before, after] = boundaries(spelling);
    const key = `${before}\n${after}`;
    byBoundary.set(key, [...(byBoundary.get(key) ?? []), spelling.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')]);
  }
  const alternatives = [...byBoundary].map(([key, spellings]) => {
    const [before = '', after = ''] = key.split('\n');
    return `${before}(?:${spellings.join('|')})${after}`;
  });
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
