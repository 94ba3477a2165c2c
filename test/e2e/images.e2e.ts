import type { Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  offlinePicturePrompt,
  openApp,
  startConversation,
  useTestApp,
  typeAndWait,
  waitForStatus,
} from './support/app';

const app = useTestApp();

/**
 * The offline tutor offers this picture with its Saturn lesson. The server draws only prompts the tutor
 * itself offered (each comes with a signed ticket), so the test asks the real tutor rather than adding
 * a prompt of its own.
 */
const PROMPT = offlinePicturePrompt('saturn');

describe('pictures in Chromium', () => {
  it('shows the spinner and "Astro is sketching a picture..." until the image has loaded, then the picture', async () => {
    const { context, page } = await openApp(app);
    let release: () => void = () => undefined;
    await page.route('**/api/generateImage', async (route: Route) => {
      await new Promise<void>((resolve) => (release = resolve));
      await route.continue();
    });
    await startConversation(page);
    await typeAndWait(page, 'Show me Saturn');

    const sketching = page.getByText('Astro is sketching a picture...');
    await sketching.waitFor();
    expect(await page.locator('.message-picture .spinner').count()).toBe(1);
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
    await page.locator('.message-picture').waitFor({ state: 'detached' });
    expect(await page.locator('body').innerText()).not.toMatch(/failed|error/i);
    expect(await page.locator('.message-astro').count()).toBe(2);
    await context.close();
  });
});
