import type { Locale } from '#contract/languages';
import { SPOKEN_WORDS, UNIT_SYMBOLS, type SpokenWords } from './speakable-words';

/**
 * What is spoken, derived from what is shown (docs/behaviour.md §17.7): markdown is removed (its text is
 * kept), and numbers with their symbols and units are spoken as words in the conversation's language.
 * The transcript keeps the original. Applied to each sentence as it is cut from a streaming reply, it
 * gives the same words as applied to the whole reply (each rule works within a line, and the sentence
 * cutter never separates a number from its unit: `unbreakableSpans`).
 */
export function speakableText(shown: string, locale: Locale): string {
  const words = SPOKEN_WORDS[locale];
  const lines = shown
    .normalize('NFC')
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => unmarkedLine(line, words));
  let text = lines.join('\n');
  text = unmarkedInline(text);
  text = spokenQuantities(text, locale, words);
  return (
    text
      // Stray markdown and symbols a voice would read out or stumble on.
      .replace(/[_#>|~]/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
  );
}

/** Where a cut would separate a number from its exponent or unit (`[start, end)` in `text`). */
export function unbreakableSpans(text: string): Array<readonly [number, number]> {
  const spans: Array<readonly [number, number]> = [];
  for (const match of text.matchAll(QUANTITY)) spans.push([match.index, match.index + match[0].length]);
  return spans;
}

// ---- markdown ----

const FENCE = /^\s*(?:```|~~~)[\w+-]*\s*$/;
const RULE = /^\s{0,3}([-*_])(?:\s*\1){2,}\s*$/;
const TABLE_RULE = /^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$/;
const HEADING = /^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/;
const BULLET = /^\s*(?:[-*+•]|\d{1,3}[.)])\s+(.*)$/;
const QUOTE = /^\s*(?:>\s?)+/;
/** A line already ends in a pause of its own (a stray tilde after it, all markdown leaves, hides nothing). */
const ENDS_IN_PAUSE = /[.!?。！？؟…:;,、，；：]["'”’»)\]~]*$/u;

/** One line without its block markdown; headings, list items and table rows end in a full stop. */
function unmarkedLine(line: string, words: SpokenWords): string {
  if (FENCE.test(line) || RULE.test(line) || TABLE_RULE.test(line)) return '';
  let text = line.replace(QUOTE, '');
  let block = false;
  const item = HEADING.exec(text) ?? BULLET.exec(text);
  if (item) {
    // Stryker disable next-line StringLiteral: both patterns always capture the item's text.
    text = item[1] ?? '';
    block = true;
  } else if (/^\s*\|.*\|\s*$/.test(text)) {
    text = text
      .split('|')
      .map((cell) => cell.trim())
      .filter((cell) => cell !== '')
      .join(', ');
    block = true;
  }
  text = text.trim();
  if (block && text !== '' && !ENDS_IN_PAUSE.test(unmarkedInline(text))) {
    text += words.fullStop;
  }
  return text;
}

/** Images and links become their text, code its text; tags and emphasis marks go. */
function unmarkedInline(text: string): string {
  return (
    text
      .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
      .replace(/\[([^\]]+)\]\[[^\]]*\]/g, '$1')
      .replace(/<\/?[a-zA-Z][^<>]*>/g, ' ')
      // Code marks go and their text stays ("`M31`" is M31); a fence's language name is said as text.
      .replace(/`/g, '')
      .replace(/~~/g, '')
      // "3*10^8" is a product, not emphasis.
      .replace(/(\d)\s*\*\s*(?=10\^)/g, '$1 × ')
      .replace(/\*/g, '')
      // Emphasis underscores: not the ones inside a word (snake_case, said as two words).
      .replace(/(?<![\p{L}\p{N}_])_+|_+(?![\p{L}\p{N}_])/gu, '')
  );
}

// ---- numbers, symbols and units ----

const D = '[0-9٠-٩۰-۹]';
const NUMBER = `${D}+(?:[.,\\u00a0\\u202f ]${D}{3}(?!${D}))*(?:[.,]${D}+)?`;
const EXPONENT = `[-+]?${D}+`;
const UNITS = Object.keys(UNIT_SYMBOLS)
  .sort((a, b) => b.length - a.length)
  .map((symbol) => symbol.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))
  .join('|');
/** "150 million km", "150 millones de km", "5000万km": the unit still belongs to the number. */
const SCALES =
  '(?:thousand|million|billion|trillion|mil millones|millones|millón|milhões|milhão|bilhões|bilhão|' +
  'milliards|milliard|millions|Milliarden|Milliarde|Millionen|Million|Tausend|miliardi|miliardo|' +
  'milioni|milione|mila|mille|mil)(?![\\p{L}])(?:[ \\u00a0](?:de|di|of)(?![\\p{L}]))?|[万億亿]';
/**
 * A number with what goes with it: `~`/`≈` and a minus before it, `× 10^n`, `x10^n`, `e-n` or `^n` after it,
 * `± error`, a scale word, then a unit. Never the digits of a name such as M31 (a Latin letter before
 * them); Chinese and Japanese text may touch the number and the unit.
 */
const QUANTITY = new RegExp(
  `(?:(?<approx>[~≈∼])[ \\u00a0]?)?(?:(?<![\\p{L}\\p{N}])(?<sign>-))?(?<![\\p{Script=Latin}\\p{N}.,])(?<number>${NUMBER})` +
    `(?:[ \\u00a0]?[×xX·*][ \\u00a0]?10[ \\u00a0]?\\^[ \\u00a0]?\\(?(?<scientific>${EXPONENT})\\)?` +
    `|[eE](?<eNotation>${EXPONENT})(?![\\p{Script=Latin}\\p{N}])` +
    `|\\^\\(?(?<power>${EXPONENT})\\)?)?` +
    `(?:[ \\u00a0]?±[ \\u00a0]?(?<error>${NUMBER}))?` +
    `(?<scale>[ \\u00a0]?(?:${SCALES}))?` +
    `(?:[ \\u00a0\\u202f]?(?<unit>${UNITS})(?![\\p{Script=Latin}\\p{N}_]))?`,
  'gu',
);

