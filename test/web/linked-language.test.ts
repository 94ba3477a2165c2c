import { describe, expect, it } from 'vitest';
import { linkedLanguages, pageLanguage } from '#web/i18n/page-language';

// The page opens in English unless its link asks for a language (docs/behaviour.md §2.24).
describe('linkedLanguages', () => {
  it('reads the language a link asks for', () => {
    expect(linkedLanguages('?lang=ar-SA')).toEqual(['ar-SA']);
    expect(pageLanguage(linkedLanguages('?level=child&lang=es-MX'))).toBe('es-ES');
  });

  it('asks for none without ?lang=, so the page opens in English', () => {
    expect(linkedLanguages('')).toEqual([]);
    expect(linkedLanguages('?lang=')).toEqual([]);
    expect(pageLanguage(linkedLanguages(''))).toBe('en-US');
    expect(pageLanguage(linkedLanguages('?lang=nl-NL'))).toBe('en-US');
  });
});
