// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import type { Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openPage } from '#web/app/open-page.tsx';
import type { ConversationDeps } from '#web/conversation/controller';
import * as speechText from '#web/conversation/speech-text';
import { LanguageStrings } from '#web/i18n/language-strings';
import type { SpeechEngine } from '#web/speech/engine';
import { MESSAGES, OTHER_LOCALES, scriptedLanguageFiles, type OtherLocale } from '#support/ui-strings';

// The screen in the page's language from its first render, and a change of language with no English in
// between (docs/behaviour.md §2.24): the real app rendered in jsdom, with language files the test hands
// over when it wants.

/** The tests' scripted language files, each arrival or failure inside `act`, so the screen follows. */
function scriptedFiles() {
  const scripted = scriptedLanguageFiles();
  return {
    ...scripted,
    arrive: (locale: OtherLocale) => act(async () => scripted.arrive(locale)),
    fail: (locale: OtherLocale) => act(async () => scripted.fail(locale)),
  };
}

const engine: SpeechEngine = {
  kind: 'browser',
  canListen: true,
  startListening: async () => undefined,
  stopListening: async () => undefined,
  speak: async () => undefined,
  setSpeed: () => undefined,
  setThinkTime: () => undefined,
  stopSpeaking: () => undefined,
  dispose: () => undefined,
};
const deps = (): ConversationDeps => ({
  chat: async () => ({ response: 'Hello!', offlineTutor: true }),
  generateImage: async () => ({ imageUrl: '/images/a.svg' }),
  sendFeedback: async () => undefined,
  createEngine: async () => engine,
  loadSpeechText: async () => speechText,
  createBrowserEngine: async () => engine,
  unlockAudio: () => undefined,
  newConversationId: () => '6f1c0a3e-8d1b-4c0e-9a55-0b2d3c4e5f60',
});

let element: HTMLElement;
let root: Root | undefined;
beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  element = document.createElement('div');
  document.body.append(element);
});
afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  element.remove();
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** Opens the page as main.tsx does; resolves once it has rendered. */
async function open(preferred: readonly string[], strings: LanguageStrings): Promise<void> {
  await act(async () => {
    root = await openPage(element, preferred, { strings, deps });
  });
}

const html = () => ({ lang: document.documentElement.lang, dir: document.documentElement.dir });
const tagline = () => element.querySelector('.tagline')?.textContent;

describe('the first render', () => {
  it('waits for the page language and is in it: no English first', async () => {
    const scripted = scriptedFiles();
    const strings = new LanguageStrings(scripted.files);
    let opened = false;
    const opening = act(async () => {
      root = await openPage(element, ['ar-SA', 'en-US'], { strings, deps });
      opened = true;
    });
    await act(async () => undefined);
    expect(opened).toBe(false);
    expect(element.textContent).toBe('');

    await scripted.arrive('ar-SA');
    await opening;
    expect(tagline()).toBe(MESSAGES['ar-SA'].tagline);
    expect(screen.getByRole('button', { name: MESSAGES['ar-SA'].start })).toBeTruthy();
    expect(element.textContent).not.toContain('Start Conversation');
    expect(html()).toEqual({ lang: 'ar-SA', dir: 'rtl' });
    expect(document.title).toBe(`Astro · ${MESSAGES['ar-SA'].tagline}`);
    expect((screen.getByLabelText(MESSAGES['ar-SA'].language) as HTMLSelectElement).value).toBe('ar-SA');
  });

  it('is English at once for an English page, fetching nothing', async () => {
    const scripted = scriptedFiles();
    await open(['en-GB'], new LanguageStrings(scripted.files));
    expect(tagline()).toBe('Your Personal Guide to the Cosmos');
    expect(html()).toEqual({ lang: 'en-US', dir: 'ltr' });
    expect(scripted.asked).toEqual([]);
  });

  it('is English past the deadline, never a blank page, and the language once it arrives', async () => {
    vi.useFakeTimers();
    const scripted = scriptedFiles();
    const strings = new LanguageStrings(scripted.files, 2_000);
    const opening = act(async () => {
      root = await openPage(element, ['he-IL'], { strings, deps });
    });
    await act(() => vi.advanceTimersByTimeAsync(1_999));
    expect(element.textContent).toBe('');
    await act(() => vi.advanceTimersByTimeAsync(1));
    await opening;
    expect(tagline()).toBe('Your Personal Guide to the Cosmos');
    expect(html()).toEqual({ lang: 'en-US', dir: 'ltr' });
    // The learner's language is still the one chosen: the conversation would be held in it.
    expect((screen.getByLabelText('Language') as HTMLSelectElement).value).toBe('he-IL');

    await scripted.arrive('he-IL');
    expect(tagline()).toBe(MESSAGES['he-IL'].tagline);
    expect(html()).toEqual({ lang: 'he-IL', dir: 'rtl' });
  });

  it('is English when the language fails to load', async () => {
    const scripted = scriptedFiles();
    const strings = new LanguageStrings(scripted.files);
    const opening = act(async () => {
      root = await openPage(element, ['zh-CN'], { strings, deps });
    });
    await scripted.fail('zh-CN');
    await opening;
    expect(tagline()).toBe('Your Personal Guide to the Cosmos');
    expect(screen.getByRole('button', { name: 'Start Conversation' })).toBeTruthy();
  });
});

