import type { Page, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openApp, startConversation, useTestApp, typeAndWait, waitForStatus } from './support/app';

const app = useTestApp();

const PROMPT = 'Saturn with its bright rings, in a friendly sketch';

/** The real tutor's answer, with a picture suggestion added so the flow does not depend on its topics. */
async function withPicture(page: Page): Promise<void> {
  await page.route('**/api/chat', async (route) => {
    const body = route.request().postDataJSON() as { userMessage: string };
    if (!body.userMessage.includes('Saturn')) return route.continue();
    const response = await route.fetch();
    const json = (await response.json()) as Record<string, unknown>;
    await route.fulfill({ response, json: { ...json, imagePrompt: PROMPT } });
  });
}

describe('pictures in Chromium', () => {
  it('shows the spinner and "Astro is sketching a picture..." until the image has loaded, then the picture', async () => {
    const { context, page } = await openApp(app);
    await withPicture(page);
    let release: () => void = () => undefined;
    await page.route('**/api/generateImage', async (route: Route) => {
      await new Promise<void>((resolve) => (release = resolve));
      await route.continue();
    });
    await startConversation(page);
    await typeAndWait(page, 'Show me Saturn');

    const sketching = page.getByText('Astro is sketching a picture...');
    await sketching.waitFor();
    expect(await page.locator('.message-image .spinner').count()).toBe(1);
    release();

    const image = page.getByRole('img', { name: PROMPT });
    await image.waitFor();
    await expect
      .poll(() => image.evaluate((element) => (element as HTMLImageElement).naturalWidth > 0))
      .toBe(true);
    await sketching.waitFor({ state: 'detached' });
    expect(await image.getAttribute('src')).toMatch(/^\/images\/[0-9a-f-]+\.(svg|png)$/);
    await waitForStatus(page, 'Listening...');
    await context.close();
  });

  it('removes the placeholder when generation fails, showing no error', async () => {
    const { context, page } = await openApp(app);
    await withPicture(page);
    let fail: () => void = () => undefined;
    await page.route('**/api/generateImage', async (route: Route) => {
      await new Promise<void>((resolve) => (fail = resolve));
      await route.fulfill({
        status: 502,
        json: { error: { code: 'upstream_error', message: 'The image model failed.' } },
      });
    });
    await startConversation(page);
    await typeAndWait(page, 'Show me Saturn');
    await page.getByText('Astro is sketching a picture...').waitFor();
    fail();
    await page.locator('.message-image').waitFor({ state: 'detached' });
    expect(await page.locator('body').innerText()).not.toMatch(/failed|error/i);
    expect(await page.locator('.message-astro').count()).toBe(2);
    await context.close();
  });
});
