import { describe, expect, it } from 'vitest';
import {
  DEFAULT_LOCALE,
  INIT_MARKER,
  LANGUAGES,
  LOCALES,
  initMessage,
  isLocale,
  languageOf,
} from '#contract/languages';

// docs/behaviour.md §9.1: locale → voice → direction.
const SPEC_TABLE = [
  ['en-US', 'Jenny', 'ltr'],
  ['es-ES', 'Elvira', 'ltr'],
  ['pt-BR', 'Francisca', 'ltr'],
  ['fr-FR', 'Denise', 'ltr'],
  ['de-DE', 'Katja', 'ltr'],
  ['it-IT', 'Elsa', 'ltr'],
  ['ar-SA', 'Hamed', 'rtl'],
  ['zh-CN', 'Xiaoxiao', 'ltr'],
  ['ja-JP', 'Nanami', 'ltr'],
  ['he-IL', 'Hila', 'rtl'],
] as const;

describe('the language table', () => {
  it('lists the ten locales of the spec in its order', () => {
    expect(LANGUAGES.map((language) => language.value)).toEqual(SPEC_TABLE.map(([locale]) => locale));
    expect([...LOCALES]).toEqual(SPEC_TABLE.map(([locale]) => locale));
  });

  it.each(SPEC_TABLE)('gives %s the full Azure neural voice %s and direction %s', (locale, voice, dir) => {
    const language = languageOf(locale);
    expect(language.voice).toBe(`${locale}-${voice}Neural`);
    expect(language.dir).toBe(dir);
  });

  it('defaults to en-US', () => {
    expect(DEFAULT_LOCALE).toBe('en-US');
  });

  it('labels every language in its own words and gives each a start phrase', () => {
    const labels = new Set(LANGUAGES.map((language) => language.label));
    expect(labels.size).toBe(LANGUAGES.length);
    for (const language of LANGUAGES) {
      expect(language.startPhrase.trim().length).toBeGreaterThan(5);
      expect(language.startPhrase).not.toContain(INIT_MARKER);
    }
    expect(languageOf('en-US').startPhrase).toBe('Please start the tutoring session.');
  });

  it('builds the init message from the marker and the localized phrase', () => {
    expect(initMessage('en-US')).toBe('__INIT__ Please start the tutoring session.');
    expect(initMessage('fr-FR')).toBe(`__INIT__ ${languageOf('fr-FR').startPhrase}`);
  });

  it('recognises only the ten locales', () => {
    expect(isLocale('he-IL')).toBe(true);
    expect(isLocale('en-GB')).toBe(false);
    expect(isLocale(undefined)).toBe(false);
    expect(() => languageOf('xx-XX' as never)).toThrow(/Unknown locale/);
  });
});
