import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createChatHandler } from '../../../lambdas/chat/handler';
import type { ErrorBody } from '../../../lambdas/contract/errors';
import { API_ROUTES } from '../../../lambdas/contract/routes';
import type { ApiHandler } from '../../../lambdas/http/endpoint';
import {
  answersInTurn,
  converseAnswer,
  jsonOf,
  startBedrockFake,
  textBlock,
} from '../../support/bedrock-fake';
import { apiEvent, bodyOf } from '../../support/events';
import type { FakeServer } from '../../support/loopback';
import { TRUST_ENV } from '../../support/trust';

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
      apiEvent({ path: API_ROUTES.chat, body: { userMessage: 'Hi', language: 'en-US', chatHistory: [] } }),
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

  it('refuses a malformed guardrail id at cold start, naming the variable', () => {
    expect(() => handlerWith({ BEDROCK_GUARDRAIL_ID: 'not an id!' })).toThrow(/BEDROCK_GUARDRAIL_ID/);
  });
});
