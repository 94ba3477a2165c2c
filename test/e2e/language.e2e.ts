import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { initMessage, LANGUAGES, type Locale } from '#contract/languages';
import { MESSAGES } from '#web/i18n/messages';
import { openApp, speech, speechLog, useTestApp, waitForStatus } from './support/app';

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
