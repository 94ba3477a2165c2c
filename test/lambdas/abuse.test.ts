/**
 * The abuse suite (docs/behaviour.md §6.3, §12): what an attacker tries against each endpoint, through the
 * real handlers. Cross-site calls, forged reply signatures and forged picture tickets are refused with
 * 403 before any upstream is called; a request from the site itself still works.
 */
import type { ServerResponse } from 'node:http';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createChatHandler as streamingChatHandler } from '#lambdas/chat/handler';
import type { ErrorBody } from '#contract/errors';
import { API_ROUTES, type RouteName } from '#contract/routes';
import { createFeedbackHandler } from '#lambdas/feedback/handler';
import { createGenerateImageHandler } from '#lambdas/generate-image/handler';
import type { ApiHandler } from '#lambdas/http/endpoint';
import { createSpeechTokenHandler } from '#lambdas/speech-token/handler';
import { startTestDynamo, type TestDynamo } from '#support/dynalite';
import { answersInJson, apiEvent, bodyOf } from '#support/events';
import { feedbackBody } from '#support/feedback';
import { awsError, startBedrockFake } from '#support/bedrock-fake';
import { captureLogs } from '#support/logs';
import { sendJson, startFakeServer, type FakeRoute, type FakeServer } from '#support/loopback';
import { TEST_CONVERSATION_ID, ticketFor, TRUST_ENV } from '#support/trust';

/** These tests read whole JSON answers. */
const createChatHandler = (...args: Parameters<typeof streamingChatHandler>) =>
  answersInJson(streamingChatHandler(...args));

let dynamo: TestDynamo;
let sts: FakeServer;
let pictureDir: string;
let handlers: Record<RouteName, ApiHandler>;

/** The deployed setting: CloudFront names the viewer's host in x-astro-site-host; one custom domain. */
const SITE_ENV = { SITE_HOST_HEADER: 'x-astro-site-host', SITE_ORIGINS: 'https://astro.example.org' };
const SITE_HOST = 'd1234abcd.cloudfront.net';

beforeAll(async () => {
  dynamo = await startTestDynamo('astro-feedback-abuse');
  sts = await startFakeServer((_request, response: ServerResponse) => {
    response.writeHead(200, { 'Content-Type': 'application/jwt' });
    response.end('eyJhbGciOiJIUzI1NiJ9.eyJhYnVzZSI6dHJ1ZX0.c2lnbmF0dXJl');
  });
  pictureDir = await mkdtemp(join(tmpdir(), 'astro-abuse-images-'));
  const env = { ...TRUST_ENV, ...SITE_ENV };
  handlers = {
    chat: createChatHandler(env),
    generateImage: createGenerateImageHandler({ ...env, IMAGE_DIR: pictureDir }),
    feedback: createFeedbackHandler({
      ...env,
      FEEDBACK_TABLE: dynamo.tableName,
      DYNAMODB_ENDPOINT: dynamo.endpoint,
    }),
    speechToken: createSpeechTokenHandler({
      ...env,
      AZURE_SPEECH_KEY: 'abusekeyabusekeyabusekey12345678',
      AZURE_STS_BASE_URL: sts.url,
    }),
  };
});
afterAll(async () => {
  await dynamo.close();
  await sts.close();
  await rm(pictureDir, { recursive: true, force: true });
});
beforeEach(() => {
  sts.requests.length = 0;
});

/** A valid body for each endpoint, so only the headers decide. */
const validBody = (route: RouteName): unknown => {
  switch (route) {
    case 'chat':
      return {
        userMessage: 'What is a star?',
        language: 'en-US',
        chatHistory: [],
        conversationId: TEST_CONVERSATION_ID,
      };
    case 'generateImage':
      return { prompt: 'A red giant star', ticket: ticketFor('A red giant star') };
    case 'feedback':
      return feedbackBody();
    case 'speechToken':
      return undefined;
  }
};

const call = (route: RouteName, headers: Record<string, string>) =>
  handlers[route](apiEvent({ path: API_ROUTES[route], body: validBody(route), headers }));

const ROUTES = Object.keys(API_ROUTES) as RouteName[];

