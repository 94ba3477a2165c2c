import type { Page, Request, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  judgeReplies,
  openApp,
  startConversation,
  useTestApp,
  typeAndWait,
  waitForStatus,
} from './support/app';

const app = useTestApp();

const dialog = (page: Page) => page.getByRole('dialog', { name: 'Share Your Feedback' });

/**
 * Start, a question (its lesson ends with its check question), a second question while that check is open
 * (answered, and the check asked again), then the right answer to the check: the third message, judged and
 * closed, opens the modal once Astro has said the verdict.
 */
async function threeQuestions(page: Page): Promise<void> {
  await startConversation(page);
  await typeAndWait(page, 'What is the Sun?');
  await typeAndWait(page, 'What is Mars?');
  expect(await dialog(page).count()).toBe(0);
  await page.getByLabel('Type a message to Astro').fill('Nuclear fusion');
  await page.getByRole('button', { name: 'Send' }).click();
  await dialog(page).waitFor();
}

/** A fourth and fifth message, a question and its right answer, must not bring the modal back. */
async function neverAgain(page: Page): Promise<void> {
  await page.locator('#status-line', { hasText: 'Listening...' }).waitFor();
  await typeAndWait(page, 'What is Saturn?');
  await typeAndWait(page, 'Mostly ice');
  expect(await dialog(page).count()).toBe(0);
}

/** Types a message and waits until Astro has said its reply and listens again. */
async function answer(page: Page, text: string): Promise<void> {
  const before = await page.locator('.message-astro').count();
  await page.getByLabel('Type a message to Astro').fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
  await page.locator('.message-astro').nth(before).waitFor();
  await waitForStatus(page, 'Listening...');
}

