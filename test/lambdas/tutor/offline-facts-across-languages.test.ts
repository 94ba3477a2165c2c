/**
 * The same facts in every language (docs/behaviour.md §15.9): each topic has as many facts in every
 * language, in the same order, and every number a translation states is one the English master states
 * (the same figure whatever its notation: 4.6 / 4,6, 384,400 / 384.400 / 38.44万, 1億5000万, ٣٦٥). English
 * is the master because it also gives miles; small counts (1 to 12) may be words in one language and
 * digits in another, so they are compared one way only.
 */
import { describe, expect, it } from 'vitest';
import { LOCALES, type Locale } from '#contract/languages';
import { LEVELS, type Level } from '#contract/teaching';
import { loadKnowledge } from '#lambdas/tutor/offline/knowledge';
import type { FactText } from '#lambdas/tutor/offline/knowledge-schema';

const knowledge = loadKnowledge();
const english = knowledge.locales['en-US'];

const CJK_UNITS: Readonly<Record<string, number>> = { 千: 1e3, 万: 1e4, 億: 1e8, 亿: 1e8, 兆: 1e12 };
const CJK_NUMBER = /\d+(?:\.\d+)?[千万億亿兆](?:\d+(?:\.\d+)?[千万億亿兆]?)*/gu;

/** "38万4千" as 384000, "1億5000万" as 150000000: Chinese and Japanese write large numbers in units. */
function plainCjkNumbers(text: string): string {
  return text.replace(CJK_NUMBER, (written) => {
    let total = 0;
    for (const [, digits, unit] of written.matchAll(/(\d+(?:\.\d+)?)([千万億亿兆]?)/gu))
      total += Number(digits) * (unit ? (CJK_UNITS[unit] ?? 1) : 1);
    return String(Math.round(total * 1000) / 1000);
  });
}

/** English words for numbers the other languages write in digits. */
function plainEnglishNumbers(text: string): string {
  return text
    .replace(/\bone and a half\b/giu, '1.5')
    .replace(/\ba (hundred|thousand|million|billion|trillion)\b/giu, '1 $1');
}

/**
 * A number's significant digits, whatever its separators and trailing zeros: 4,600 million and 4.6 billion
 * are both "46". `smallAsWords` leaves out whole numbers up to 12.
 */
function figures(text: string, locale: Locale, smallAsWords: boolean): Set<string> {
  let plain = text.replace(/[٠-٩]/gu, (digit) => String(digit.charCodeAt(0) - 0x660));
  if (locale === 'zh-CN' || locale === 'ja-JP') plain = plainCjkNumbers(plain);
  if (locale === 'en-US') plain = plainEnglishNumbers(plain);
  const found = new Set<string>();
  for (const [written] of plain.matchAll(/\d+(?:[.,\u00a0\u202f ]\d+)*/gu)) {
    const digits = written.replace(/\D/gu, '').replace(/0+$/u, '');
    if (!digits) continue;
    if (smallAsWords && /^\d+$/u.test(written) && Number(written) <= 12) continue;
    found.add(digits);
  }
  return found;
}

const textAt = (fact: FactText, level: Level) =>
  level === 'adult' ? (fact.adult ?? fact.teen) : fact[level];

describe('the facts of every topic, across the ten languages', () => {
  it('reads a figure the same in every notation', () => {
    expect([...figures('about 4.6 billion years and 384,400 km', 'en-US', false)]).toEqual(['46', '3844']);
    expect([...figures('unos 4600 millones de años y 384.400 km', 'es-ES', true)]).toEqual(['46', '3844']);
    expect([...figures('约38.44万公里，1億5000万', 'zh-CN', true)]).toEqual(['3844', '15']);
    expect([...figures('٣٦٥ يوماً و8 دقائق', 'ar-SA', true)]).toEqual(['365']);
    expect([...figures('a million stars, one and a half times', 'en-US', false)]).toEqual(['1', '15']);
  });

  it.each(LOCALES.filter((locale) => locale !== 'en-US'))(
    'gives %s as many facts per topic as English, each stating only English figures',
    (locale) => {
      const data = knowledge.locales[locale];
      for (const [id, master] of Object.entries(english.topics)) {
        const facts = data.topics[id]?.facts ?? [];
        expect({ id, facts: facts.length }).toEqual({ id, facts: master.facts.length });
        master.facts.forEach((fact, at) => {
          const translated = facts[at];
          if (!translated) return;
          expect({ id, at, shape: translated.shape }).toEqual({ id, at, shape: fact.shape });
          for (const level of LEVELS) {
            const stated = figures(textAt(fact, level), 'en-US', false);
            const extra = [...figures(textAt(translated, level), locale, true)].filter(
              (figure) => !stated.has(figure),
            );
            expect({ id, at, level, extra }).toEqual({ id, at, level, extra: [] });
          }
        });
      }
    },
  );
});
