import { setTimeout as delay } from 'node:timers/promises';
import type { BrowserContext, Page, Request, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { initMessage, LANGUAGES, type Locale } from '#contract/languages';
import { MESSAGES } from '#support/ui-strings';
import { DESKTOP, openApp, speech, speechLog, useTestApp, waitForStatus } from './support/app';
import { installSpeechFakes } from './support/speech-fakes';

const app = useTestApp();

async function startIn(page: Page, locale: Locale): Promise<Request[]> {
  const requests: Request[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/api/chat')) requests.push(request);
  });
  await page.getByLabel('Language').selectOption(locale);
  const t = MESSAGES[locale];
  await page.getByRole('button', { name: t.start }).click();
  await waitForStatus(page, t.listening);
  return requests;
}

describe('languages in Chromium', () => {
  it('offers the ten languages with en-US first and selected by default', async () => {
    const { context, page } = await openApp(app);
    const select = page.getByLabel('Language');
    expect(await select.inputValue()).toBe('en-US');
    expect(
      await select
        .locator('option')
        .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value)),
    ).toEqual(LANGUAGES.map((language) => language.value));
    await context.close();
  });

  it('locks the dropdown while active and sends the init phrase in the chosen language', async () => {
    const { context, page } = await openApp(app);
    const requests = await startIn(page, 'fr-FR');
    expect(await page.getByLabel('Langue').isDisabled()).toBe(true);
    expect(requests[0]?.postDataJSON()).toEqual({
      userMessage: initMessage('fr-FR'),
      language: 'fr-FR',
      chatHistory: [],
      level: 'teen',
      conversationId: expect.stringMatching(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      ) as unknown,
    });
    expect(await page.locator('html').getAttribute('lang')).toBe('fr-FR');
    const log = await speechLog(page);
    expect(log.recognition[0]?.lang).toBe('fr-FR');
    expect(log.utterances[0]).toMatchObject({ lang: 'fr-FR', voice: 'Fake fr-FR' });

    await page.getByRole('button', { name: MESSAGES['fr-FR'].end }).click();
    expect(await page.getByLabel('Langue').isDisabled()).toBe(false);
    await context.close();
  });

  it.each(['ar-SA', 'he-IL'] as const)(
    'renders %s right to left, with mixed English and numbers intact',
    async (locale) => {
      const { context, page } = await openApp(app);
      await startIn(page, locale);
      const t = MESSAGES[locale];
      expect(await page.locator('html').getAttribute('dir')).toBe('rtl');
      expect(await page.locator('html').getAttribute('lang')).toBe(locale);
      const transcript = page.getByRole('region', { name: t.transcript });
      expect(await transcript.getAttribute('dir')).toBe('rtl');
      expect(await transcript.evaluate((element) => getComputedStyle(element).direction)).toBe('rtl');
      expect(await page.getByRole('button', { name: t.end }).count()).toBe(1);

      const mixed =
        locale === 'ar-SA'
          ? 'ما هو حجم Jupiter مقارنة بـ 1300 أرض؟'
          : 'מה הגודל של Jupiter לעומת 1300 כדורי ארץ?';
      await speech(page, 'say', mixed);
      await page.locator('.message-user').first().waitFor();
      await waitForStatus(page, t.listening);
      const user = page.locator('.message-user .bubble-text').first();
      expect(await user.innerText()).toBe(mixed);
      expect(await user.evaluate((element) => getComputedStyle(element).direction)).toBe('rtl');
      expect(await user.evaluate((element) => getComputedStyle(element).unicodeBidi)).toBe('isolate');
      // Logical layout: in right-to-left the learner's bubbles sit at the inline end (left), Astro's at the start.
      const box = await transcript.boundingBox();
      const userBox = await page.locator('.message-user').first().boundingBox();
      const astroBox = await page.locator('.message-astro').first().boundingBox();
      expect(box && userBox && astroBox).toBeTruthy();
      if (box && userBox && astroBox) {
        expect(userBox.x - box.x).toBeLessThan(40);
        expect(box.x + box.width - (astroBox.x + astroBox.width)).toBeLessThan(40);
      }
      await context.close();
    },
  );

  it('localizes the whole screen, leaving no English behind in another language', async () => {
    const { context, page } = await openApp(app);
    await page.getByLabel('Language').selectOption('de-DE');
    const t = MESSAGES['de-DE'];
    // German arrives with the change (nothing reached for the menu first: docs/behaviour.md §2.24).
    await page.getByText(t.tagline).waitFor();
    expect(await page.getByText(t.tagline).count()).toBe(1);
    expect(await page.getByRole('button', { name: t.start }).count()).toBe(1);
    expect(await page.getByLabel(t.speed).count()).toBe(1);
    const text = await page.locator('body').innerText();
    for (const english of [
      'Your Personal Guide to the Cosmos',
      'Start Conversation',
      'Speed',
      'Contact us',
    ]) {
      expect(text).not.toContain(english);
    }
    await context.close();
  });
});

