import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LOCALES, type Locale } from '#contract/languages';
import { LANGUAGE_DEADLINE_MS, LanguageStrings, languageStrings } from '#web/i18n/language-strings';
import { LANGUAGE_FILES, OTHER_LOCALES, scriptedLanguageFiles } from '#support/ui-strings';

// Each language's UI strings load with the language (docs/behaviour.md §2.24): English is there from the
// start; another language is fetched when wanted, or when the learner reaches for the menu; past the
// deadline, or when the fetch fails, the screen shows English; a late language still takes over.

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

let logged: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('loading a language', () => {
  it('has English from the start, without fetching anything', async () => {
    const scripted = scriptedLanguageFiles();
    const strings = new LanguageStrings(scripted.files);
    expect(strings.entry('en-US')).toEqual({ status: 'loaded', strings: strings.english });
    expect(await strings.load('en-US')).toBe(strings.english);
    expect(strings.english.messages.start).toBe('Start Conversation');
    expect(scripted.asked).toEqual([]);
  });

  it('fetches another language once, and tells the screen when it is there', async () => {
    const scripted = scriptedLanguageFiles();
    const strings = new LanguageStrings(scripted.files);
    const told = vi.fn();
    strings.subscribe(told);
    expect(strings.entry('ar-SA')).toEqual({ status: 'idle' });

    const first = strings.load('ar-SA');
    const second = strings.load('ar-SA');
    expect(strings.entry('ar-SA')).toEqual({ status: 'loading' });
    expect(scripted.asked).toEqual(['ar-SA']);
    scripted.arrive('ar-SA');

    const arabic = await first;
    expect(await second).toBe(arabic);
    expect(arabic).toEqual({
      locale: 'ar-SA',
      messages: LANGUAGE_FILES['ar-SA'].messages,
      stars: LANGUAGE_FILES['ar-SA'].stars,
    });
    expect(strings.entry('ar-SA')).toEqual({ status: 'loaded', strings: arabic });
    expect(told).toHaveBeenCalledTimes(2);
    // Loaded for good: asked again, it is there at once.
    expect(await strings.load('ar-SA')).toBe(arabic);
    expect(scripted.asked).toEqual(['ar-SA']);
  });

  it('shows English once the deadline has passed, and the language when it arrives after all', async () => {
    vi.useFakeTimers();
    const scripted = scriptedLanguageFiles();
    const strings = new LanguageStrings(scripted.files, 1_000);
    let shown: Locale | undefined;
    void strings.load('ja-JP').then((ui) => (shown = ui.locale));

    await vi.advanceTimersByTimeAsync(999);
    expect(shown).toBeUndefined();
    expect(strings.entry('ja-JP').status).toBe('loading');
    await vi.advanceTimersByTimeAsync(1);
    expect(shown).toBe('en-US');
    expect(strings.entry('ja-JP').status).toBe('late');
    expect(logged).toHaveBeenCalledWith(
      '[astro] the Japanese UI strings are late; showing English',
      expect.objectContaining({ name: 'DeadlineError' }),
    );

    const told = vi.fn();
    strings.subscribe(told);
    scripted.arrive('ja-JP');
    await vi.advanceTimersByTimeAsync(0);
    expect(strings.entry('ja-JP')).toMatchObject({ status: 'loaded', strings: { locale: 'ja-JP' } });
    expect(told).toHaveBeenCalled();
  });

  it('waits LANGUAGE_DEADLINE_MS by default', async () => {
    vi.useFakeTimers();
    const strings = new LanguageStrings(scriptedLanguageFiles().files);
    let shown: Locale | undefined;
    void strings.load('he-IL').then((ui) => (shown = ui.locale));
    await vi.advanceTimersByTimeAsync(LANGUAGE_DEADLINE_MS - 1);
    expect(shown).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(shown).toBe('en-US');
  });

  it('falls back to English when the fetch fails, and fetches again the next time', async () => {
    const scripted = scriptedLanguageFiles();
    const strings = new LanguageStrings(scripted.files);
    const loading = strings.load('de-DE');
    scripted.fail('de-DE');
    expect(await loading).toBe(strings.english);
    expect(strings.entry('de-DE')).toEqual({ status: 'failed' });
    expect(logged).toHaveBeenCalledWith(
      '[astro] the German UI strings did not load; showing English',
      expect.objectContaining({ message: 'chunk failed to load' }),
    );

    const again = strings.load('de-DE');
    expect(scripted.asked).toEqual(['de-DE', 'de-DE']);
    scripted.arrive('de-DE');
    expect((await again).messages.start).toBe(LANGUAGE_FILES['de-DE'].messages.start);
  });
});

describe('prefetching the languages', () => {
  it('fetches every language not here yet, once, so a choice shows at once', async () => {
    const scripted = scriptedLanguageFiles();
    const strings = new LanguageStrings(scripted.files);
    const french = strings.load('fr-FR');
    scripted.arrive('fr-FR');
    await french;
    const spanish = strings.load('es-ES');

    strings.prefetch();
    strings.prefetch();
    expect(scripted.asked.sort()).toEqual([...OTHER_LOCALES].sort());
    for (const locale of OTHER_LOCALES) scripted.arrive(locale);
    await settle();
    await spanish;

    for (const locale of OTHER_LOCALES) {
      expect(strings.entry(locale)).toMatchObject({ status: 'loaded', strings: { locale } });
    }
    strings.prefetch();
    await strings.load('zh-CN');
    expect(scripted.asked).toHaveLength(OTHER_LOCALES.length);
  });

  it('fetches again, on the next prefetch, a language whose fetch failed', async () => {
    const scripted = scriptedLanguageFiles();
    const strings = new LanguageStrings(scripted.files);
    strings.prefetch();
    scripted.fail('it-IT');
    await settle();
    expect(strings.entry('it-IT').status).toBe('failed');
    strings.prefetch();
    expect(scripted.asked.filter((locale) => locale === 'it-IT')).toHaveLength(2);
  });
});

describe("the app's languages", () => {
  it.each(LOCALES)('%s loads its own file', async (locale) => {
    const ui = await languageStrings.load(locale);
    expect(ui.locale).toBe(locale);
    expect(ui.messages).toBe(LANGUAGE_FILES[locale].messages);
    expect(ui.stars).toBe(LANGUAGE_FILES[locale].stars);
    expect(Object.keys(ui.messages)).toEqual(Object.keys(LANGUAGE_FILES['en-US'].messages));
  });
});