describe('the feedback modal in Chromium', () => {
  it('opens once at the third message, and Submit waits for both ratings, reads Sending..., then closes for good', async () => {
    const { context, page } = await openApp(app);
    const posted: Request[] = [];
    // Made before the request: "Sending..." shows on the click, which can come before the route is reached.
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/feedback', async (route: Route) => {
      posted.push(route.request());
      await released;
      await route.continue();
    });
    const composer = page.getByLabel('Type a message to Astro');
    await composer.focus();
    await threeQuestions(page);

    const modal = dialog(page);
    const submit = modal.getByRole('button', { name: 'Submit' });
    // Focus moved into the dialog: the first choice of the first rating.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      'Helpfulness: 1 of 5',
    );
    expect(await submit.isDisabled()).toBe(true);

    // Keyboard: arrow keys move through the radio group.
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    expect(
      await modal
        .getByRole('group', { name: 'Helpfulness' })
        .getByRole('radio', { checked: true })
        .getAttribute('aria-label'),
    ).toBe('Helpfulness: 4 of 5');
    expect(await submit.isDisabled()).toBe(true);
    await modal
      .getByRole('group', { name: 'Clarity' })
      .getByRole('radio', { name: 'Clarity: 5 of 5' })
      .check({ force: true });
    expect(await submit.isDisabled()).toBe(false);
    await modal.getByLabel('Suggestion (optional)').fill('More about black holes, please!');

    // Tab stays inside the dialog.
    for (let step = 0; step < 8; step += 1) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => Boolean(document.activeElement?.closest('[role="dialog"]')))).toBe(
        true,
      );
    }

    await submit.click();
    const sending = modal.getByRole('button', { name: 'Sending...' });
    await sending.waitFor();
    expect(await sending.isDisabled()).toBe(true);
    release();
    await modal.waitFor({ state: 'detached' });

    const body = posted[0]?.postDataJSON() as Record<string, unknown>;
    expect(body).toMatchObject({
      helpfulness: 4,
      clarity: 5,
      suggestion: 'More about black holes, please!',
      language: 'en-US',
      // The answer about Mars was right (docs/behaviour.md §17.4).
      starsEarned: 1,
    });
    expect(body.conversationId).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(
      (body.chatHistory as { sender: string }[]).filter((message) => message.sender === 'user'),
    ).toHaveLength(3);
    // Focus returns to where it was.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('composer-input');

    await neverAgain(page);
    // Not in a new conversation either.
    await page.getByRole('button', { name: 'End Conversation' }).click();
    await startConversation(page);
    for (const message of ['What is a star?', 'What is Mars?', 'The blue one'])
      await typeAndWait(page, message);
    expect(await dialog(page).count()).toBe(0);
    expect(posted).toHaveLength(1);
    await context.close();
  });

  it.each([
    ['Cancel', (page: Page) => dialog(page).getByRole('button', { name: 'Cancel' }).click()],
    ['a backdrop click', (page: Page) => page.locator('.modal-backdrop').click({ position: { x: 8, y: 8 } })],
    ['Escape', (page: Page) => page.keyboard.press('Escape')],
  ])('closes on %s and never shows again, sending nothing', async (_how, close) => {
    const { context, page } = await openApp(app);
    const posted: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/feedback')) posted.push(request.url());
    });
    await threeQuestions(page);
    await close(page);
    await dialog(page).waitFor({ state: 'detached' });
    await neverAgain(page);
    expect(posted).toEqual([]);
    await context.close();
  });

  it('closes even when sending fails, showing no error', async () => {
    const { context, page } = await openApp(app);
    await page.route('**/api/feedback', (route) =>
      route.fulfill({ status: 500, json: { error: { code: 'internal_error', message: 'boom' } } }),
    );
    await threeQuestions(page);
    const modal = dialog(page);
    await modal
      .getByRole('group', { name: 'Helpfulness' })
      .getByRole('radio', { name: 'Helpfulness: 1 of 5' })
      .check({ force: true });
    await modal
      .getByRole('group', { name: 'Clarity' })
      .getByRole('radio', { name: 'Clarity: 2 of 5' })
      .check({ force: true });
    await modal.getByRole('button', { name: 'Submit' }).click();
    await modal.waitFor({ state: 'detached' });
    expect(await page.locator('body').innerText()).not.toMatch(/boom|error|failed/i);
    await neverAgain(page);
    await context.close();
  });

  it('waits while a check question is open, through a hint, and opens once the answer is judged and said', async () => {
    const { context, page } = await openApp(app);
    // The first wrong try gets the hint and the question again (the offline lessons' try-again reply).
    await judgeReplies(page, { 'A planet': { type: 'answer', correct: false, openQuestion: true } });
    await startConversation(page);
    await answer(page, 'What is the Sun?');
    await answer(page, 'What is Mars?');
    // Three messages, and the question is open again: "Take your time…", no dialog over it.
    await answer(page, 'A planet');
    await waitForStatus(page, 'Take your time…');
    expect(await dialog(page).count()).toBe(0);
    // Judged right, then an offer of the next topic: the dialog opens once Astro has said it.
    const replies = await page.locator('.message-astro').count();
    await page.getByLabel('Type a message to Astro').fill('Rusty red dust');
    await page.getByRole('button', { name: 'Send' }).click();
    await dialog(page).waitFor();
    expect(await page.locator('.message-astro').count()).toBe(replies + 1);
    expect(await page.locator('#status-line').textContent()).toContain('Listening...');
    expect(await page.locator('#status-line').textContent()).not.toContain('Take your time…');
    await context.close();
  });

  it('waits for the end of a quiz, and never opens for a conversation ended while a question is open', async () => {
    const { context, page } = await openApp(app);
    // A quiz: each answer's judgement goes on with the next question, until the score.
    await judgeReplies(page, {
      Mars: { type: 'answer', correct: true, openQuestion: true },
      Venus: { type: 'answer', correct: false, openQuestion: true },
      Jupiter: { type: 'answer', correct: true },
    });
    await startConversation(page);
    await answer(page, 'Quiz me');
    await answer(page, 'Mars');
    await answer(page, 'Venus');
    await waitForStatus(page, 'Take your time…');
    expect(await dialog(page).count()).toBe(0);
    // Ended while waiting: no dialog for this conversation, and it is not used up.
    await page.getByRole('button', { name: 'End Conversation' }).click();
    await waitForStatus(page, 'Ready when you are');
    expect(await dialog(page).count()).toBe(0);

    await startConversation(page);
    await answer(page, 'Quiz me');
    await answer(page, 'Mars');
    await answer(page, 'Venus');
    expect(await dialog(page).count()).toBe(0);
    await page.getByLabel('Type a message to Astro').fill('Jupiter');
    await page.getByRole('button', { name: 'Send' }).click();
    await dialog(page).waitFor();
    expect(await page.getByRole('img', { name: '2 stars earned' }).count()).toBe(1);
    await context.close();
  });
});
