import { languageOf, type Locale } from '#contract/languages';
import { withDeadline } from '../lib/deadline';
import { logError } from '../lib/log';
import * as english from './languages/en-US';
import type { Messages } from './messages';
import type { StarMessages } from './star-messages';

/** One language's UI as its file in `languages/` exports it. */
export interface LanguageFile {
  readonly messages: Messages;
  readonly stars: StarMessages;
}

/** The strings the screen shows, and the language they are in. */
export interface UiStrings extends LanguageFile {
  readonly locale: Locale;
}

type OtherLocale = Exclude<Locale, 'en-US'>;

export interface LanguageFiles {
  /** English rides in the first load: it is what the screen shows when a language is not there. */
  readonly english: LanguageFile;
  /** Every other language, each its own chunk, fetched when it is first needed. */
  readonly others: Readonly<Record<OtherLocale, () => Promise<LanguageFile>>>;
}

/**
 * Where a language's strings are: `loading` (the screen keeps what it shows), `late` (past the deadline:
 * English is shown until they arrive), `failed` (English; asked for again next time), `loaded`.
 */
export type LanguageEntry =
  | { readonly status: 'idle' | 'loading' | 'late' | 'failed' }
  | { readonly status: 'loaded'; readonly strings: UiStrings };

/**
 * How long the screen waits for a language's strings before showing English (docs/behaviour.md §2.24,
 * §9.9): at the first load and on a change of language alike.
 */
export const LANGUAGE_DEADLINE_MS = 3_000;

const IDLE: LanguageEntry = { status: 'idle' };
const LOADING: LanguageEntry = { status: 'loading' };
const LATE: LanguageEntry = { status: 'late' };
const FAILED: LanguageEntry = { status: 'failed' };

/**
 * Each language's UI strings, loaded with the language (docs/behaviour.md §2.24): the page's language
 * before the first render, another when it is chosen, or earlier, when the learner reaches for the
 * language menu (`prefetch`). A small store: the screen subscribes and re-renders when a language
 * arrives, however late. Nothing waits without a deadline, and nothing here ever rejects: a language
 * that does not arrive in time, or fails, is English on screen.
 */
export class LanguageStrings {
  readonly english: UiStrings;
  private readonly entries = new Map<Locale, LanguageEntry>();
  /** Each language being fetched or fetched: what `load` resolves with (the language, or English). */
  private readonly loads = new Map<OtherLocale, Promise<UiStrings>>();
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly files: LanguageFiles,
    private readonly deadlineMs = LANGUAGE_DEADLINE_MS,
  ) {
    this.english = { locale: 'en-US', ...files.english };
    this.entries.set('en-US', { status: 'loaded', strings: this.english });
  }

  /** Where the language's strings are; the same object until that changes (a store snapshot). */
  readonly entry = (locale: Locale): LanguageEntry => this.entries.get(locale) ?? IDLE;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /**
   * The language's strings, fetching them if need be: resolves with them, or with English once the
   * deadline has passed or the fetch has failed (logged). Never rejects.
   */
  load(locale: Locale): Promise<UiStrings> {
    const entry = this.entry(locale);
    if (entry.status === 'loaded') return Promise.resolve(entry.strings);
    // Only English is loaded from the start, so this is another language.
    const other = locale as OtherLocale;
    return this.loads.get(other) ?? this.fetch(other);
  }

  /** Every language not here yet, fetched now so that choosing one shows it at once. */
  prefetch(): void {
    for (const locale of Object.keys(this.files.others) as OtherLocale[]) {
      if (this.entry(locale).status !== 'loaded' && !this.loads.has(locale)) void this.fetch(locale);
    }
  }

  private fetch(locale: OtherLocale): Promise<UiStrings> {
    const name = languageOf(locale).englishName;
    this.set(locale, LOADING);
    const arriving = this.files.others[locale]().then(
      (file): UiStrings => {
        const strings = { locale, messages: file.messages, stars: file.stars };
        this.set(locale, { status: 'loaded', strings });
        return strings;
      },
      (error: unknown): UiStrings => {
        logError(`the ${name} UI strings did not load; showing English`, error);
        // Forgotten, so that the next time the language is wanted it is fetched again.
        this.loads.delete(locale);
        this.set(locale, FAILED);
        return this.english;
      },
    );
    const shown = withDeadline(arriving, this.deadlineMs, `the ${name} UI strings`).catch(
      (error: unknown) => {
        // English for now; the language still takes over if it arrives (the store tells the screen).
        logError(`the ${name} UI strings are late; showing English`, error);
        if (this.entry(locale) === LOADING) this.set(locale, LATE);
        return this.english;
      },
    );
    this.loads.set(locale, shown);
    return shown;
  }

  private set(locale: Locale, entry: LanguageEntry): void {
    this.entries.set(locale, entry);
    for (const listener of this.listeners) listener();
  }
}

/**
 * The app's languages: English in the first load, every other one its own chunk (Vite makes one per
 * `import()`), so the first load carries one language, not ten.
 */
export const languageStrings = new LanguageStrings({
  english,
  others: {
    'es-ES': () => import('./languages/es-ES'),
    'pt-BR': () => import('./languages/pt-BR'),
    'fr-FR': () => import('./languages/fr-FR'),
    'de-DE': () => import('./languages/de-DE'),
    'it-IT': () => import('./languages/it-IT'),
    'ar-SA': () => import('./languages/ar-SA'),
    'zh-CN': () => import('./languages/zh-CN'),
    'ja-JP': () => import('./languages/ja-JP'),
    'he-IL': () => import('./languages/he-IL'),
  },
});