/** A language's own chunk (docs/behaviour.md §2.24): `assets/ja-JP-<hash>.js`. */
const LANGUAGE_CHUNK = /\/assets\/[a-z]{2}-[A-Z]{2}-[\w-]+\.js$/;
const ENGLISH = [
  'Your Personal Guide to the Cosmos',
  'Start Conversation',
  'Language',
  'Speed',
  'Contact us',
];

/**
 * A page opened from a link asking for `locale` (`?lang=`), in a browser whose own language is `locale`
 * too, with the first render recorded.
 */
async function openIn(
  locale: Locale,
  route?: (route: Route) => Promise<void>,
): Promise<{ context: BrowserContext; page: Page; chunks: string[] }> {
  const context = await app.browser.newContext({ locale, viewport: DESKTOP, reducedMotion: 'reduce' });
  await context.addInitScript(installSpeechFakes);
  await context.addInitScript(() => {
    const record = window as unknown as { firstRender?: unknown; layoutShift: number };
    record.layoutShift = 0;
    // The first text the page shows, and the page's lang and dir as it is painted.
    new MutationObserver((_records, observer) => {
      const text = document.getElementById('root')?.innerText ?? '';
      if (text.trim() === '') return;
      const { lang, dir } = document.documentElement;
      record.firstRender = { text, lang, dir };
      observer.disconnect();
    }).observe(document, { childList: true, subtree: true });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries())
        record.layoutShift += (entry as unknown as { value: number }).value;
    }).observe({ type: 'layout-shift', buffered: true });
  });
  if (route) await context.route(LANGUAGE_CHUNK, route);
  // Every script the page asks for, by its chunk's name (`assets/fr-FR-<hash>.js` is fr-FR).
  const chunks: string[] = [];
  context.on('request', (request) => {
    const chunk = /\/assets\/(.+)-[\w-]{8}\.js$/.exec(request.url())?.[1];
    if (chunk) chunks.push(chunk);
  });
  const page = await context.newPage();
  await page.goto(`${app.url}/?lang=${locale}`);
  return { context, page, chunks };
}

/** The language chunks among `chunks`. */
const languagesIn = (chunks: readonly string[]) =>
  chunks.filter((chunk) => LANGUAGES.some((language) => language.value === chunk));

/**
 * Chooses `locale` in the language menu the way a change event alone does: no pointer over the menu and
 * no focus on it first, so nothing was fetched before the choice.
 */
const choose = (page: Page, locale: Locale) =>
  page.evaluate((value) => {
    const select = document.querySelector<HTMLSelectElement>('.language-field select');
    if (!select) throw new Error('no language menu');
    select.value = value;
    select.dispatchEvent(new Event('change', { bubbles: true }));
  }, locale);

const firstRender = (page: Page) =>
  page.evaluate(
    () => (window as unknown as { firstRender?: { text: string; lang: string; dir: string } }).firstRender,
  );

