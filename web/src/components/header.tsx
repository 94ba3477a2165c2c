import { LANGUAGES, type Locale } from '#contract/languages';
import type { WebSettings } from '../app/env';
import { format, type Messages } from '../i18n/messages';
import { Logo } from './logo';

export interface HeaderProps {
  readonly t: Messages;
  readonly settings: WebSettings;
  readonly language: Locale;
  /** docs/behaviour.md §2.3: the dropdown is disabled while a conversation is active. */
  readonly languageLocked: boolean;
  readonly onLanguage: (language: Locale) => void;
}

export function Header({ t, settings, language, languageLocked, onLanguage }: HeaderProps) {
  return (
    <header className="app-header">
      <div className="brand">
        <Logo />
        <div className="brand-text">
          <h1 className="title">Astro</h1>
          <p className="tagline">{t.tagline}</p>
          <a className="byline" href={settings.providerUrl} target="_blank" rel="noopener noreferrer">
            {format(t.byline, { provider: settings.providerName })}
          </a>
        </div>
      </div>
      <label className="field language-field">
        <span className="field-label">{t.language}</span>
        <select
          value={language}
          disabled={languageLocked}
          onChange={(event) => {
            const chosen = LANGUAGES.find((option) => option.value === event.target.value);
            if (chosen) onLanguage(chosen.value);
          }}
        >
          {LANGUAGES.map((option) => (
            <option key={option.value} value={option.value} lang={option.value} dir={option.dir}>
              {option.label}
            </option>
          ))}
        </select>
      </label>
    </header>
  );
}
