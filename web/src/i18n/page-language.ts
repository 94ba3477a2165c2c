import { DEFAULT_LOCALE, LOCALES, type Locale } from '#contract/languages';

/**
 * The language the page opens in (docs/behaviour.md §2.24): the first of the languages asked for (the
 * link's `?lang=`) that Astro speaks, the exact locale or the same language in another region ("es-MX" is
 * Spanish, "pt-PT" Brazilian Portuguese, "zh-TW" the Simplified Chinese Astro speaks); English, the
 * default, when none is.
 */
export function pageLanguage(preferred: readonly string[]): Locale {
  for (const tag of preferred) {
    const wanted = tag.trim().toLowerCase();
    const exact = LOCALES.find((locale) => locale.toLowerCase() === wanted);
    if (exact) return exact;
    const language = wanted.split(/[-_]/)[0];
    const same = LOCALES.find((locale) => locale.toLowerCase().split('-')[0] === language);
    if (same) return same;
  }
  return DEFAULT_LOCALE;
}

/**
 * The language a link asks for (`?lang=ar-SA`, §2.24), e.g. a teacher's link for an Arabic class; none
 * without one. The browser's own languages are not used: the default language is en-US (§2.4).
 */
export function linkedLanguages(search: string): string[] {
  const asked = new URLSearchParams(search).get('lang');
  return asked ? [asked] : [];
}
