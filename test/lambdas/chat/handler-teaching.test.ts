/**
 * Teaching through POST /api/chat (docs/behaviour.md §17.1, §17.2): the level reaches the model, and the
 * check a model reports lands on the JSON answer and on the streamed `done` line. OpenAI-compatible
 * tutor against the loopback fake, and the offline tutor loaded on demand.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createChatHandler } from '#lambdas/chat/handler';
import { API_ROUTES } from '#contract/routes';
import type { ChatRequest } from '#contract/schemas';
import type { StreamingApiHandler } from '#lambdas/http/endpoint';
import { loadedTutor } from '#lambdas/tutor/create-tutor';
import { jsonOf } from '#support/bedrock-fake';
import { apiEvent, bodyOf, buffered } from '#support/events';
import { captureLogs, type CapturedLogs } from '#support/logs';
import { sendJson, startFakeServer, type FakeRoute, type FakeServer } from '#support/loopback';
import { completion, sseAnswer, sseData, completionChunk } from '#support/openai-fake';
import { readLines } from '#support/ndjson';
import { collect } from '#support/tutor-stream';
import { TEST_CONVERSATION_ID } from '#support/trust';

const request = (overrides: Partial<ChatRequest> = {}) => ({
  userMessage: 'Eight?',
  language: 'en-US',
  chatHistory: [],
  conversationId: TEST_CONVERSATION_ID,
  ...overrides,
});

const judged: FakeRoute = (incoming, response) =>
  jsonOf<{ stream?: boolean }>(incoming).stream === true
    ? sseAnswer([
        sseData(completionChunk({ content: 'Yes, eight!' })),
        sseData(
          completionChunk({
            toolCalls: [{ index: 0, id: 'call_1', name: 'check_answer', arguments: '{"correct":true}' }],
          }),
        ),
        sseData(completionChunk({ finishReason: 'tool_calls' })),
        'data: [DONE]\n\n',
      ])(incoming, response)
    : sendJson(
        response,
        200,
        completion({
          content: 'Yes, eight!',
          toolCalls: [
            {
              id: 'call_1',
              type: 'function',
              function: { name: 'check_answer', arguments: '{"correct":true}' },
            },
          ],
        }),
      );

describe('POST /api/chat teaching with a model', () => {
  let model: FakeServer;
  let handler: StreamingApiHandler;

  beforeAll(async () => {
    model = await startFakeServer(judged);
    handler = createChatHandler({
      ASTRO_MODEL: 'openai',
      OPENAI_BASE_URL: model.url,
      OPENAI_MODEL: 'llama3.2',
      MODEL_TIMEOUT_MS: '2000',
    });
  });
  afterAll(() => model.close());
  beforeEach(() => {
    model.requests.length = 0;
  });

  it('puts the check on the JSON answer', async () => {
    const result = buffered(await handler(apiEvent({ path: API_ROUTES.chat, body: request() })));

    expect(result.statusCode).toBe(200);
    expect(bodyOf(result)).toMatchObject({
      response: 'Yes, eight!',
      check: { type: 'answer', correct: true },
    });
  });

  it('puts the check on the streamed done line', async () => {
    const lines = await readLines(
      await handler(
        apiEvent({ path: API_ROUTES.chat, headers: { Accept: 'application/x-ndjson' }, body: request() }),
      ),
    );

    expect(lines.at(-1)).toMatchObject({
      type: 'done',
      response: 'Yes, eight!',
      check: { type: 'answer', correct: true },
    });
  });

  it("teaches at the request's level", async () => {
    await handler(apiEvent({ path: API_ROUTES.chat, body: request({ level: 'child' }) }));
    await handler(apiEvent({ path: API_ROUTES.chat, body: request({ level: 'adult' }) }));

    const system = (index: number) => {
      const sent = model.requests[index];
      if (!sent) throw new Error(`no request ${index}`);
      return jsonOf<{ messages: { content: string }[] }>(sent).messages[0]?.content;
    };
    expect(system(0)).toMatch(/young explorer aged 8 to 11/);
    expect(system(1)).toMatch(/with an adult\./);
  });
});

describe('the offline tutor, loaded only when chosen', () => {
  let logs: CapturedLogs;
  beforeEach(() => {
    logs = captureLogs();
  });
  afterEach(() => logs.restore());

  it('answers through /api/chat once its lessons have loaded', async () => {
    const handler = createChatHandler({ ASTRO_MODEL: 'offline' });

    const result = buffered(
      await handler(
        apiEvent({ path: API_ROUTES.chat, body: request({ userMessage: 'What is a black hole?' }) }),
      ),
    );

    expect(result.statusCode).toBe(200);
    expect(bodyOf<{ response: string }>(result).response).toMatch(/black hole/i);
  });

  it('answers 503 not_configured, replies and streams alike, when its lessons cannot be loaded', async () => {
    const tutor = loadedTutor(async () => {
      throw new Error('en-US.json: topics.sun.explanation: too short');
    });
    const ask = { userMessage: 'Hello', language: 'en-US' as const, history: [] };

    await expect(tutor.reply(ask)).rejects.toMatchObject({ code: 'not_configured', status: 503 });
    const streamed = await collect(tutor.stream(ask));

    expect(streamed.events).toEqual([]);
    expect(streamed.error).toMatchObject({ code: 'not_configured' });
    const errors = logs.entries().filter((entry) => entry.level === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]?.errorMessage).toMatch(/too short/);
  });
});
