import { describe, expect, it } from 'vitest';
import { LOCALES } from '#contract/languages';
import { FEEDBACK_HISTORY_MAX_MESSAGES } from '#contract/limits';
import { pluralOf, STAR_MESSAGES } from '#web/i18n/star-messages';

// docs/behaviour.md §2.23: the star count's name and its announcement, in each language's plural forms.
describe('the words for stars', () => {
  it.each(LOCALES)('%s has its own form for every plural category a star count can reach', (locale) => {
    const rules = new Intl.PluralRules(locale);
    for (let n = 1; n <= FEEDBACK_HISTORY_MAX_MESSAGES; n += 1) {
      const category = rules.select(n);
      const { count, earned } = STAR_MESSAGES[locale];
      expect(count[category], `${locale} count, ${n} (${category})`).toBeDefined();
      expect(earned[category], `${locale} earned, ${n} (${category})`).toBeDefined();
    }
  });

  it.each(LOCALES)('%s announces a star with the number its badge names, in different words', (locale) => {
    for (const n of [1, 2, 3, 11, 21, 100, 200]) {
      const count = pluralOf(locale, STAR_MESSAGES[locale].count, n);
      const earned = pluralOf(locale, STAR_MESSAGES[locale].earned, n);
      expect(count).not.toContain('{n}');
      expect(earned).not.toContain('{n}');
      expect(earned).not.toBe(count);
      // Where the language writes the number in digits (Arabic and Hebrew say one and two in words).
      const digits = new Intl.NumberFormat(locale).format(n);
      if (n > 2) {
        expect(count).toContain(digits);
        expect(earned).toContain(digits);
      }
    }
  });

  it('follows each language’s grammar', () => {
    expect(pluralOf('en-US', STAR_MESSAGES['en-US'].earned, 1)).toBe('Correct! 1 star');
    expect(pluralOf('en-US', STAR_MESSAGES['en-US'].earned, 3)).toBe('Correct! 3 stars');
    expect(pluralOf('en-US', STAR_MESSAGES['en-US'].count, 1)).toBe('1 star earned');
    expect(pluralOf('en-US', STAR_MESSAGES['en-US'].count, 3)).toBe('3 stars earned');
    expect(pluralOf('fr-FR', STAR_MESSAGES['fr-FR'].count, 1)).toBe('1 étoile gagnée');
    expect(pluralOf('fr-FR', STAR_MESSAGES['fr-FR'].count, 2)).toBe('2 étoiles gagnées');
    expect(pluralOf('es-ES', STAR_MESSAGES['es-ES'].count, 1)).toBe('1 estrella ganada');
    expect(pluralOf('de-DE', STAR_MESSAGES['de-DE'].count, 1)).toBe('1 verdienter Stern');
    expect(pluralOf('de-DE', STAR_MESSAGES['de-DE'].count, 3)).toBe('3 verdiente Sterne');
    expect(pluralOf('ja-JP', STAR_MESSAGES['ja-JP'].earned, 3)).toBe('正解！星3個');
    // Arabic: the dual in words, 3–10 with the plural, 11–99 with the singular, the adjective agreeing;
    // Arabic-Indic digits.
    expect(pluralOf('ar-SA', STAR_MESSAGES['ar-SA'].count, 2)).toBe('نجمتان مكتسبتان');
    expect(pluralOf('ar-SA', STAR_MESSAGES['ar-SA'].count, 3)).toBe('٣ نجوم مكتسبة');
    expect(pluralOf('ar-SA', STAR_MESSAGES['ar-SA'].count, 11)).toBe('١١ نجمة مكتسبة');
    expect(pluralOf('he-IL', STAR_MESSAGES['he-IL'].count, 2)).toBe('שני כוכבים שנצברו');
  });
});
