import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '#web/i18n/messages';
import {
  judgeReplies,
  openApp,
  PHONE,
  speech,
  startConversation,
  useTestApp,
  waitForStatus,
} from './support/app';

// docs/behaviour.md §2.23, §17.1, §17.4, §17.5 in Chromium, against the local server and its offline tutor.
const app = useTestApp();
const t = MESSAGES['en-US'];

/** Every /api/chat request the page sends from now on, read as JSON bodies when asked. */
function chatBodies(page: Page): () => Record<string, unknown>[] {
  const requests: Request[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/api/chat')) requests.push(request);
  });
  return () => requests.map((request) => request.postDataJSON() as Record<string, unknown>);
}

/** Types a message and waits until Astro has answered it and the status line reads `status`. */
async function typeAndWaitFor(page: Page, text: string, status: string): Promise<void> {
  const before = await page.locator('.message-astro').count();
  await page.getByLabel(t.composerLabel).fill(text);
  await page.getByRole('button', { name: t.send }).click();
  await page.locator('.message-astro').nth(before).waitFor();
  await waitForStatus(page, status);
}

const starCount = (page: Page) => page.locator('.star-count');
const announcement = (page: Page) =>
  page
    .locator('[aria-live="polite"]', { hasText: /Correct!/ })
    .first()
    .textContent();

describe('the level selector', () => {
  it('offers the three levels beside the language, Teen first chosen, and sends the level with every chat request', async () => {
    const { context, page } = await openApp(app);
    const bodies = chatBodies(page);
    const level = page.getByLabel(t.level);
    expect(await level.inputValue()).toBe('teen');
    expect(await level.locator('option').allInnerTexts()).toEqual([
      'Young explorer (8–11)',
      'Teen (12–15)',
      'Adult',
    ]);
    // Beside the language selector, in the header.
    expect(await page.locator('header .header-fields select').count()).toBe(2);

    // By keyboard: focus the selector and pick with the arrow keys.
    await level.focus();
    await page.keyboard.press('ArrowUp');
    expect(await level.inputValue()).toBe('child');

    await startConversation(page);
    expect(await level.isDisabled()).toBe(true);
    expect(await page.getByLabel(t.language).isDisabled()).toBe(true);
    await typeAndWaitFor(page, 'What is a comet?', t.listening);
    expect(bodies().map((body) => body.level)).toEqual(['child', 'child']);

    await page.getByRole('button', { name: t.end }).click();
    expect(await level.isDisabled()).toBe(false);
    await level.selectOption('adult');
    await startConversation(page);
    expect(bodies().at(-1)?.level).toBe('adult');
    await context.close();
  });

  it('is localized and laid out right to left in Hebrew, and stacks with the language on a phone', async () => {
    const { context, page } = await openApp(app, { viewport: PHONE });
    await page.getByLabel(t.language).selectOption('he-IL');
    const he = MESSAGES['he-IL'];
    const level = page.getByLabel(he.level);
    expect(await level.locator('option').allInnerTexts()).toEqual([
      he.levelChild,
      he.levelTeen,
      he.levelAdult,
    ]);
    expect(await level.evaluate((element) => getComputedStyle(element).direction)).toBe('rtl');
    const language = await page.getByLabel(he.language).boundingBox();
    const levelBox = await level.boundingBox();
    expect(levelBox && language && levelBox.y > language.y).toBe(true);
    // Nothing of the header runs off a phone's screen.
    const header = await page
      .locator('header')
      .evaluate((element) => element.scrollWidth - element.clientWidth);
    expect(header).toBeLessThanOrEqual(0);
    await context.close();
  });
});

describe('stars and think time', () => {
  it('says "Take your time…" while a check question is open, and shows a star with its announcement after a correct answer', async () => {
    const { context, page } = await openApp(app);
    await judgeReplies(page, {
      'Tell me about Jupiter': { type: 'question' },
      'Jupiter is the biggest': { type: 'answer', correct: true },
      'Mars is bigger': { type: 'answer', correct: false, openQuestion: true },
      'Tell me about Saturn': { type: 'question' },
      'Saturn has rings': { type: 'answer', correct: true },
      'What is a comet?': null,
    });
    await startConversation(page);
    expect(await starCount(page).count()).toBe(0);

    await typeAndWaitFor(page, 'Tell me about Jupiter', t.takeYourTime);
    expect(await page.locator('#status-line').innerText()).toMatch(
      /^Status:\s+Listening\.\.\.\s+Take your time…$/,
    );
    // Answered by voice, wrongly: no star, and think time again for the second try.
    await speech(page, 'say', 'Mars is bigger');
    await page.locator('.message-user', { hasText: 'Mars is bigger' }).waitFor();
    await waitForStatus(page, t.takeYourTime);
    expect(await starCount(page).count()).toBe(0);

    // Judged right and closed (an offer of the next topic follows): no more think time.
    await typeAndWaitFor(page, 'Jupiter is the biggest', t.listening);
    expect(await page.locator('#status-line').textContent()).not.toContain(t.takeYourTime);
    expect(await page.getByRole('img', { name: '1 star earned' }).textContent()).toBe('★1');
    expect(await announcement(page)).toBe('Correct! 1 star');
    // The third message's judgement closed the question: the feedback dialog opens once it has been said;
    // the conversation goes on behind it once dismissed.
    await page.getByRole('dialog').waitFor();
    await page.getByRole('button', { name: t.cancel }).click();

    await typeAndWaitFor(page, 'Tell me about Saturn', t.takeYourTime);
    await typeAndWaitFor(page, 'Saturn has rings', t.listening);
    expect(await page.locator('#status-line').textContent()).not.toContain(t.takeYourTime);
    // A reply that neither asks nor judges: plain listening.
    await typeAndWaitFor(page, 'What is a comet?', t.listening);
    expect(await page.locator('#status-line').textContent()).not.toContain(t.takeYourTime);
    expect(await page.getByRole('img', { name: '2 stars earned' }).count()).toBe(1);
    expect(await announcement(page)).toBe('Correct! 2 stars');

    // The count stays after End and starts again from none.
    await page.getByRole('button', { name: t.end }).click();
    expect(await page.getByRole('img', { name: '2 stars earned' }).count()).toBe(1);
    await startConversation(page);
    expect(await starCount(page).count()).toBe(0);
    await context.close();
  });

  it('pops the star in, unless reduced motion is asked for', async () => {
    for (const reducedMotion of ['no-preference', 'reduce'] as const) {
      const { context, page } = await openApp(app, { reducedMotion });
      await judgeReplies(page, { 'Jupiter is the biggest': { type: 'answer', correct: true } });
      await startConversation(page);
      await typeAndWaitFor(page, 'Jupiter is the biggest', t.listening);
      const animation = await page
        .locator('.star-icon')
        .evaluate((element) => getComputedStyle(element).animationName);
      expect(animation, reducedMotion).toBe(reducedMotion === 'reduce' ? 'none' : 'star-pop');
      await context.close();
    }
  });
});
