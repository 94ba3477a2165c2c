import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createChatHandler as streamingChatHandler } from '#lambdas/chat/handler';
import type { ErrorBody } from '#contract/errors';
import { API_ROUTES } from '#contract/routes';
import type { ApiHandler } from '#lambdas/http/endpoint';
import {
  answersInTurn,
  converseAnswer,
  converseStreamAnswer,
  converseStreamEvents,
  jsonOf,
  startBedrockFake,
  textBlock,
} from '#support/bedrock-fake';
import { answersInJson, apiEvent, bodyOf } from '#support/events';
import type { FakeServer } from '#support/loopback';
import { readLines } from '#support/ndjson';
import { TEST_CONVERSATION_ID, TRUST_ENV } from '#support/trust';

/** These tests read whole JSON answers. */
const createChatHandler = (...args: Parameters<typeof streamingChatHandler>) =>
  answersInJson(streamingChatHandler(...args));

describe('the Bedrock Guardrail on every Converse call', () => {
  let bedrock: FakeServer;
  beforeAll(async () => {
    bedrock = await startBedrockFake(answersInTurn(converseAnswer([textBlock('Hello!')])));
  });
  afterAll(() => bedrock.close());
  beforeEach(() => {
    bedrock.requests.length = 0;
    bedrock.respondWith(answersInTurn(converseAnswer([textBlock('Hello!')])));
  });

  const handlerWith = (env: Record<string, string>): ApiHandler =>
    createChatHandler({ ...TRUST_ENV, ASTRO_MODEL: 'bedrock', BEDROCK_ENDPOINT: bedrock.url, ...env });
  const chat = (handler: ApiHandler) =>
    handler(
      apiEvent({
        path: API_ROUTES.chat,
        body: { userMessage: 'Hi', language: 'en-US', chatHistory: [], conversationId: TEST_CONVERSATION_ID },
      }),
    );

  it('sends the configured guardrail and version, without a trace', async () => {
    await chat(handlerWith({ BEDROCK_GUARDRAIL_ID: 'abc123xyz', BEDROCK_GUARDRAIL_VERSION: '3' }));

    const [request] = bedrock.requests;
    if (!request) throw new Error('the model was not called');
    expect(jsonOf(request).guardrailConfig).toEqual({
      guardrailIdentifier: 'abc123xyz',
      guardrailVersion: '3',
      trace: 'disabled',
    });
  });

  it('sends no guardrail when none is configured (local runs against a Bedrock endpoint)', async () => {
    await chat(handlerWith({}));

    const [request] = bedrock.requests;
    expect(request && jsonOf(request).guardrailConfig).toBeUndefined();
  });

  it('answers an intervention with 422 content_filtered, never the blocked text', async () => {
    bedrock.respondWith(
      answersInTurn(
        converseAnswer([textBlock('Sorry, the model cannot answer this.')], 'guardrail_intervened'),
      ),
    );

    const result = await chat(handlerWith({ BEDROCK_GUARDRAIL_ID: 'abc123xyz' }));

    expect(result.statusCode).toBe(422);
    expect(bodyOf<ErrorBody>(result).error.code).toBe('content_filtered');
    expect(result.body).not.toContain('cannot answer');
  });

  it('carries the guardrail on the streamed call too, and ends the stream with content_filtered when it intervenes', async () => {
    bedrock.respondWith(
      converseStreamAnswer(converseStreamEvents(['Sorry.'], { stopReason: 'guardrail_intervened' })),
    );
    const handler = streamingChatHandler({
      ...TRUST_ENV,
      ASTRO_MODEL: 'bedrock',
      BEDROCK_ENDPOINT: bedrock.url,
      BEDROCK_GUARDRAIL_ID: 'abc123xyz',
      BEDROCK_GUARDRAIL_VERSION: '3',
    });

    const lines = await readLines(
      await handler(
        apiEvent({
          path: API_ROUTES.chat,
          headers: { Accept: 'application/x-ndjson' },
          body: {
            userMessage: 'Hi',
            language: 'en-US',
            chatHistory: [],
            conversationId: TEST_CONVERSATION_ID,
          },
        }),
      ),
    );

    const [request] = bedrock.requests;
    if (!request) throw new Error('the model was not called');
    expect(request.url).toContain('converse-stream');
    expect(jsonOf(request).guardrailConfig).toMatchObject({
      guardrailIdentifier: 'abc123xyz',
      guardrailVersion: '3',
    });
    expect(lines.at(-1)).toMatchObject({ type: 'error', error: { code: 'content_filtered' } });
    expect(lines.some((line) => line.type === 'done')).toBe(false);
  });

  it('refuses a malformed guardrail id at cold start, naming the variable', () => {
    expect(() => handlerWith({ BEDROCK_GUARDRAIL_ID: 'not an id!' })).toThrow(/BEDROCK_GUARDRAIL_ID/);
  });
});