function spokenQuantities(text: string, locale: Locale, words: SpokenWords): string {
  const plural = pluralRules(locale);
  const spoken = text
    // "10⁸" is "10^8" (NFKC lowers raised digits and signs; its minus is U+2212, as below).
    .replace(/(\d)([⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)/g, (_all, digit: string, raised: string) => {
      return `${digit}^${raised.normalize('NFKC')}`;
    })
    // The minus sign a voice may not read.
    .replace(/\u2212/g, '-')
    .replace(QUANTITY, (...args: unknown[]) => {
      const groups = args.at(-1) as QuantityGroups;
      return spokenQuantity(groups, words, plural);
    });
  const { gap } = words;
  return spoken
    .replace(/\s*×\s*/g, `${gap}${words.times}${gap}`)
    .replace(/\s*≈\s*/g, `${gap}${words.approximately.replace('{n}', '')}${gap}`)
    .replace(/\s*±\s*/g, `${gap}${words.plusOrMinus}${gap}`);
}

interface QuantityGroups {
  readonly approx?: string;
  readonly sign?: string;
  readonly number: string;
  readonly scientific?: string;
  readonly eNotation?: string;
  readonly power?: string;
  readonly error?: string;
  readonly scale?: string;
  readonly unit?: string;
}

function spokenQuantity(groups: QuantityGroups, words: SpokenWords, plural: PluralOf): string {
  const { gap } = words;
  const exponent = (value: string) =>
    value.startsWith('-') ? `${words.minus}${gap}${value.slice(1)}` : value.replace('+', '');
  let said = `${groups.sign ?? ''}${groups.number}`;
  const tenTo = groups.scientific ?? groups.eNotation;
  if (tenTo !== undefined) {
    said = `${said}${gap}${words.times}${gap}${phrase(words.power, { base: '10', exponent: exponent(tenTo) })}`;
  } else if (groups.power !== undefined) {
    said = phrase(words.power, { base: said, exponent: exponent(groups.power) });
  }
  if (groups.error !== undefined) said = `${said}${gap}${words.plusOrMinus}${gap}${groups.error}`;
  if (groups.scale !== undefined) said = `${said}${groups.scale}`;
  // Stryker disable next-line ConditionalExpression: UNIT_SYMBOLS has no entry for undefined either way.
  const unit = groups.unit === undefined ? undefined : UNIT_SYMBOLS[groups.unit];
  if (unit !== undefined) {
    // "1.5 × 10^8 kilometres", "1 million kilometres": never one, two or a few.
    const large = tenTo !== undefined || groups.power !== undefined || groups.scale !== undefined;
    const forms = words.units[unit];
    said = phrase(large ? forms.other : (forms[plural(groups.number)] ?? forms.other), { n: said });
  }
  if (groups.approx !== undefined) {
    said = phrase(groups.approx === '≈' ? words.approximately : words.about, { n: said });
  }
  return said;
}

function phrase(template: string, values: Readonly<Record<string, string>>): string {
  // Stryker disable next-line StringLiteral: every template names only the values it is given.
  return template.replace(/\{(\w+)\}/g, (_all, key: string) => values[key] ?? '');
}

type PluralOf = (written: string) => Intl.LDMLPluralRule;

/** Decimal comma languages write 1,5 and 1.000; the others 1.5 and 1,000. */
const DECIMAL_COMMA = new Set<Locale>(['es-ES', 'pt-BR', 'fr-FR', 'de-DE', 'it-IT']);

/** The plural category of a number as written ("1 kilometre", "1.0 kilometres", "5 kilometres"). */
function pluralRules(locale: Locale): PluralOf {
  const decimalComma = DECIMAL_COMMA.has(locale);
  return (written) => {
    const digits = written
      .replace(/[٠-٩]/g, (d) => String(d.charCodeAt(0) - 0x660))
      .replace(/[۰-۹]/g, (d) => String(d.charCodeAt(0) - 0x6f0))
      .replace(/[\u00a0\u202f ]/g, '');
    const { whole, fraction } = splitNumber(digits, decimalComma);
    // Digits only, so a number (Infinity past 10^308, which every language calls 'other').
    const value = Number(`${whole}.${fraction}`);
    return new Intl.PluralRules(locale, { minimumFractionDigits: fraction.length }).select(value);
  };
}

/** Which separator is the decimal point: the last one, unless it groups thousands in this language. */
function splitNumber(digits: string, decimalComma: boolean): { whole: string; fraction: string } {
  const separators = [...digits.matchAll(/[.,]/g)];
  const last = separators.at(-1);
  if (!last) return { whole: digits, fraction: '' };
  const grouping = decimalComma ? '.' : ',';
  const after = digits.slice(last.index + 1);
  const mixed = new Set(separators.map((match) => match[0])).size > 1;
  const repeated = separators.length > 1 && !mixed;
  const groupsThousands = last[0] === grouping && after.length === 3;
  if (repeated || (!mixed && groupsThousands)) return { whole: digits.replace(/[.,]/g, ''), fraction: '' };
  return { whole: digits.slice(0, last.index).replace(/[.,]/g, ''), fraction: after };
}