describe('the first load and a change of language in Chromium', () => {
  it("opens an Arabic browser's page in English, the default, when its link asks for no language", async () => {
    const context = await app.browser.newContext({ locale: 'ar-SA', viewport: DESKTOP });
    await context.addInitScript(installSpeechFakes);
    const page = await context.newPage();
    await page.goto(app.url);
    await page.getByRole('button', { name: 'Start Conversation' }).waitFor();
    expect(await page.getByLabel('Language').inputValue()).toBe('en-US');
    expect(await page.locator('html').getAttribute('dir')).toBe('ltr');
    await context.close();
  });

  it('opens a page whose link asks for Arabic in Arabic, right to left from its first render: no English first', async () => {
    // Arabic held back on its way, so that a page that rendered before it came would show English first.
    const { context, page } = await openIn('ar-SA', async (route) => {
      await delay(300);
      await route.continue();
    });
    const t = MESSAGES['ar-SA'];
    await page.getByRole('button', { name: t.start }).waitFor();
    const first = await firstRender(page);
    expect(first?.text).toContain(t.tagline);
    expect(first?.text).toContain(t.start);
    for (const english of ENGLISH) expect(first?.text).not.toContain(english);
    expect(first).toMatchObject({ lang: 'ar-SA', dir: 'rtl' });
    expect(await page.getByLabel(t.language).inputValue()).toBe('ar-SA');
    expect(await page.title()).toBe(`Astro · ${t.tagline}`);
    expect(await page.evaluate(() => (window as unknown as { layoutShift: number }).layoutShift)).toBe(0);
    await context.close();
  });

  it('opens in English, never a blank page, when the page language fails to load', async () => {
    const { context, page } = await openIn('ja-JP', (route) => route.abort());
    await page.getByRole('button', { name: 'Start Conversation' }).waitFor();
    expect(await firstRender(page)).toMatchObject({ lang: 'en-US', dir: 'ltr' });
    // Still the learner's language for the conversation: only the screen's words fell back.
    expect(await page.getByLabel('Language').inputValue()).toBe('ja-JP');
    await context.close();
  });

  it('opens in English once the page language is late, and turns Hebrew when it comes', async () => {
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    const { context, page } = await openIn('he-IL', async (route) => {
      await released;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Start Conversation' }).waitFor();
    expect(await firstRender(page)).toMatchObject({ lang: 'en-US', dir: 'ltr' });
    release();
    const t = MESSAGES['he-IL'];
    await page.getByRole('button', { name: t.start }).waitFor();
    expect(await page.locator('html').getAttribute('dir')).toBe('rtl');
    await context.close();
  });

  it('shows the chosen language at once when the pointer went over the menu first', async () => {
    const { context, page } = await openApp(app);
    // Every language held back on its way: one fetched only when chosen could not show in the next frame.
    const fetched: Promise<unknown>[] = [];
    const urls: string[] = [];
    await page.route(LANGUAGE_CHUNK, async (route) => {
      urls.push(route.request().url());
      await delay(300);
      await route.continue();
    });
    page.on('request', (request) => {
      if (LANGUAGE_CHUNK.test(request.url())) fetched.push(request.response());
    });

    await page.getByLabel('Language').hover();
    await expect.poll(() => urls.length).toBe(LANGUAGES.length - 1);
    await Promise.all(fetched);
    // The same modules, imported here too: resolved once the page has run them. (A string, so that the
    // test runner leaves this import() as the browser's own.)
    await page.evaluate(`Promise.all(${JSON.stringify(urls)}.map((chunk) => import(chunk)))`);

    const before = urls.length;
    const shown = await page.evaluate(
      () =>
        new Promise<{ tagline: string; lang: string }>((resolve) => {
          const select = document.querySelector<HTMLSelectElement>('.language-field select');
          if (!select) throw new Error('no language menu');
          select.value = 'ja-JP';
          select.dispatchEvent(new Event('change', { bubbles: true }));
          // What the next frame paints.
          requestAnimationFrame(() =>
            resolve({
              tagline: document.querySelector('.tagline')?.textContent ?? '',
              lang: document.documentElement.lang,
            }),
          );
        }),
    );
    expect(shown).toEqual({ tagline: MESSAGES['ja-JP'].tagline, lang: 'ja-JP' });
    expect(urls).toHaveLength(before);
    await context.close();
  });

  it("loads only the page language's chunk on the first load, and the words of speech on Start", async () => {
    const { context, page, chunks } = await openIn('fr-FR');
    const t = MESSAGES['fr-FR'];
    await page.getByRole('button', { name: t.start }).waitFor();
    expect(languagesIn(chunks)).toEqual(['fr-FR']);
    expect(chunks).not.toContain('speech-text');

    await page.getByRole('button', { name: t.start }).click();
    await waitForStatus(page, t.listening);
    expect(chunks).toContain('speech-text');
    expect(languagesIn(chunks)).toEqual(['fr-FR']);
    await context.close();
  });

  it('fetches no language for an English page, and another language only once it is chosen', async () => {
    const { context, page, chunks } = await openIn('en-US');
    await page.getByRole('button', { name: 'Start Conversation' }).waitFor();
    expect(languagesIn(chunks)).toEqual([]);

    await choose(page, 'de-DE');
    await page.getByRole('button', { name: MESSAGES['de-DE'].start }).waitFor();
    expect(languagesIn(chunks)).toEqual(['de-DE']);
    expect(await page.locator('html').getAttribute('lang')).toBe('de-DE');
    await context.close();
  });

  it('leaves a working screen in English when the chosen language fails, and fetches it again when the menu is reached for', async () => {
    const { context, page, chunks } = await openIn('fr-FR', (route) =>
      route.request().url().includes('/ja-JP-') ? route.abort() : route.continue(),
    );
    await page.getByRole('button', { name: MESSAGES['fr-FR'].start }).waitFor();

    await choose(page, 'ja-JP');
    const start = page.getByRole('button', { name: 'Start Conversation' });
    await start.waitFor();
    expect(await start.isEnabled()).toBe(true);
    expect(await page.locator('html').getAttribute('lang')).toBe('en-US');
    // Still the learner's choice for the conversation: only the screen's words fell back.
    expect(await page.getByLabel('Language').inputValue()).toBe('ja-JP');

    await context.unroute(LANGUAGE_CHUNK);
    await page.getByLabel('Language').hover();
    const t = MESSAGES['ja-JP'];
    await page.getByRole('button', { name: t.start }).waitFor();
    expect(await page.locator('html').getAttribute('lang')).toBe('ja-JP');
    expect(languagesIn(chunks).filter((chunk) => chunk === 'ja-JP')).toHaveLength(2);
    await context.close();
  });
});
