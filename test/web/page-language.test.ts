import { describe, expect, it } from 'vitest';
import { LOCALES } from '#contract/languages';
import { pageLanguage } from '#web/i18n/page-language';

// The language the page opens in (docs/behaviour.md §2.24): the browser's first preferred language that
// Astro speaks, else English.

describe('the language the page opens in', () => {
  it.each(LOCALES)('is %s for a browser that prefers it', (locale) => {
    expect(pageLanguage([locale])).toBe(locale);
    expect(pageLanguage([locale.toLowerCase()])).toBe(locale);
  });

  it('takes the same language in another region, or without one', () => {
    expect(pageLanguage(['es-MX'])).toBe('es-ES');
    expect(pageLanguage(['pt-PT'])).toBe('pt-BR');
    expect(pageLanguage(['fr-CA'])).toBe('fr-FR');
    expect(pageLanguage(['de'])).toBe('de-DE');
    expect(pageLanguage(['ar-EG'])).toBe('ar-SA');
    expect(pageLanguage(['zh-TW'])).toBe('zh-CN');
    expect(pageLanguage(['ja'])).toBe('ja-JP');
    expect(pageLanguage(['he'])).toBe('he-IL');
    expect(pageLanguage(['en-GB'])).toBe('en-US');
  });

  it('follows the order of preference, skipping languages Astro does not speak', () => {
    expect(pageLanguage(['nl-NL', 'ko', 'it-CH', 'fr-FR'])).toBe('it-IT');
    expect(pageLanguage(['en-GB', 'ar-SA'])).toBe('en-US');
    expect(pageLanguage(['ar', 'en-US'])).toBe('ar-SA');
  });

  it('is English when the browser prefers none of the ten, or says nothing', () => {
    expect(pageLanguage(['nl-NL', 'ko-KR'])).toBe('en-US');
    expect(pageLanguage([])).toBe('en-US');
    expect(pageLanguage([''])).toBe('en-US');
  });
});
