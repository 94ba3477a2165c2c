import type { Page, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  DESKTOP,
  judgeReplies,
  offlinePicturePrompt,
  openApp,
  PHONE,
  startConversation,
  useTestApp,
  typeAndWait,
  waitForStatus,
} from './support/app';
import { lessons } from './support/lessons';

const app = useTestApp();

/**
 * The offline tutor offers this picture with its Saturn lesson. The server draws only prompts the tutor
 * itself offered (each comes with a signed ticket), so the test asks the real tutor rather than adding
 * a prompt of its own.
 */
const PROMPT = offlinePicturePrompt('saturn');

/** The check question that ends the offline Saturn lesson for a teen (lambdas/tutor/offline/knowledge/en-US.json). */
const SATURN_QUESTION = lessons('en-US').topics.saturn?.levels.teen.check.question;

/** Holds every picture until the test releases it, so it arrives after the whole reply. */
async function holdPictures(page: Page): Promise<() => void> {
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/generateImage', async (route: Route) => {
    await released;
    await route.continue();
  });
  return release;
}

/** Waits until the picture has loaded in the page (not merely until its address is known). */
async function pictureLoaded(page: Page): Promise<void> {
  const image = page.getByRole('img', { name: PROMPT });
  await image.waitFor();
  await expect
    .poll(() => image.evaluate((element) => (element as HTMLImageElement).naturalWidth > 0))
    .toBe(true);
}

/**
 * Where `text` (inside an Astro bubble) and the picture sit in the transcript's visible area: whether
 * each is wholly inside it, and whether the transcript is scrolled to its bottom.
 */
function inView(page: Page, text: string) {
  return page.evaluate((question) => {
    const scroller = document.querySelector('.transcript');
    const bubble = [...document.querySelectorAll('.message-astro .bubble-text')].find((element) =>
      element.textContent?.includes(question),
    );
    const picture = document.querySelector('.picture-img:not(.picture-img-pending)');
    const textNode = [...(bubble?.childNodes ?? [])]
      .flatMap((child) => [child, ...child.childNodes])
      .find((node) => node.nodeType === Node.TEXT_NODE && node.textContent?.includes(question));
    if (!scroller || !textNode || !picture) return null;
    const range = document.createRange();
    const start = textNode.textContent?.indexOf(question) ?? 0;
    range.setStart(textNode, start);
    range.setEnd(textNode, start + question.length);
    const view = scroller.getBoundingClientRect();
    const top = view.top + scroller.clientTop;
    const bottom = top + scroller.clientHeight;
    const within = (rect: DOMRect) => rect.top >= top - 1 && rect.bottom <= bottom + 1;
    return {
      question: within(range.getBoundingClientRect()),
      picture: within(picture.getBoundingClientRect()),
      atBottom: scroller.scrollHeight - scroller.clientHeight - scroller.scrollTop <= 1,
    };
  }, text);
}

describe('pictures in Chromium', () => {
  it('shows the spinner and "Astro is sketching a picture..." until the image has loaded, then the picture', async () => {
    const { context, page } = await openApp(app);
    // Made before the request: the spinner shows before the route is reached.
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/generateImage', async (route: Route) => {
      await released;
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

  it.each([
    ['a phone', PHONE],
    ['a desktop', DESKTOP],
  ] as const)(
    'keeps the check question in view, and the picture below it, when the picture arrives after it on %s',
    async (_name, viewport) => {
      expect(SATURN_QUESTION).toBeDefined();
      const question = SATURN_QUESTION ?? '';
      const { context, page } = await openApp(app, { viewport });
      const release = await holdPictures(page);
      await startConversation(page);
      // The lesson ends with its check question; the picture is still being sketched.
      await typeAndWait(page, 'Show me Saturn');
      await waitForStatus(page, 'Take your time…');
      expect(await page.getByText('Astro is sketching a picture...').count()).toBe(1);
      release();
      await pictureLoaded(page);
      // The question, and the picture below it: both fit on a phone and on a desktop.
      await expect.poll(() => inView(page, question)).toMatchObject({ question: true, picture: true });
      await context.close();
    },
  );

  it.each([
    ['a phone', PHONE],
    ['a desktop', DESKTOP],
  ] as const)(
    'scrolls to the picture, the newest message, after a reply that asks nothing on %s',
    async (_name, viewport) => {
      const { context, page } = await openApp(app, { viewport });
      await judgeReplies(page, { 'Show me Saturn': null });
      const release = await holdPictures(page);
      await startConversation(page);
      await typeAndWait(page, 'Show me Saturn');
      expect(await page.locator('#status-line').innerText()).not.toContain('Take your time…');
      release();
      await pictureLoaded(page);
      await expect.poll(async () => (await inView(page, SATURN_QUESTION ?? ''))?.atBottom).toBe(true);
      await context.close();
    },
  );

  it('removes the placeholder when generation fails, showing no error', async () => {
    const { context, page } = await openApp(app);
    let fail: () => void = () => undefined;
    const failing = new Promise<void>((resolve) => (fail = resolve));
    await page.route('**/api/generateImage', async (route: Route) => {
      await failing;
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
