import AxeBuilder from '@axe-core/playwright';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  DESKTOP,
  offlinePicturePrompt,
  openApp,
  PHONE,
  SCREENSHOTS,
  speech,
  startConversation,
  useTestApp,
  typeAndWait,
  waitForStatus,
} from './support/app';

const app = useTestApp();

async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
}

/** A conversation with every kind of bubble: greeting, questions, a bold answer, a picture, live text. */
async function richConversation(page: Page): Promise<void> {
  await startConversation(page);
  await typeAndWait(page, 'What is a black hole?');
  await typeAndWait(page, 'Show me Saturn');
  const saturn = offlinePicturePrompt('saturn');
  await page.locator(`.picture-img:not(.picture-img-pending)[alt="${saturn}"]`).waitFor();
  await speech(page, 'interim', 'how many moons does');
  await page.locator('.message-interim').waitFor();
}

describe('how it looks in Chromium', () => {
  it.each([
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const)('has no serious or critical axe violations and is captured on %s', async (name, viewport) => {
    const { context, page } = await openApp(app, { viewport });
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SCREENSHOTS, `${name}-idle.png`) });

    await richConversation(page);
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SCREENSHOTS, `${name}-conversation.png`) });

    await speech(page, 'say', 'How many moons does Saturn have?');
    await page.getByRole('dialog', { name: 'Share Your Feedback' }).waitFor();
    await page.getByRole('radio', { name: '4 of 5 stars' }).first().check({ force: true });
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SCREENSHOTS, `${name}-feedback.png`) });

    // The page itself never scrolls: only the transcript does, so header and footer stay in view.
    expect(await page.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight + 1)).toBe(
      true,
    );
    await context.close();
  });

  it.each([
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const)('is captured in Arabic on %s with no serious violations', async (name, viewport) => {
    const { context, page } = await openApp(app, { viewport });
    await page.getByLabel('Language').selectOption('ar-SA');
    await page.getByRole('button', { name: 'ابدأ المحادثة' }).click();
    await waitForStatus(page, 'يستمع...');
    await speech(page, 'say', 'ما هو حجم Jupiter مقارنة بـ 1300 أرض؟');
    await page.locator('.message-astro').nth(1).waitFor();
    await waitForStatus(page, 'يستمع...');
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SCREENSHOTS, `${name}-arabic.png`) });
    await context.close();
  });

  it('shows a visible focus ring on keyboard focus', async () => {
    const { context, page } = await openApp(app);
    await page.getByRole('button', { name: 'Start Conversation' }).focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    const outline = await page
      .getByRole('button', { name: 'Start Conversation' })
      .evaluate((element) => getComputedStyle(element).outlineStyle);
    expect(outline).toBe('solid');
    await context.close();
  });

  it('pulses the status dot while listening with transform and opacity only, which never repaint the page', async () => {
    const { context, page } = await openApp(app, { reducedMotion: 'no-preference' });
    await startConversation(page);
    await waitForStatus(page, 'Listening...');
    const animated = await page.evaluate(() =>
      document.getAnimations().flatMap((animation) =>
        // What runs for as long as Astro listens (a button's short transition ends by itself).
        animation.effect instanceof KeyframeEffect &&
        animation.effect.getComputedTiming().iterations === Infinity
          ? animation.effect
              .getKeyframes()
              .flatMap((frame) =>
                Object.keys(frame).filter(
                  (key) => !['offset', 'computedOffset', 'easing', 'composite'].includes(key),
                ),
              )
          : [],
      ),
    );
    // The dot does pulse, and nothing that runs on animates a painted property.
    expect(animated).toContain('transform');
    expect([...new Set(animated)].sort()).toEqual(['opacity', 'transform']);
    await context.close();
  });
});
