/**
 * The day's spending cap in Chromium (docs/behaviour.md §12.19, §2.16): the local server with an
 * OpenAI-compatible model that reports its usage, priced so that two replies spend the day's budget. After
 * the cap the learner keeps talking with Astro's own lessons and a quiet note says so, in the learner's
 * language (right to left in Hebrew); the speech token is refused with `over_budget` and the browser's own
 * voice takes over.
 */
import type { Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '#web/i18n/messages';
import { jsonOf } from '#support/bedrock-fake';
import { sendJson, startFakeServer, type FakeServer } from '#support/loopback';
import { completion, sseAnswer, streamedCompletion } from '#support/openai-fake';
import { openApp, typeAndWait, useTestApp, waitForStatus } from './support/app';

const USAGE = { promptTokens: 2000, completionTokens: 200 };
const MODEL_SAYS = 'Comets are icy travellers from the edge of the solar system.';

let model: FakeServer;
let sts: FakeServer;

beforeAll(async () => {
  model = await startFakeServer((request, response) =>
    jsonOf<{ stream?: boolean }>(request).stream === true
      ? sseAnswer(streamedCompletion([MODEL_SAYS], 'stop', USAGE))(request, response)
      : sendJson(response, 200, completion({ content: MODEL_SAYS, usage: USAGE })),
  );
  sts = await startFakeServer((_request, response) => {
    response.writeHead(200, { 'Content-Type': 'application/jwt' });
    response.end('eyJhbGciOiJIUzI1NiJ9.eyJ9.fake-token-0123456789');
  });
});
afterAll(async () => {
  await model.close();
  await sts.close();
});

const app = useTestApp({
  env: () => ({
    ASTRO_MODEL: 'openai',
    OPENAI_BASE_URL: `${model.url}/v1`,
    OPENAI_MODEL: 'fake-model',
    // 2,000 + 200 tokens at $1 / $4 per million: $0.0028 a reply; two replies spend the $0.005 day.
    ASTRO_PRICE_INPUT_USD_PER_MTOK: '1',
    ASTRO_PRICE_OUTPUT_USD_PER_MTOK: '4',
    ASTRO_DAILY_BUDGET_USD: '0.005',
    ASTRO_CLIENT_SHARE: '1',
    // An Azure key the server would hand out tokens for, at no charge of their own here.
    AZURE_SPEECH_KEY: 'k3y0f4zur3sp33chs3cr3tv4lu3aaaa1',
    AZURE_STS_BASE_URL: sts.url,
    ASTRO_PRICE_SPEECH_TOKEN_USD: '0',
  }),
});

const notes = (page: Page) => page.locator('ul.notes li').allInnerTexts();

/** Spends the day's budget from outside the browser: two paid replies (once spent, they cost nothing). */
async function spendTheDay(): Promise<void> {
  for (let reply = 0; reply < 2; reply += 1) {
    const answer = await fetch(`${app.url}/api/chat`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        userMessage: 'Tell me about comets',
        language: 'en-US',
        chatHistory: [],
        conversationId: crypto.randomUUID(),
      }),
    });
    expect(answer.status).toBe(200);
  }
}

describe('the day’s spending cap in Chromium', () => {
  it('keeps teaching from the lessons once the day’s budget is spent, and says so quietly', async () => {
    const { context, page } = await openApp(app);
    // This page talks with the browser's voice from the start: its token is not what this test is about.
    await page.route('**/api/speechToken', (route) =>
      route.fulfill({ status: 503, json: { error: { code: 'not_configured', message: 'no key' } } }),
    );
    const t = MESSAGES['en-US'];
    await page.getByRole('button', { name: t.start }).click();
    await waitForStatus(page, t.listening);
    expect(await page.locator('.message-astro').last().innerText()).toContain(MODEL_SAYS);
    expect(await notes(page)).not.toContain(t.lessonsForToday);

    await typeAndWait(page, 'Tell me about comets');
    expect(await notes(page)).not.toContain(t.lessonsForToday);
    const before = await page.locator('.message-astro').count();
    await typeAndWait(page, 'What about Mars?');

    // The lesson about Mars (and its sketch), not the model's words.
    const after = (await page.locator('.message-astro').allInnerTexts()).slice(before).join('\n');
    expect(after).toMatch(/Mars/);
    expect(after).not.toContain(MODEL_SAYS);
    expect(await notes(page)).toContain(t.lessonsForToday);
    expect(model.requests.filter((request) => request.url.endsWith('/chat/completions'))).toHaveLength(2);
    await context.close();
  });

  it('uses the browser’s voice once speech tokens are refused with over_budget, and notes both in Hebrew, right to left', async () => {
    await spendTheDay();
    const { context, page } = await openApp(app);
    const tokens: Response[] = [];
    page.on('response', (response) => {
      if (response.url().endsWith('/api/speechToken')) tokens.push(response);
    });
    const t = MESSAGES['he-IL'];
    await page.getByLabel('Language').selectOption('he-IL');
    await page.getByRole('button', { name: t.start }).click();
    await waitForStatus(page, t.listening);

    expect(tokens.map((response) => response.status())).toEqual([503]);
    expect(((await tokens[0]?.json()) as { error: { code: string } }).error.code).toBe('over_budget');
    expect(sts.requests).toHaveLength(0);
    const shown = await notes(page);
    expect(shown).toContain(t.browserSpeech);
    expect(shown).toContain(t.lessonsForToday);
    const note = page.locator('ul.notes li', { hasText: t.lessonsForToday });
    expect(await note.evaluate((element) => getComputedStyle(element).direction)).toBe('rtl');
    await context.close();
  });
});