describe('the origin rule, on every endpoint', () => {
  describe.each(ROUTES)('%s', (route) => {
    it.each<[string, Record<string, string>]>([
      ['Sec-Fetch-Site: cross-site', { 'Sec-Fetch-Site': 'cross-site', 'x-astro-site-host': SITE_HOST }],
      ['an Origin of another site', { Origin: 'https://evil.example', 'x-astro-site-host': SITE_HOST }],
      ['an Origin that only starts like the site', { Origin: `https://${SITE_HOST}.evil.example` }],
      ['Origin: null (a sandboxed frame or a file)', { Origin: 'null', 'x-astro-site-host': SITE_HOST }],
      [
        'an Origin matching the API host but not the site',
        {
          Origin: 'https://abc.execute-api.us-east-1.amazonaws.com',
          Host: 'abc.execute-api.us-east-1.amazonaws.com',
        },
      ],
    ])('refuses %s with 403 forbidden before any work', async (_case, headers) => {
      const items = (await dynamo.scanAll()).length;
      const pictures = (await readdir(pictureDir)).length;

      const result = await call(route, headers);

      expect(result.statusCode).toBe(403);
      expect(bodyOf<ErrorBody>(result).error.code).toBe('forbidden');
      expect(sts.requests).toHaveLength(0);
      expect((await dynamo.scanAll()).length).toBe(items);
      expect((await readdir(pictureDir)).length).toBe(pictures);
    });

    it.each<[string, Record<string, string>]>([
      [
        'the site itself',
        { Origin: `https://${SITE_HOST}`, 'Sec-Fetch-Site': 'same-origin', 'x-astro-site-host': SITE_HOST },
      ],
      ['a configured site origin', { Origin: 'https://ASTRO.example.org', 'x-astro-site-host': SITE_HOST }],
      ['no Origin at all (not a browser cross-origin call)', {}],
    ])('serves %s', async (_case, headers) => {
      const result = await call(route, headers);

      expect(result.statusCode).toBeLessThan(300);
    });
  });
});

describe('logs never carry an upstream error body (it can echo the learner)', () => {
  const LEARNER_WORDS = 'my-home-address-is-42-secret-lane';

  it.each<[string, (server: FakeServer) => Record<string, string>, FakeRoute]>([
    [
      'an OpenAI-compatible server that quotes the request in a 500',
      (server) => ({ ASTRO_MODEL: 'openai', OPENAI_BASE_URL: server.url, OPENAI_MODEL: 'm' }),
      (_request, response) => sendJson(response, 500, { error: { message: `bad input: ${LEARNER_WORDS}` } }),
    ],
    [
      'an OpenAI-compatible server that quotes the request in a 400',
      (server) => ({ ASTRO_MODEL: 'openai', OPENAI_BASE_URL: server.url, OPENAI_MODEL: 'm' }),
      (_request, response) =>
        sendJson(response, 400, { error: { message: `cannot parse ${LEARNER_WORDS}` } }),
    ],
  ])('%s: status and length are logged, the body is not', async (_case, envOf, route) => {
    const server = await startFakeServer(route);
    const logs = captureLogs();
    try {
      const chat = createChatHandler({ ...TRUST_ENV, ...envOf(server) });
      const result = await chat(
        apiEvent({
          path: API_ROUTES.chat,
          body: {
            userMessage: LEARNER_WORDS,
            language: 'en-US',
            chatHistory: [],
            conversationId: TEST_CONVERSATION_ID,
          },
        }),
      );

      expect(result.statusCode).toBeGreaterThanOrEqual(500);
      const logged = logs.lines.join('\n');
      expect(logged).not.toContain(LEARNER_WORDS);
      expect(logged).toMatch(/the server answered (500|400) \(\d+ characters\)/);
    } finally {
      logs.restore();
      await server.close();
    }
  });

  it('a Bedrock error quoting the request: name, status and length are logged, the message is not', async () => {
    const bedrock = await startBedrockFake(
      awsError(400, 'ValidationException', `Malformed input request: ${LEARNER_WORDS}`),
    );
    const logs = captureLogs();
    try {
      const chat = createChatHandler({ ...TRUST_ENV, ASTRO_MODEL: 'bedrock', BEDROCK_ENDPOINT: bedrock.url });
      await chat(
        apiEvent({
          path: API_ROUTES.chat,
          body: {
            userMessage: LEARNER_WORDS,
            language: 'en-US',
            chatHistory: [],
            conversationId: TEST_CONVERSATION_ID,
          },
        }),
      );

      const logged = logs.entries().find((entry) => entry.message === 'request failed');
      expect(logged).toMatchObject({ errorName: 'ValidationException', upstreamStatus: 400 });
      expect(JSON.stringify(logs.lines)).not.toContain(LEARNER_WORDS);
    } finally {
      logs.restore();
      await bedrock.close();
    }
  });
});
