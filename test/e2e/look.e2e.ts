import AxeBuilder from '@axe-core/playwright';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Locale } from '#contract/languages';
import { MESSAGES } from '#support/ui-strings';
import {
  DESKTOP,
  judgeReplies,
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

    // The right answer to the black hole's check question, still open after the question about Saturn: a
    // star, and the pause the feedback dialog waits for.
    await speech(page, 'say', 'The event horizon');
    await page.getByRole('dialog', { name: 'Share Your Feedback' }).waitFor();
    await page.getByRole('radio', { name: 'Helpfulness: 4 of 5' }).check({ force: true });
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

  it.each(['en-US', 'ar-SA', 'he-IL'] as const)(
    'in %s, rates with outlined violet shapes in a row that follows the page, unlike the gold badge of stars earned',
    async (locale: Locale) => {
      const t = MESSAGES[locale];
      const { context, page } = await openApp(app, { viewport: PHONE });
      await page.getByLabel('Language').selectOption(locale);
      // A star for the first answer; the third reply asks nothing: the dialog opens once it is said.
      await judgeReplies(page, {
        Jupiter: { type: 'answer', correct: true },
        Saturn: null,
        Mars: null,
      });
      await startConversation(page, t.start, t.listening);
      for (const [index, text] of ['Jupiter', 'Saturn', 'Mars'].entries()) {
        await page.getByLabel(t.composerLabel).fill(text);
        await page.getByRole('button', { name: t.send }).click();
        await page
          .locator('.message-astro')
          .nth(index + 1)
          .waitFor();
        await waitForStatus(page, t.listening);
      }
      const dialog = page.getByRole('dialog', { name: t.feedbackTitle });
      await dialog.waitFor();
      const helpfulness = dialog.getByRole('group', { name: t.helpfulness });
      await helpfulness.getByRole('radio').nth(2).check({ force: true });

      const looks = await page.evaluate(() => {
        const badge = document.querySelector('.star-count');
        const choices = [...document.querySelectorAll('.rating')][0]?.querySelectorAll('.rating-choice');
        const glyph = (index: number) => {
          const svg = choices?.[index]?.querySelector('.rating-glyph');
          return svg ? getComputedStyle(svg) : null;
        };
        return {
          badge: badge && {
            color: getComputedStyle(badge).color,
            background: getComputedStyle(badge).backgroundColor,
            rounded: parseFloat(getComputedStyle(badge).borderTopLeftRadius) > 8,
            name: badge.getAttribute('aria-label'),
          },
          chosen: glyph(2) && { fill: glyph(2)?.fill, stroke: glyph(2)?.stroke },
          above: glyph(3) && { fill: glyph(3)?.fill, stroke: glyph(3)?.stroke },
          firstX: choices?.[0]?.getBoundingClientRect().x ?? 0,
          lastX: choices?.[4]?.getBoundingClientRect().x ?? 0,
        };
      });
      // The badge: gold, on a gold-tinted pill. The rating: violet, filled up to the choice, outlined above.
      expect(looks.badge).toMatchObject({ color: 'rgb(252, 211, 77)', rounded: true });
      expect(looks.badge?.background).not.toBe('rgba(0, 0, 0, 0)');
      expect(looks.chosen?.fill).toBe(looks.chosen?.stroke);
      expect(looks.above?.fill).toBe('none');
      expect(looks.above?.stroke).not.toBe(looks.badge?.color);
      // First choice at the line's start: on the right in Arabic and Hebrew.
      expect(looks.firstX > looks.lastX).toBe(locale !== 'en-US');
      // Read differently too: "Helpfulness: 3 of 5" against "1 star earned".
      const chosenName = await helpfulness.getByRole('radio', { checked: true }).getAttribute('aria-label');
      expect(chosenName).toContain(t.helpfulness);
      expect(chosenName).not.toBe(looks.badge?.name);
      expect(await seriousViolations(page)).toEqual([]);
      await page.screenshot({ path: join(SCREENSHOTS, `phone-feedback-${locale}.png`) });
      await context.close();
    },
  );

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
