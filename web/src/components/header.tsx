import { LANGUAGES, type Locale } from '#contract/languages';
import { LEVELS, type Level } from '#contract/teaching';
import type { WebSettings } from '../lib/env';
import { format, type Messages } from '../i18n/messages';
import { Logo } from './logo';

export interface HeaderProps {
  readonly t: Messages;
  readonly settings: WebSettings;
  readonly language: Locale;
  /** docs/behaviour.md §2.3, §2.23: the language and level are disabled while a conversation is active. */
  readonly choicesLocked: boolean;
  readonly onLanguage: (language: Locale) => void;
  /** docs/behaviour.md §2.23, §17.1: the learner's level, locked like the language. */
  readonly level: Level;
  readonly onLevel: (level: Level) => void;
}

/** Each level's name in the UI strings. */
const LEVEL_NAMES = { child: 'levelChild', teen: 'levelTeen', adult: 'levelAdult' } as const satisfies Record<
  Level,
  keyof Messages
>;

export function Header({ t, settings, language, choicesLocked, onLanguage, level, onLevel }: HeaderProps) {
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
      <div className="header-fields">
        <label className="field language-field">
          <span className="field-label">{t.language}</span>
          <select
            value={language}
            disabled={choicesLocked}
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
        <label className="field level-field">
          <span className="field-label">{t.level}</span>
          <select
            value={level}
            disabled={choicesLocked}
            onChange={(event) => {
              const chosen = LEVELS.find((option) => option === event.target.value);
              if (chosen) onLevel(chosen);
            }}
          >
            {LEVELS.map((option) => (
              <option key={option} value={option}>
                {t[LEVEL_NAMES[option]]}
              </option>
            ))}
          </select>
        </label>
      </div>
    </header>
  );
}