describe('changing the language', () => {
  it('keeps the screen as it is while the language loads, then shows it (no English in between)', async () => {
    const scripted = scriptedFiles();
    const strings = new LanguageStrings(scripted.files);
    const french = strings.load('fr-FR');
    await scripted.arrive('fr-FR');
    await french;
    await open(['fr-FR'], strings);
    expect(tagline()).toBe(MESSAGES['fr-FR'].tagline);

    const select = screen.getByLabelText(MESSAGES['fr-FR'].language);
    act(() => void fireEvent.change(select, { target: { value: 'ja-JP' } }));
    expect(scripted.asked).toContain('ja-JP');
    expect((select as HTMLSelectElement).value).toBe('ja-JP');
    expect(tagline()).toBe(MESSAGES['fr-FR'].tagline);
    expect(html().lang).toBe('fr-FR');

    await scripted.arrive('ja-JP');
    expect(tagline()).toBe(MESSAGES['ja-JP'].tagline);
    expect(html()).toEqual({ lang: 'ja-JP', dir: 'ltr' });
  });

  it('shows a language fetched when the learner reached for the menu at once', async () => {
    const scripted = scriptedFiles();
    const strings = new LanguageStrings(scripted.files);
    await open(['en-US'], strings);
    const select = screen.getByLabelText('Language');

    fireEvent.pointerOver(select);
    expect(scripted.asked.sort()).toEqual([...OTHER_LOCALES].sort());
    for (const locale of OTHER_LOCALES) await scripted.arrive(locale);

    act(() => void fireEvent.change(select, { target: { value: 'de-DE' } }));
    expect(tagline()).toBe(MESSAGES['de-DE'].tagline);
    expect(html().lang).toBe('de-DE');
    expect(scripted.asked).toHaveLength(OTHER_LOCALES.length);
  });

  it.each([
    ['focus', (select: HTMLElement): void => act(() => select.focus())],
    ['a tap', (select: HTMLElement): void => void fireEvent.pointerDown(select)],
  ] as const)('fetches the other languages on %s of the menu', async (_name, reach) => {
    const scripted = scriptedFiles();
    await open(['en-US'], new LanguageStrings(scripted.files));
    expect(scripted.asked).toEqual([]);
    reach(screen.getByLabelText('Language'));
    expect(scripted.asked.sort()).toEqual([...OTHER_LOCALES].sort());
  });

  it('shows English when the chosen language fails, and fetches it again when chosen again', async () => {
    const scripted = scriptedFiles();
    const strings = new LanguageStrings(scripted.files);
    const italian = strings.load('it-IT');
    await scripted.arrive('it-IT');
    await italian;
    await open(['it-IT'], strings);

    const select = screen.getByLabelText(MESSAGES['it-IT'].language);
    act(() => void fireEvent.change(select, { target: { value: 'pt-BR' } }));
    await scripted.fail('pt-BR');
    expect(tagline()).toBe('Your Personal Guide to the Cosmos');

    act(() => void fireEvent.change(select, { target: { value: 'it-IT' } }));
    expect(tagline()).toBe(MESSAGES['it-IT'].tagline);
    act(() => void fireEvent.change(select, { target: { value: 'pt-BR' } }));
    await scripted.arrive('pt-BR');
    expect(tagline()).toBe(MESSAGES['pt-BR'].tagline);
    expect(scripted.asked.filter((locale) => locale === 'pt-BR')).toHaveLength(2);
  });
});
