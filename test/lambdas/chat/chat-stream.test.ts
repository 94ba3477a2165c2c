import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createChatHandler, TUTOR_HEADER } from '#lambdas/chat/handler';
import { initMessage } from '#contract/languages';
import { IMAGE_PROMPT_MAX_CHARS } from '#contract/limits';
import { API_ROUTES } from '#contract/routes';
import type { ChatRequest } from '#contract/schemas';
import type { StreamingApiHandler } from '#lambdas/http/endpoint';
import {
  awsError,
  converseEvent,
  converseException,
  converseStreamAnswer,
  converseStreamEvents,
  startBedrockFake,
} from '#support/bedrock-fake';
import { apiEvent, bodyOf, buffered } from '#support/events';
import { captureLogs, type CapturedLogs } from '#support/logs';
import type { FakeServer } from '#support/loopback';
import { parseLines, readLines, streamed, textOf } from '#support/ndjson';
import { gate } from '#support/tutor-stream';
import { TEST_CONVERSATION_ID } from '#support/trust';
import { readLessonsFirst } from '#support/lessons';

const SECRET_DETAIL = 'upstream-secret-detail-7f3a';
const NDJSON = { Accept: 'application/x-ndjson' };

const chat = (
  handler: StreamingApiHandler,
  request: Partial<ChatRequest> = {},
  headers: Record<string, string> = NDJSON,
  method = 'POST',
) =>
  handler(
    apiEvent({
      method,
      path: API_ROUTES.chat,
      headers,
      body: {
        userMessage: 'What is a comet?',
        language: 'en-US',
        chatHistory: [],
        conversationId: TEST_CONVERSATION_ID,
        ...request,
      },
    }),
  );

