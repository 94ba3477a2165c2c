import type { Request } from 'playwright-core';
import { beforeAll, afterAll, describe, expect, it } from 'vitest';
import { completion, completionChunk, sseAnswer, sseData, streamedCompletion } from '#support/openai-fake';
import { sendJson, startFakeServer, type FakeRoute, type FakeServer } from '#support/loopback';
import { gate } from '#support/tutor-stream';
import { holdSpeech, openApp, speechLog, startConversation, useTestApp, waitForStatus } from './support/app';

// A reply streamed end to end: an OpenAI-compatible model served by a fake on 127.0.0.1 streams its
// answer to the real local server, which streams NDJSON to the real app in Chromium; the app shows the
// reply as it grows and speaks each sentence as soon as it is complete (the browser's speech is scripted).
let model: FakeServer;
beforeAll(async () => {
  model = await startFakeServer(answer(['Hello there! ', 'I am Astro.']));
});
afterAll(() => model.close());
const app = useTestApp({
  env: () => ({ ASTRO_MODEL: 'openai', OPENAI_BASE_URL: `${model.url}/v1`, OPENAI_MODEL: 'fake-model' }),
});

/** The model's answer: streamed when asked to stream, whole otherwise. */
function answer(
  pieces: readonly string[],
  streamed: FakeRoute = sseAnswer(streamedCompletion(pieces)),
): FakeRoute {
  return (request, response) => {
    const body = JSON.parse(request.body.toString()) as { stream?: boolean };
    if (body.stream) return streamed(request, response);
    sendJson(response, 200, completion({ content: pieces.join('') }));
  };
}

const spoken = async (page: Parameters<typeof speechLog>[0]) =>
  (await speechLog(page)).utterances.map((utterance) => utterance.text);

describe('a streamed reply in Chromium', () => {
  it('grows the bubble and speaks the first sentence while the model is still writing; Skip drops the rest', async () => {
    const { context, page } = await openApp(app);
    await startConversation(page);
    const midway = gate();
    model.respondWith(
      answer(
        [],
        sseAnswer([
          sseData(completionChunk({ content: 'Saturn has rings. ' })),
          sseData(completionChunk({ content: 'They are' })),
          midway.wait,
          sseData(completionChunk({ content: ' made of ice. Shall I say more?' })),
          sseData(completionChunk({ finishReason: 'stop' })),
          'data: [DONE]\n\n',
        ]),
      ),
    );
    await holdSpeech(page, true);
    await page.getByLabel('Type a message to Astro').fill('Tell me about Saturn');
    await page.getByRole('button', { name: 'Send' }).click();

    const reply = page.locator('.message-astro .bubble-text').nth(1);
    await page.locator('.message-astro', { hasText: 'Saturn has rings.' }).waitFor();
    await waitForStatus(page, 'Speaking...');
    await expect.poll(() => spoken(page)).toContain('Saturn has rings.');
    // The model has not finished: the bubble holds what has arrived so far.
    expect(await reply.innerText()).toBe('Saturn has rings. They are');

    await page.getByRole('button', { name: 'Skip' }).click();
    await waitForStatus(page, 'Listening...');
    midway.open();
    await page.locator('.message-astro', { hasText: 'Shall I say more?' }).waitFor();
    expect(await reply.innerText()).toBe('Saturn has rings. They are made of ice. Shall I say more?');
    expect(await spoken(page)).not.toContain('They are made of ice.');
    await context.close();
  });

  it('speaks the sentences in order once each is complete, listening again after the last', async () => {
    const { context, page } = await openApp(app);
    await startConversation(page);
    model.respondWith(answer(['Stars are ', 'suns. Some are ', 'bigger. ', 'Ours is ', 'average.']));
    await page.getByLabel('Type a message to Astro').fill('What are stars?');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.locator('.message-astro', { hasText: 'Ours is average.' }).waitFor();
    await waitForStatus(page, 'Listening...');
    expect((await spoken(page)).slice(-3)).toEqual([
      'Stars are suns.',
      'Some are bigger.',
      'Ours is average.',
    ]);
    await context.close();
  });

  it('takes a plain JSON answer (an older server, a proxy) as the whole reply and speaks it sentence by sentence', async () => {
    const { context, page } = await openApp(app);
    const accepts: string[] = [];
    await page.route('**/api/chat', async (route) => {
      const request: Request = route.request();
      const response = await route.fetch({ headers: { ...request.headers(), accept: 'application/json' } });
      accepts.push(response.headers()['content-type'] ?? '');
      await route.fulfill({ response });
    });
    await startConversation(page);
    model.respondWith(answer(['Comets are icy. ', 'They have tails.']));
    await page.getByLabel('Type a message to Astro').fill('What is a comet?');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.locator('.message-astro', { hasText: 'They have tails.' }).waitFor();
    await waitForStatus(page, 'Listening...');
    expect(accepts.every((type) => type.startsWith('application/json'))).toBe(true);
    expect((await spoken(page)).slice(-2)).toEqual(['Comets are icy.', 'They have tails.']);
    await context.close();
  });
});
