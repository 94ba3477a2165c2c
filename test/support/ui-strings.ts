import { LOCALES, type Locale } from '#contract/languages';
import * as arSA from '#web/i18n/languages/ar-SA';
import * as deDE from '#web/i18n/languages/de-DE';
import * as enUS from '#web/i18n/languages/en-US';
import * as esES from '#web/i18n/languages/es-ES';
import * as frFR from '#web/i18n/languages/fr-FR';
import * as heIL from '#web/i18n/languages/he-IL';
import * as itIT from '#web/i18n/languages/it-IT';
import * as jaJP from '#web/i18n/languages/ja-JP';
import * as ptBR from '#web/i18n/languages/pt-BR';
import * as zhCN from '#web/i18n/languages/zh-CN';
import type { LanguageFile, LanguageFiles } from '#web/i18n/language-strings';
import type { Messages } from '#web/i18n/messages';
import type { StarMessages } from '#web/i18n/star-messages';

/**
 * Every language's UI strings at once, for tests that check the screen in each: the app itself loads one
 * language at a time (web/src/i18n/language-strings.ts).
 */
export const LANGUAGE_FILES: Readonly<Record<Locale, LanguageFile>> = {
  'en-US': enUS,
  'es-ES': esES,
  'pt-BR': ptBR,
  'fr-FR': frFR,
  'de-DE': deDE,
  'it-IT': itIT,
  'ar-SA': arSA,
  'zh-CN': zhCN,
  'ja-JP': jaJP,
  'he-IL': heIL,
};

const each = <T>(pick: (file: LanguageFile) => T): Readonly<Record<Locale, T>> =>
  Object.fromEntries(Object.entries(LANGUAGE_FILES).map(([locale, file]) => [locale, pick(file)])) as Record<
    Locale,
    T
  >;

export const MESSAGES: Readonly<Record<Locale, Messages>> = each((file) => file.messages);
export const STAR_MESSAGES: Readonly<Record<Locale, StarMessages>> = each((file) => file.stars);

export type OtherLocale = Exclude<Locale, 'en-US'>;
export const OTHER_LOCALES = LOCALES.filter((locale): locale is OtherLocale => locale !== 'en-US');

/**
 * Language files the test hands over when it wants (`arrive`), or fails (`fail`): `asked` lists each
 * language the app fetched, in order.
 */
export function scriptedLanguageFiles() {
  const asked: OtherLocale[] = [];
  const pending = new Map<
    OtherLocale,
    { resolve: (file: LanguageFile) => void; reject: (e: Error) => void }
  >();
  const others = Object.fromEntries(
    OTHER_LOCALES.map((locale) => [
      locale,
      () => {
        asked.push(locale);
        return new Promise<LanguageFile>((resolve, reject) => pending.set(locale, { resolve, reject }));
      },
    ]),
  ) as unknown as LanguageFiles['others'];
  const files: LanguageFiles = { english: LANGUAGE_FILES['en-US'], others };
  return {
    files,
    asked,
    arrive: (locale: OtherLocale) => pending.get(locale)?.resolve(LANGUAGE_FILES[locale]),
    fail: (locale: OtherLocale) => pending.get(locale)?.reject(new Error('chunk failed to load')),
  };
}
