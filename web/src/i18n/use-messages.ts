import { useEffect } from 'react';
import { languageOf, type Locale } from '#contract/languages';
import { MESSAGES, type Messages } from './messages';

/** The UI strings of the chosen language; the page's `lang`, `dir` and title follow it. */
export function useMessages(locale: Locale): Messages {
  const messages = MESSAGES[locale];
  useEffect(() => {
    const root = document.documentElement;
    root.lang = locale;
    root.dir = languageOf(locale).dir;
    document.title = `Astro · ${messages.tagline}`;
  }, [locale, messages]);
  return messages;
}
