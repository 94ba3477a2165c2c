/**
 * The ten conversation languages (docs/behaviour.md §9.1). Plain data: imported by both the Lambdas and the
 * web app.
 * `voice` is the full Azure neural voice name; `startPhrase` is the localized "Please start the tutoring
 * session." sent after the `__INIT__` marker when a conversation starts.
 */
export const LOCALES = [
  'en-US',
  'es-ES',
  'pt-BR',
  'fr-FR',
  'de-DE',
  'it-IT',
  'ar-SA',
  'zh-CN',
  'ja-JP',
  'he-IL',
] as const;

export type Locale = (typeof LOCALES)[number];
export type TextDirection = 'ltr' | 'rtl';

export interface LanguageOption {
  readonly value: Locale;
  /** The language's name written in that language. */
  readonly label: string;
  /** English name, used in the tutor's system prompt. */
  readonly englishName: string;
  readonly voice: string;
  readonly dir: TextDirection;
  readonly startPhrase: string;
}

export const LANGUAGES: readonly LanguageOption[] = [
  {
    value: 'en-US',
    label: 'English',
    englishName: 'English',
    voice: 'en-US-JennyNeural',
    dir: 'ltr',
    startPhrase: 'Please start the tutoring session.',
  },
  {
    value: 'es-ES',
    label: 'Español',
    englishName: 'Spanish',
    voice: 'es-ES-ElviraNeural',
    dir: 'ltr',
    startPhrase: 'Por favor, comienza la sesión de tutoría.',
  },
  {
    value: 'pt-BR',
    label: 'Português (Brasil)',
    englishName: 'Brazilian Portuguese',
    voice: 'pt-BR-FranciscaNeural',
    dir: 'ltr',
    startPhrase: 'Por favor, inicie a sessão de tutoria.',
  },
  {
    value: 'fr-FR',
    label: 'Français',
    englishName: 'French',
    voice: 'fr-FR-DeniseNeural',
    dir: 'ltr',
    startPhrase: 'Veuillez commencer la séance de tutorat.',
  },
  {
    value: 'de-DE',
    label: 'Deutsch',
    englishName: 'German',
    voice: 'de-DE-KatjaNeural',
    dir: 'ltr',
    startPhrase: 'Bitte beginne die Nachhilfestunde.',
  },
  {
    value: 'it-IT',
    label: 'Italiano',
    englishName: 'Italian',
    voice: 'it-IT-ElsaNeural',
    dir: 'ltr',
    startPhrase: 'Per favore, inizia la sessione di tutoraggio.',
  },
  {
    value: 'ar-SA',
    label: 'العربية',
    englishName: 'Arabic',
    voice: 'ar-SA-HamedNeural',
    dir: 'rtl',
    startPhrase: 'من فضلك ابدأ جلسة التعليم.',
  },
  {
    value: 'zh-CN',
    label: '中文（简体）',
    englishName: 'Simplified Chinese',
    voice: 'zh-CN-XiaoxiaoNeural',
    dir: 'ltr',
    startPhrase: '请开始辅导课程。',
  },
  {
    value: 'ja-JP',
    label: '日本語',
    englishName: 'Japanese',
    voice: 'ja-JP-NanamiNeural',
    dir: 'ltr',
    startPhrase: '個別指導のセッションを始めてください。',
  },
  {
    value: 'he-IL',
    label: 'עברית',
    englishName: 'Hebrew',
    voice: 'he-IL-HilaNeural',
    dir: 'rtl',
    startPhrase: 'בבקשה התחל את שיעור ההדרכה.',
  },
];

export const DEFAULT_LOCALE: Locale = 'en-US';

/** The marker that opens a conversation (docs/behaviour.md §4.3): `__INIT__ <startPhrase>`. */
export const INIT_MARKER = '__INIT__';

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

export function languageOf(locale: Locale): LanguageOption {
  const language = LANGUAGES.find((option) => option.value === locale);
  if (!language) throw new Error(`Unknown locale ${locale}`);
  return language;
}

/** The init message a conversation starts with, in the conversation's language. */
export function initMessage(locale: Locale): string {
  return `${INIT_MARKER} ${languageOf(locale).startPhrase}`;
}
