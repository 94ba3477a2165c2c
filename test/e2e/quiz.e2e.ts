import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Locale } from '#contract/languages';
import type { Check } from '#contract/teaching';
import { MESSAGES } from '#support/ui-strings';
import { STAR_MESSAGES } from '#support/ui-strings';
import { pluralOf } from '#web/i18n/star-messages';
import { openApp, startConversation, useTestApp, waitForStatus } from './support/app';
import { lessons, teenCheckEnding } from './support/lessons';

// Issue 12's acceptance, in Chromium against the local server and its offline tutor, with nothing faked
// but the browser's speech: "quiz me" gets a question, "I don't know" a hint, the right answer a star.
const app = useTestApp();

interface Done {
  readonly type?: string;
  readonly response?: string;
  readonly check?: Check;
}

/** The `done` line of each chat reply the page receives, as the server sent it (passed through unchanged). */
async function recordReplies(page: Page): Promise<Done[]> {
  const replies: Done[] = [];
  await page.route('**/api/chat', async (route) => {
    const response = await route.fetch();
    const body = await response.text();
    const lines = body.split('\n').filter((line) => line.trim() !== '');
    replies.push(JSON.parse(lines.at(-1) ?? '{}') as Done);
    await route.fulfill({ response, body });
  });
  return replies;
}

/** Types a message; resolves with Astro's reply and its check once the status line reads `status`. */
async function ask(page: Page, replies: Done[], locale: Locale, text: string, status: string) {
  const t = MESSAGES[locale];
  const before = replies.length;
  await page.getByLabel(t.composerLabel).fill(text);
  await page.getByRole('button', { name: t.send }).click();
  await expect.poll(() => replies.length).toBe(before + 1);
  await waitForStatus(page, status);
  const done = replies[before] ?? {};
  expect(done.type).toBe('done');
  return { response: done.response ?? '', check: done.check };
}

const QUIZ: readonly { locale: Locale; quizMe: string; dontKnow: string }[] = [
  { locale: 'en-US', quizMe: 'Quiz me!', dontKnow: "I don't know" },
  { locale: 'fr-FR', quizMe: 'Fais-moi un quiz', dontKnow: 'Je ne sais pas' },
  { locale: 'ja-JP', quizMe: 'クイズを出して', dontKnow: 'わからない' },
];

describe('quiz me, offline, with a star for the right answer', () => {
  it.each(QUIZ)(
    '$locale: a question, a hint for "I don\'t know", then a star',
    async ({ locale, quizMe, dontKnow }) => {
      const t = MESSAGES[locale];
      const { checkTryAgain } = lessons(locale);
      const { context, page } = await openApp(app);
      const replies = await recordReplies(page);
      await page.getByLabel(MESSAGES['en-US'].language).selectOption(locale);
      await startConversation(page, t.start, t.listening);

      const quiz = await ask(page, replies, locale, quizMe, t.takeYourTime);
      expect(quiz.check).toEqual({ type: 'question' });
      // The quiz asks a teen's checks (the level the app starts at).
      const asked = teenCheckEnding(quiz.response, locale);
      expect(asked, quiz.response).toBeDefined();
      const { hint, answers } = asked ?? { hint: '', answers: [] };

      const nudge = await ask(page, replies, locale, dontKnow, t.takeYourTime);
      // The judgement asks again, and says so (docs/behaviour.md §17.2, §17.5).
      expect(nudge.check).toEqual({ type: 'answer', correct: false, openQuestion: true });
      expect(nudge.response).toContain(hint);
      expect(nudge.response).toContain(checkTryAgain.split('{hint}')[0]?.trim());
      expect(await page.locator('.star-count').count()).toBe(0);

      const right = await ask(page, replies, locale, answers[0] ?? '', t.takeYourTime);
      expect(right.check).toEqual({ type: 'answer', correct: true, openQuestion: true });
      const words = STAR_MESSAGES[locale];
      expect(await page.getByRole('img', { name: pluralOf(locale, words.count, 1) }).count()).toBe(1);
      await page
        .locator('[aria-live="polite"]', { hasText: pluralOf(locale, words.earned, 1) })
        .waitFor({ state: 'attached' });
      await context.close();
    },
  );
});
