import { DEFAULT_LOCALE, LOCALES, type Locale } from '#contract/languages';

/**
 * The language the page opens in (docs/behaviour.md §2.24): the first of the browser's preferred
 * languages (`navigator.languages`, most wanted first) that Astro speaks, the exact locale or the same
 * language in another region ("es-MX" is Spanish, "pt-PT" Brazilian Portuguese, "zh-TW" the Simplified
 * Chinese Astro speaks); English when none is.
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
