import { StrictMode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import type { ConversationDeps } from '../conversation/controller';
import { languageStrings, type LanguageStrings } from '../i18n/language-strings';
import { pageLanguage } from '../i18n/page-language';
import { App } from './app';

/**
 * Renders the app into `element` in the page's language (docs/behaviour.md §2.24): the first render waits
 * for that language's strings, so an Arabic page never shows English first, and it waits at most
 * LANGUAGE_DEADLINE_MS (then, or if they fail, it is English): the learner is never left on a blank page.
 * `preferred` is the languages the page's link asks for (`?lang=`), none by default.
 */
export async function openPage(
  element: Element,
  preferred: readonly string[],
  options: { readonly strings?: LanguageStrings; readonly deps?: () => ConversationDeps } = {},
): Promise<Root> {
  const strings = options.strings ?? languageStrings;
  const language = pageLanguage(preferred);
  await strings.load(language);
  const root = createRoot(element);
  root.render(
    <StrictMode>
      <App language={language} strings={strings} {...(options.deps ? { deps: options.deps } : {})} />
    </StrictMode>,
  );
  return root;
}