describe('POST /api/chat streamed (Accept: application/x-ndjson)', () => {
  let bedrock: FakeServer;
  let handler: StreamingApiHandler;
  let logs: CapturedLogs;

  beforeAll(async () => {
    // Grounding reads a language's lessons on its first use: read before the models' short deadlines.
    await readLessonsFirst('en-US', 'es-ES', 'fr-FR', 'ja-JP');
    bedrock = await startBedrockFake(converseStreamAnswer(converseStreamEvents(['Hi!'])));
    handler = createChatHandler({
      ASTRO_MODEL: 'bedrock',
      BEDROCK_ENDPOINT: bedrock.url,
      // Deadlines a busy machine never reaches between two events: the one test of the idle deadline
      // builds its own handler.
      MODEL_TIMEOUT_MS: '20000',
      MODEL_IDLE_TIMEOUT_MS: '10000',
    });
  });
  afterAll(() => bedrock.close());
  beforeEach(() => {
    logs = captureLogs();
  });
  afterEach(() => logs.restore());

  it('answers 200 NDJSON: deltas in order, then done with the whole reply, and the X-Astro-Tutor header', async () => {
    bedrock.respondWith(converseStreamAnswer(converseStreamEvents(['A comet is', ' a dirty', ' snowball.'])));

    const result = streamed(await chat(handler));
    const lines = await readLines(result);

    expect(result.statusCode).toBe(200);
    expect(result.headers).toMatchObject({
      'Content-Type': 'application/x-ndjson',
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      [TUTOR_HEADER]: 'bedrock',
    });
    expect(lines.map((line) => line.type)).toEqual(['delta', 'delta', 'delta', 'done']);
    expect(lines.at(-1)).toEqual({
      type: 'done',
      response: 'A comet is a dirty snowball.',
      signature: expect.stringMatching(/^v2\./),
    });
    expect(textOf(lines)).toBe('A comet is a dirty snowball.');
  });

  it('never lets the __INIT__ marker through, even split across two deltas', async () => {
    bedrock.respondWith(
      converseStreamAnswer(
        converseStreamEvents(['__IN', 'IT__ Hello, I am', ' Astro! What shall we explore?']),
      ),
    );

    const lines = await readLines(await chat(handler, { userMessage: initMessage('en-US') }));

    expect(JSON.stringify(lines)).not.toContain('__IN');
    expect(textOf(lines)).toBe('Hello, I am Astro! What shall we explore?');
    expect(lines.at(-1)).toEqual({
      type: 'done',
      response: 'Hello, I am Astro! What shall we explore?',
      signature: expect.stringMatching(/^v2\./),
    });
  });

  it('sends at the end the characters held back as a possible __INIT__, so the deltas join to done', async () => {
    // Markdown bold ends in "__", the start of the marker: held back until nothing more can come.
    bedrock.respondWith(converseStreamAnswer(converseStreamEvents(['The biggest planet is __Jupiter__'])));

    const lines = await readLines(await chat(handler));

    expect(lines.at(-1)).toEqual({
      type: 'done',
      response: 'The biggest planet is __Jupiter__',
      signature: expect.stringMatching(/^v2\./),
    });
    expect(textOf(lines)).toBe('The biggest planet is __Jupiter__');
  });

  it('sends one picture line with the prompt cut to the contract limit, and the same prompt in done', async () => {
    const longPrompt = 'A very detailed view of the rings of Saturn '.repeat(40);
    bedrock.respondWith(
      converseStreamAnswer(
        converseStreamEvents(['Look!'], {
          tools: [
            { toolUseId: 't1', name: 'show_picture', input: [JSON.stringify({ prompt: longPrompt })] },
            { toolUseId: 't2', name: 'show_picture', input: ['{"prompt":"another picture"}'] },
          ],
        }),
      ),
    );

    const lines = await readLines(await chat(handler));

    const pictures = lines.filter((line) => line.type === 'picture');
    expect(pictures).toHaveLength(1);
    const prompt = pictures[0]?.type === 'picture' ? pictures[0].imagePrompt : '';
    expect(prompt.length).toBeLessThanOrEqual(IMAGE_PROMPT_MAX_CHARS);
    expect(longPrompt.startsWith(prompt)).toBe(true);
    expect(lines.at(-1)).toEqual({
      type: 'done',
      response: 'Look!',
      imagePrompt: prompt,
      signature: expect.stringMatching(/^v2\./),
      imageTicket: expect.stringMatching(/^v1\./),
    });
  });

  it('answers a failure before the first line as an ordinary error response', async () => {
    bedrock.respondWith(awsError(429, 'ThrottlingException', SECRET_DETAIL));

    const result = buffered(await chat(handler));

    expect(result.statusCode).toBe(429);
    expect(result.headers?.['Content-Type']).toBe('application/json');
    expect(bodyOf(result)).toEqual({
      error: { code: 'rate_limited', message: expect.any(String) },
    });
    expect(result.body).not.toContain(SECRET_DETAIL);
  });

  it('ends a stream that fails after its first line with an error line, logged once', async () => {
    bedrock.respondWith(
      converseStreamAnswer([
        converseEvent('messageStart', { role: 'assistant' }),
        converseEvent('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'A comet is a ' } }),
        converseException('throttlingException', SECRET_DETAIL),
      ]),
    );

    const result = streamed(await chat(handler));
    const lines = await readLines(result);

    expect(result.statusCode).toBe(200);
    expect(lines).toEqual([
      { type: 'delta', text: 'A comet is a' },
      { type: 'error', error: { code: 'rate_limited', message: expect.any(String) } },
    ]);
    expect(JSON.stringify(lines)).not.toContain(SECRET_DETAIL);
    const requests = logs.entries().filter((entry) => entry.message === 'request');
    expect(requests).toEqual([
      expect.objectContaining({ route: '/api/chat', status: 200, errorCode: 'rate_limited', streamed: true }),
    ]);
  });

  it('ends with an error line when the model goes quiet mid-reply', async () => {
    const never = gate();
    bedrock.respondWith(
      converseStreamAnswer(
        [
          converseEvent('messageStart', { role: 'assistant' }),
          converseEvent('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'A comet is' } }),
          never.wait,
        ],
        { end: false },
      ),
    );

    // The whole deadline far beyond the test's own: only the idle deadline can end the reply in time. The
    // idle deadline also covers the first event, so it leaves a busy machine room to get that far.
    const patient = createChatHandler({
      ASTRO_MODEL: 'bedrock',
      BEDROCK_ENDPOINT: bedrock.url,
      MODEL_TIMEOUT_MS: '60000',
      MODEL_IDLE_TIMEOUT_MS: '1500',
    });

    const lines = await readLines(await chat(patient));

    expect(lines.at(-1)).toEqual({
      type: 'error',
      error: { code: 'upstream_timeout', message: expect.any(String) },
    });
    never.open();
  });

  it('stops the model when the client stops reading, and logs that it closed early', async () => {
    let modelStopped!: () => void;
    const stopped = new Promise<void>((resolve) => (modelStopped = resolve));
    bedrock.respondWith((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'application/vnd.amazon.eventstream' });
      response.write(converseEvent('messageStart', { role: 'assistant' }));
      response.write(
        converseEvent('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'A comet is' } }),
      );
      // The model would go on; only the call being cancelled ends it.
      response.once('close', modelStopped);
    });
    // Deadlines far beyond the test's own: only the cancellation can end the model's call in time.
    const patient = createChatHandler({
      ASTRO_MODEL: 'bedrock',
      BEDROCK_ENDPOINT: bedrock.url,
      MODEL_TIMEOUT_MS: '60000',
      MODEL_IDLE_TIMEOUT_MS: '60000',
    });
    const result = streamed(await chat(patient));
    const reader = result.body[Symbol.asyncIterator]();

    expect(parseLines((await reader.next()).value as string)).toEqual([
      { type: 'delta', text: 'A comet is' },
    ]);
    await reader.return?.();
    await stopped;

    expect(logs.entries().filter((entry) => entry.message === 'request')).toEqual([
      expect.objectContaining({ status: 200, streamed: true, closedEarly: true }),
    ]);
  });

  it('keeps every rule of the endpoint: POST only, validation, a blank message refused', async () => {
    expect(buffered(await chat(handler, {}, NDJSON, 'GET')).statusCode).toBe(405);
    expect(bodyOf(buffered(await chat(handler, { language: 'xx-XX' as never }))).error).toMatchObject({
      code: 'invalid_request',
    });
    expect(buffered(await chat(handler, { userMessage: '   ' })).statusCode).toBe(400);
  });
});

describe('POST /api/chat: streamed or not, the same reply', () => {
  const handler = createChatHandler({});

  it('streams the offline lesson in several deltas whose done equals the JSON reply', async () => {
    const request = { userMessage: 'Tell me about Saturn' };

    const lines = await readLines(await chat(handler, request));
    const json = buffered(await chat(handler, request, {}));

    expect(lines.filter((line) => line.type === 'delta').length).toBeGreaterThan(3);
    const { type: _type, ...done } = lines.at(-1) as { type: string };
    expect(done).toEqual(bodyOf(json));
    expect(textOf(lines)).toBe(bodyOf<{ response: string }>(json).response);
    expect(json.headers?.[TUTOR_HEADER]).toBe('offline');
  });

  it('offers the offline picture right after the first piece, so it is drawn while the lesson is read', async () => {
    const lines = await readLines(await chat(handler, { userMessage: 'Tell me about Saturn' }));

    expect(lines.map((line) => line.type).slice(0, 3)).toEqual(['delta', 'picture', 'delta']);
  });

  it.each([
    ['no Accept header', {}],
    ['Accept: application/json', { Accept: 'application/json' }],
    ['the stream refused with q=0', { Accept: 'application/x-ndjson;q=0, application/json' }],
  ])('answers JSON, unchanged, with %s', async (_case, headers) => {
    const result = buffered(await chat(handler, {}, headers));

    expect(result.headers?.['Content-Type']).toBe('application/json');
    expect(Object.keys(bodyOf(result))).toContain('response');
  });

  it('streams for an Accept list naming NDJSON in any letter case', async () => {
    const result = await chat(handler, {}, { accept: 'application/json;q=0.5, Application/X-NDJSON' });

    expect(streamed(result).headers['Content-Type']).toBe('application/x-ndjson');
  });
});
