import type { Page, Request, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openApp, startConversation, useTestApp, typeAndWait } from './support/app';

const app = useTestApp();

const dialog = (page: Page) => page.getByRole('dialog', { name: 'Share Your Feedback' });

/** Start and send three questions: the third opens the modal. */
async function threeQuestions(page: Page): Promise<void> {
  await startConversation(page);
  await typeAndWait(page, 'What is the Sun?');
  await typeAndWait(page, 'What is Mars?');
  expect(await dialog(page).count()).toBe(0);
  await page.getByLabel('Type a message to Astro').fill('What is Venus?');
  await page.getByRole('button', { name: 'Send' }).click();
  await dialog(page).waitFor();
}

/** A fourth and fifth question must not bring the modal back. */
async function neverAgain(page: Page): Promise<void> {
  await page.locator('#status-line', { hasText: 'Listening...' }).waitFor();
  await typeAndWait(page, 'What is Saturn?');
  await typeAndWait(page, 'What is Neptune?');
  expect(await dialog(page).count()).toBe(0);
}

describe('the feedback modal in Chromium', () => {
  it('opens once at the third message, and Submit waits for both ratings, reads Sending..., then closes for good', async () => {
    const { context, page } = await openApp(app);
    const posted: Request[] = [];
    let release: () => void = () => undefined;
    await page.route('**/api/feedback', async (route: Route) => {
      posted.push(route.request());
      await new Promise<void>((resolve) => (release = resolve));
      await route.continue();
    });
    const composer = page.getByLabel('Type a message to Astro');
    await composer.focus();
    await threeQuestions(page);

    const modal = dialog(page);
    const submit = modal.getByRole('button', { name: 'Submit' });
    // Focus moved into the dialog: the first star of the first rating.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      '1 of 5 stars',
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
    ).toBe('4 of 5 stars');
    expect(await submit.isDisabled()).toBe(true);
    await modal
      .getByRole('group', { name: 'Clarity' })
      .getByRole('radio', { name: '5 of 5 stars' })
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
      // No check question was answered in this conversation (docs/behaviour.md §17.4).
      starsEarned: 0,
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
    for (const question of ['What is a star?', 'What is a moon?', 'What is an orbit?'])
      await typeAndWait(page, question);
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
      .getByRole('radio', { name: '1 of 5 stars' })
      .check({ force: true });
    await modal
      .getByRole('group', { name: 'Clarity' })
      .getByRole('radio', { name: '2 of 5 stars' })
      .check({ force: true });
    await modal.getByRole('button', { name: 'Submit' }).click();
    await modal.waitFor({ state: 'detached' });
    expect(await page.locator('body').innerText()).not.toMatch(/boom|error|failed/i);
    await neverAgain(page);
    await context.close();
  });
});
