import type { Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { initMessage } from '#contract/languages';
import { speakableText } from '#web/speech/speakable';
import {
  holdSpeech,
  openApp,
  sayAndWait,
  speech,
  speechLog,
  startConversation,
  useTestApp,
  statusOf,
  typeAndWait,
  waitForStatus,
} from './support/app';

const app = useTestApp();

function chatBodies(requests: Request[]) {
  return requests
    .filter((request) => request.url().endsWith('/api/chat'))
    .map(
      (request) =>
        request.postDataJSON() as { userMessage: string; language: string; chatHistory: unknown[] },
    );
}

describe('a conversation with Astro in Chromium', () => {
  it('holds 3 spoken turns and 1 typed turn, speaking every answer and listening in between', async () => {
    const { context, page } = await openApp(app);
    const requests: Request[] = [];
    page.on('request', (request) => requests.push(request));

    expect(await statusOf(page)).toContain('Ready when you are');
    await startConversation(page);
    expect(await page.locator('.message-astro').count()).toBe(1);
    await expect.poll(() => page.getByText("Using your browser's built-in voice.").count()).toBe(1);
    await expect
      .poll(() => page.getByText('Offline tutor: Astro is answering from its built-in lessons.').count())
      .toBe(1);

    // Live partial recognition: a faded italic bubble, replaced by the final utterance.
    await speech(page, 'interim', 'what is the');
    const interim = page.locator('.message-interim');
    await interim.waitFor();
    expect(await interim.innerText()).toBe('what is the');
    expect(
      await interim.locator('.bubble-text').evaluate((element) => getComputedStyle(element).fontStyle),
    ).toBe('italic');

    await sayAndWait(page, 'What is the Moon made of?');
    expect(await interim.count()).toBe(0);
    await sayAndWait(page, 'How far away is the Sun?');
    await typeAndWait(page, 'Tell me about black holes');
    await sayAndWait(page, 'Why do stars twinkle?');

    expect(await page.locator('.message-user .bubble-text').allInnerTexts()).toEqual([
      'What is the Moon made of?',
      'How far away is the Sun?',
      'Tell me about black holes',
      'Why do stars twinkle?',
    ]);
    expect(await page.locator('.message-astro').count()).toBeGreaterThanOrEqual(5);

    const bodies = chatBodies(requests);
    expect(bodies[0]).toEqual({
      userMessage: initMessage('en-US'),
      language: 'en-US',
      chatHistory: [],
      level: 'teen',
      conversationId: expect.stringMatching(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      ) as unknown,
    });
    // One conversation, one id on every request: Astro's signatures are bound to it (docs/behaviour.md §12.2).
    expect(new Set(bodies.map((body) => (body as { conversationId?: string }).conversationId)).size).toBe(1);
    expect(bodies.map((body) => body.userMessage).slice(1)).toEqual([
      'What is the Moon made of?',
      'How far away is the Sun?',
      'Tell me about black holes',
      'Why do stars twinkle?',
    ]);
    expect(bodies[2]?.chatHistory.slice(0, 2)).toEqual([
      // Astro's turn goes back with the server's signature over its text (docs/behaviour.md §12.2).
      { role: 'assistant', content: expect.any(String), signature: expect.stringMatching(/^v2\./) },
      { role: 'user', content: 'What is the Moon made of?' },
    ]);

    const log = await speechLog(page);
    expect(log.recognition[0]).toEqual({
      event: 'start',
      lang: 'en-US',
      continuous: true,
      interimResults: true,
    });
    // Every reply was spoken, sentence by sentence, in order, and nothing else: what is shown, with its
    // units and figures said as words (382 kg → 382 kilograms, docs/behaviour.md §17.7).
    const replies = await page.locator('.message-astro .bubble-text').allInnerTexts();
    expect(replies).toHaveLength(5);
    expect(log.utterances.map((utterance) => utterance.text).join(' ')).toBe(
      replies.map((reply) => speakableText(reply, 'en-US')).join(' '),
    );
    expect(log.utterances.length).toBeGreaterThan(5);
    expect(
      log.utterances.every((utterance) => utterance.lang === 'en-US' && !utterance.text.includes('*')),
    ).toBe(true);
    await context.close();
  });

  it('disables Start/End while thinking and speaking, and drops what is heard meanwhile', async () => {
    const { context, page } = await openApp(app);
    await holdSpeech(page, true);
    await page.getByRole('button', { name: 'Start Conversation' }).click();
    await waitForStatus(page, 'Speaking...');
    const toggle = page.getByRole('button', { name: 'End Conversation' });
    expect(await toggle.isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Send' }).isDisabled()).toBe(true);

    await speech(page, 'say', 'I am Astro talking to myself');
    await speech(page, 'finishSpeaking');
    await waitForStatus(page, 'Listening...');
    expect(await toggle.isDisabled()).toBe(false);
    expect(await page.locator('.message-user').count()).toBe(0);
    await context.close();
  });

  it('applies the chosen speed to every spoken reply', async () => {
    const { context, page } = await openApp(app);
    await page.getByLabel('Speed').selectOption('1.5');
    await startConversation(page);
    await page.getByLabel('Speed').selectOption('2');
    await sayAndWait(page, 'What is a planet?');
    // Each reply's sentences at the speed chosen when it was spoken: the greeting at 1.5, the answer at 2.
    const rates = (await speechLog(page)).utterances.map((utterance) => utterance.rate);
    expect(rates.slice(0, rates.indexOf(2))).toEqual(Array(rates.indexOf(2)).fill(1.5));
    expect(rates.slice(rates.indexOf(2)).every((rate) => rate === 2)).toBe(true);
    expect(rates.indexOf(2)).toBeGreaterThan(0);
    expect(await page.getByLabel('Speed').locator('option').allInnerTexts()).toEqual([
      '1×',
      '1.25×',
      '1.5×',
      '2×',
    ]);
    await context.close();
  });

  it('restarts recognition when the browser ends it, and End stops it for good', async () => {
    const { context, page } = await openApp(app);
    await startConversation(page);
    await speech(page, 'endByBrowser');
    await expect
      .poll(async () => (await speechLog(page)).recognition.filter((e) => e.event === 'start').length)
      .toBe(2);

    await page.getByRole('button', { name: 'End Conversation' }).click();
    expect(await statusOf(page)).toContain('Ready when you are');
    await expect
      .poll(() =>
        page.evaluate(() =>
          (window as unknown as { __speech: { isListening(): boolean } }).__speech.isListening(),
        ),
      )
      .toBe(false);
    const events = (await speechLog(page)).recognition.map((event) => event.event);
    expect(events.at(-1)).not.toBe('start');
    // Nothing heard after End reaches the transcript.
    expect(await speech(page, 'say', 'Are you still there?')).toBe(false);
    expect(await page.locator('.message-user').count()).toBe(0);
    expect(await page.getByLabel('Type a message to Astro').isDisabled()).toBe(true);
    await context.close();
  });

  it('renders **bold** as bold, shows markup as text, and speaks without markdown, names said right', async () => {
    const { context, page } = await openApp(app);
    await page.route('**/api/chat', async (route) => {
      const body = route.request().postDataJSON() as { userMessage: string };
      if (!body.userMessage.startsWith('Markup')) return route.continue();
      await route.fulfill({
        json: {
          response:
            '**Jupiter** is the largest planet, and `Io` is its moon. <img src=x onerror="window.__pwned=1">',
        },
      });
    });
    await startConversation(page);
    await typeAndWait(page, 'Markup please');
    const last = page.locator('.message-astro').last();
    expect(await last.locator('strong').innerText()).toBe('Jupiter');
    expect(await last.innerText()).toContain('<img src=x onerror="window.__pwned=1">');
    expect(await last.locator('img').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    // The browser voice gets Io's alias spelling (docs/behaviour.md §17.8), and no tag is read out.
    const spoken = (await speechLog(page)).utterances.at(-1)?.text;
    expect(spoken).toBe('Jupiter is the largest planet, and Eye oh is its moon.');
    await context.close();
  });

  it('returns to listening after a chat failure, with no error shown', async () => {
    const { context, page } = await openApp(app);
    await startConversation(page);
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.route('**/api/chat', (route) =>
      route.fulfill({
        status: 502,
        json: { error: { code: 'upstream_error', message: 'The tutor is unavailable.' } },
      }),
    );
    await speech(page, 'say', 'What is a nebula?');
    await waitForStatus(page, 'Listening...');
    expect(await page.locator('.message-user').count()).toBe(1);
    expect(await page.locator('.message-astro').count()).toBe(1);
    expect(await page.locator('body').innerText()).not.toMatch(/unavailable|failed|error/i);
    expect(errors.some((text) => text.includes('API call failed: 502'))).toBe(true);

    // And the conversation carries on.
    await page.unroute('**/api/chat');
    await sayAndWait(page, 'What is a nebula?');
    await context.close();
  });

  it('scrolls the transcript to the newest message and the page to the top on load', async () => {
    const { context, page } = await openApp(app, { viewport: { width: 390, height: 844 } });
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    // The browser must not restore an old scroll position on reload.
    expect(await page.evaluate(() => history.scrollRestoration)).toBe('manual');
    await startConversation(page);
    for (const question of ['What is a galaxy?', 'What is a comet?', 'What is a moon?']) {
      await typeAndWait(page, question);
    }
    const transcript = page.getByRole('region', { name: 'Conversation with Astro' });
    // The newest message is wholly in view. (The last lesson's check question is open, so the transcript
    // stops short of its very bottom if that keeps the question in view too: docs/behaviour.md §2.6.)
    await expect
      .poll(() =>
        transcript.evaluate((element) => {
          const newest = element.querySelector('.message:last-child')?.getBoundingClientRect();
          const view = element.getBoundingClientRect();
          const top = view.top + element.clientTop;
          return (
            newest !== undefined && newest.top >= top - 1 && newest.bottom <= top + element.clientHeight + 1
          );
        }),
      )
      .toBe(true);
    expect(await transcript.evaluate((element) => element.scrollHeight > element.clientHeight)).toBe(true);
    await context.close();
  });
});
