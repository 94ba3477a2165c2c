import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createChatHandler, TUTOR_HEADER } from '#lambdas/chat/handler';
import { API_ROUTES } from '#contract/routes';
import { initMessage } from '#contract/languages';
import { IMAGE_PROMPT_MAX_CHARS } from '#contract/limits';
import { chatResponseSchema, type ChatRequest } from '#contract/schemas';
import type { ErrorBody } from '#contract/errors';
import { handlerAtColdStart } from '#lambdas/http/cold-start';
import type { StreamingApiHandler } from '#lambdas/http/endpoint';
import {
  answersInTurn,
  awsError,
  converseAnswer,
  pictureBlock,
  startBedrockFake,
  textBlock,
} from '#support/bedrock-fake';
import { apiEvent, bodyOf, buffered } from '#support/events';
import { captureLogs, type CapturedLogs } from '#support/logs';
import { hang, startFakeServer, type FakeServer } from '#support/loopback';
import { completion, openAiError } from '#support/openai-fake';
import { TEST_CONVERSATION_ID } from '#support/trust';
import { readLessonsFirst } from '#support/lessons';

const SECRET_DETAIL = 'upstream-secret-detail-7f3a';

const chat = async (handler: StreamingApiHandler, request: Partial<ChatRequest> = {}) =>
  buffered(
    await handler(
      apiEvent({
        path: API_ROUTES.chat,
        body: {
          userMessage: 'What is a comet?',
          language: 'en-US',
          chatHistory: [],
          conversationId: TEST_CONVERSATION_ID,
          ...request,
        },
      }),
    ),
  );

describe('POST /api/chat with the Bedrock tutor', () => {
  let bedrock: FakeServer;
  let handler: StreamingApiHandler;
  let logs: CapturedLogs;

  beforeAll(async () => {
    // Grounding reads a language's lessons on its first use: read before the models' short deadlines.
    await readLessonsFirst('en-US', 'es-ES', 'fr-FR', 'ja-JP');
    bedrock = await startBedrockFake(answersInTurn(converseAnswer([textBlock('Hi!')])));
    handler = createChatHandler({
      ASTRO_MODEL: 'bedrock',
      BEDROCK_ENDPOINT: bedrock.url,
      MODEL_TIMEOUT_MS: '1500',
    });
  });
  afterAll(() => bedrock.close());
  beforeEach(() => {
    bedrock.requests.length = 0;
    logs = captureLogs();
  });
  afterEach(() => logs.restore());

  it('answers 200 with the reply, the picture prompt and the X-Astro-Tutor header naming bedrock', async () => {
    bedrock.respondWith(
      answersInTurn(
        converseAnswer(
          [textBlock('A comet is a dirty snowball.'), pictureBlock('A comet near the Sun')],
          'tool_use',
        ),
      ),
    );

    const result = await chat(handler);

    expect(result.statusCode).toBe(200);
    expect(result.headers?.[TUTOR_HEADER]).toBe('bedrock');
    expect(bodyOf(result)).toEqual({
      response: 'A comet is a dirty snowball.',
      imagePrompt: 'A comet near the Sun',
      imageTicket: expect.stringMatching(/^v1\./) as unknown,
      signature: expect.stringMatching(/^v2\./) as unknown,
    });
    expect(chatResponseSchema.safeParse(bodyOf(result)).success).toBe(true);
  });

  it('never lets the __INIT__ marker through, even when the model writes it', async () => {
    bedrock.respondWith(
      answersInTurn(converseAnswer([textBlock('__INIT__ Hello, I am Astro! What shall we explore?')])),
    );

    const result = await chat(handler, { userMessage: initMessage('en-US') });

    expect(result.statusCode).toBe(200);
    expect(result.body).not.toContain('__INIT__');
    expect(bodyOf(result)).toEqual({
      response: 'Hello, I am Astro! What shall we explore?',
      signature: expect.any(String) as unknown,
    });
  });

  it('cuts an over-long picture prompt to the contract limit', async () => {
    const longPrompt = `${'A very detailed view of the rings of Saturn '.repeat(40)}`;
    bedrock.respondWith(
      answersInTurn(converseAnswer([textBlock('Look!'), pictureBlock(longPrompt)], 'tool_use')),
    );

    const body = bodyOf<{ imagePrompt: string }>(await chat(handler));

    expect(longPrompt.length).toBeGreaterThan(IMAGE_PROMPT_MAX_CHARS);
    expect(body.imagePrompt.length).toBeLessThanOrEqual(IMAGE_PROMPT_MAX_CHARS);
    expect(longPrompt.startsWith(body.imagePrompt)).toBe(true);
  });

  it('answers 502 when the model says nothing but the marker', async () => {
    bedrock.respondWith(answersInTurn(converseAnswer([textBlock(' __INIT__ ')])));

    const result = await chat(handler);

    expect(result.statusCode).toBe(502);
    expect(bodyOf<ErrorBody>(result).error.code).toBe('upstream_error');
  });

  it.each([
    ['spaces', '   '],
    ['zero-width characters only', '\u200b\u200c\u200d\u2060\ufeff'],
  ])('refuses a blank message (%s) with 400 without calling the model', async (_case, userMessage) => {
    const result = await chat(handler, { userMessage });

    expect(result.statusCode).toBe(400);
    expect(bodyOf<ErrorBody>(result).error).toEqual({
      code: 'invalid_request',
      message: 'userMessage: must not be blank',
    });
    expect(bedrock.requests).toHaveLength(0);
  });

  it.each([
    ['throttling', awsError(429, 'ThrottlingException', SECRET_DETAIL), 429, 'rate_limited'],
    [
      'a guardrail',
      answersInTurn(converseAnswer([textBlock(SECRET_DETAIL)], 'guardrail_intervened')),
      422,
      'content_filtered',
    ],
    ['a service fault', awsError(500, 'InternalServerException', SECRET_DETAIL), 502, 'upstream_error'],
    ['a hang', hang, 504, 'upstream_timeout'],
  ])(
    'answers %s with the contract error and never the upstream message',
    async (_case, route, status, code) => {
      bedrock.respondWith(route);

      const result = await chat(handler);

      expect(result.statusCode).toBe(status);
      expect(bodyOf<ErrorBody>(result).error.code).toBe(code);
      expect(result.body).not.toContain(SECRET_DETAIL);
      expect(result.headers?.[TUTOR_HEADER]).toBeUndefined();
    },
  );
});

