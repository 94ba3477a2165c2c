import { useEffect, useLayoutEffect, useState, useSyncExternalStore } from 'react';
import { languageOf, type Locale } from '#contract/languages';
import { languageStrings, type LanguageStrings, type UiStrings } from './language-strings';

/**
 * The UI strings for the chosen language (docs/behaviour.md §2.24): its own once they are here; until
 * then what the screen already shows (so no other language flashes by while they arrive); English when
 * they are late or failed. The page's `lang`, `dir` and title follow the strings shown (§2.4), set before
 * the browser paints them.
 */
export function useUiStrings(locale: Locale, strings: LanguageStrings = languageStrings): UiStrings {
  const entry = useSyncExternalStore(strings.subscribe, () => strings.entry(locale));
  const [last, setLast] = useState<UiStrings>(entry.status === 'loaded' ? entry.strings : strings.english);
  const shown =
    entry.status === 'loaded'
      ? entry.strings
      : entry.status === 'idle' || entry.status === 'loading'
        ? last
        : strings.english;
  // What is shown now is what stays while the next language loads.
  if (shown !== last) setLast(shown);

  useEffect(() => {
    if (entry.status === 'idle') void strings.load(locale);
  }, [strings, locale, entry]);

  useLayoutEffect(() => {
    const root = document.documentElement;
    root.lang = shown.locale;
    root.dir = languageOf(shown.locale).dir;
    document.title = `Astro · ${shown.messages.tagline}`;
  }, [shown]);
  return shown;
}