describe('POST /api/chat with the OpenAI-compatible tutor', () => {
  let server: FakeServer;
  beforeAll(async () => {
    server = await startFakeServer(
      answersInTurn(completion({ content: 'Stars are giant balls of hot gas.' })),
    );
  });
  afterAll(() => server.close());

  const openAiHandler = () =>
    createChatHandler({
      ASTRO_MODEL: 'openai',
      OPENAI_BASE_URL: server.url,
      OPENAI_MODEL: 'llama3.2',
      OPENAI_API_KEY: 'sk-never-logged',
    });

  it('answers 200 with the X-Astro-Tutor header naming openai', async () => {
    const result = await chat(openAiHandler(), { userMessage: 'What is a star?' });

    expect(result.statusCode).toBe(200);
    expect(result.headers?.[TUTOR_HEADER]).toBe('openai');
    expect(bodyOf(result)).toEqual({
      response: 'Stars are giant balls of hot gas.',
      signature: expect.any(String) as unknown,
    });
  });

  it('keeps the upstream message out of the answer and the API key out of the logs', async () => {
    server.respondWith(openAiError(500, SECRET_DETAIL));
    const logs = captureLogs();

    const result = await chat(openAiHandler());

    logs.restore();
    expect(result.statusCode).toBe(502);
    expect(result.body).not.toContain(SECRET_DETAIL);
    expect(logs.lines.join('\n')).not.toContain('sk-never-logged');
    expect(logs.entries().some((entry) => entry.code === 'upstream_error')).toBe(true);
  });
});

describe('POST /api/chat with the default configuration', () => {
  it('answers with the offline tutor and says so in the X-Astro-Tutor header', async () => {
    const result = await chat(createChatHandler({}), { userMessage: initMessage('en-US') });

    expect(result.statusCode).toBe(200);
    expect(result.headers?.[TUTOR_HEADER]).toBe('offline');
    expect(result.body).not.toContain('__INIT__');
    expect(bodyOf<{ response: string }>(result).response).toContain('Astro');
  });

  it('answers 503 not_configured when the provider is named without its settings', async () => {
    const logs = captureLogs();
    const handler = handlerAtColdStart(API_ROUTES.chat, () => createChatHandler({ ASTRO_MODEL: 'openai' }));

    const result = await chat(handler);

    logs.restore();
    expect(result.statusCode).toBe(503);
    expect(bodyOf<ErrorBody>(result).error.code).toBe('not_configured');
    expect(logs.lines.join('\n')).toContain('OPENAI_BASE_URL');
  });
});
