/**
 * Property: whatever arrives (random or malformed bodies, wrong content types, base64, methods, huge
 * strings, deep nesting, prototype keys), every handler answers without throwing, never with a 5xx, and
 * always with either the error JSON of the contract or a 2xx body the contract allows.
 */
import fc from 'fast-check';
import type { ServerResponse } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatHandler } from '#lambdas/chat/handler';
import { ERROR_STATUS, type ErrorCode } from '#contract/errors';
import { LOCALES } from '#contract/languages';
import { API_ROUTES } from '#contract/routes';
import {
  chatResponseSchema,
  feedbackResponseSchema,
  generateImageResponseSchema,
  speechTokenResponseSchema,
} from '#contract/schemas';
import { createFeedbackHandler } from '#lambdas/feedback/handler';
import { createGenerateImageHandler } from '#lambdas/generate-image/handler';
import { buffered } from '#support/events';
import { readLines, textOf } from '#support/ndjson';
import { isStreamed, type ApiEvent, type ApiHandler, type StreamingApiHandler } from '#lambdas/http/endpoint';
import { createSpeechTokenHandler } from '#lambdas/speech-token/handler';
import { startTestDynamo, type TestDynamo } from '#support/dynalite';
import { startFakeServer, type FakeServer } from '#support/loopback';

const RUNS = 1000;

let dynamo: TestDynamo;
let sts: FakeServer;
let pictureDir: string;

beforeAll(async () => {
  dynamo = await startTestDynamo();
  sts = await startFakeServer((_request, response: ServerResponse) => {
    response.writeHead(200, { 'Content-Type': 'application/jwt' });
    response.end('eyJhbGciOiJIUzI1NiJ9.eyJmdXp6Ijp0cnVlfQ.c2lnbmF0dXJl');
  });
  pictureDir = await mkdtemp(join(tmpdir(), 'astro-fuzz-images-'));
});
afterAll(async () => {
  await dynamo.close();
  await sts.close();
  await rm(pictureDir, { recursive: true, force: true });
});

// ---- Generators -------------------------------------------------------------------------------------

const text = (maxLength: number) =>
  fc.oneof(fc.string({ maxLength }), fc.string({ unit: 'grapheme', maxLength }), fc.constant(''));
const locale = fc.oneof(fc.constantFrom(...LOCALES), fc.string({ maxLength: 8 }));
const rating = fc.oneof(fc.integer({ min: -2, max: 8 }), fc.double(), fc.constant('5'), fc.constant(null));

const chatBody = fc.record(
  {
    userMessage: fc.oneof(text(40), fc.constant('__INIT__ Please start the tutoring session.'), text(2100)),
    language: locale,
    chatHistory: fc.array(
      fc.record(
        { role: fc.constantFrom('user', 'assistant', 'system'), content: text(60) },
        { requiredKeys: [] },
      ),
      { maxLength: 55 },
    ),
  },
  { requiredKeys: [] },
);

const imageBody = fc.record({ prompt: fc.oneof(text(80), text(1100)) }, { requiredKeys: [] });

const feedbackMessage = fc.record(
  {
    id: fc.oneof(
      fc.nat(),
      fc.string({ maxLength: 12 }).map((s) => `loading-${s}`),
      fc.integer(),
      fc.constant(''),
    ),
    text: text(50),
    sender: fc.constantFrom('user', 'astro', 'bot'),
    isLoading: fc.oneof(fc.boolean(), fc.constant('yes')),
    imageUrl: fc.oneof(fc.constant('/images/x.png'), fc.string({ maxLength: 20 })),
  },
  { requiredKeys: ['id', 'text', 'sender'] },
);
const feedbackRequestBody = fc.record(
  {
    helpfulness: rating,
    clarity: rating,
    suggestion: text(100),
    conversationId: fc.oneof(fc.uuid(), fc.string({ maxLength: 36 })),
    language: locale,
    chatHistory: fc.array(feedbackMessage, { maxLength: 12 }),
  },
  { requiredKeys: [] },
);

/** Bodies the contract accepts, so every run also reaches the services behind validation. */
const validChat = fc.record({
  userMessage: fc.string({ minLength: 1, maxLength: 200 }),
  language: fc.constantFrom(...LOCALES),
  chatHistory: fc.array(
    fc.record({
      role: fc.constantFrom('user', 'assistant'),
      content: fc.string({ minLength: 1, maxLength: 200 }),
    }),
    { maxLength: 10 },
  ),
});
const validImage = fc.record({ prompt: fc.string({ minLength: 1, maxLength: 200 }) });
const validFeedback = fc.record({
  helpfulness: fc.integer({ min: 1, max: 5 }),
  clarity: fc.integer({ min: 1, max: 5 }),
  suggestion: fc.string({ maxLength: 200 }),
  conversationId: fc.uuid({ version: 4 }),
  language: fc.constantFrom(...LOCALES),
  chatHistory: fc.array(
    fc.record(
      {
        id: fc.oneof(
          fc.nat(),
          fc.string({ maxLength: 12 }).map((s) => `loading-${s}`),
        ),
        text: fc.string({ maxLength: 100 }),
        sender: fc.constantFrom('user', 'astro'),
        isLoading: fc.boolean(),
        imageUrl: fc.string({ maxLength: 50 }),
      },
      { requiredKeys: ['id', 'text', 'sender'] },
    ),
    { maxLength: 10 },
  ),
});

/** Valid-looking shapes to reach deep into validation, then anything at all. */
const malformedJson = fc.oneof(
  fc.json(),
  fc.anything().map((value) => JSON.stringify(value) ?? 'undefined'),
  fc.string(),
  fc.nat(3000).map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`),
  fc.nat(3000).map((depth) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`),
  fc.constantFrom(
    '{"__proto__":{"polluted":true}}',
    '{"constructor":{"prototype":{"polluted":true}}}',
    '{"prompt":"x","__proto__":{"prompt":"y"}}',
    '{"userMessage":"hi","language":"en-US","chatHistory":[],"__proto__":[]}',
    '{"toString":1,"valueOf":2,"hasOwnProperty":3}',
    '\u0000',
    '\ufeff{}',
    '{"a":1}garbage',
    'NaN',
    '{"helpfulness":1e309}',
    '{"userMessage":"\\ud800","language":"en-US","chatHistory":[]}',
  ),
  fc.nat(300_000).map((size) => `{"prompt":"${'a'.repeat(size)}"}`),
);

function bodies(
  valid: fc.Arbitrary<unknown>,
  nearlyValid: fc.Arbitrary<unknown>,
): fc.Arbitrary<string | undefined> {
  return fc.oneof(
    { weight: 3, arbitrary: valid.map((value) => JSON.stringify(value)) },
    { weight: 3, arbitrary: nearlyValid.map((value) => JSON.stringify(value)) },
    { weight: 3, arbitrary: malformedJson },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
}

const contentType = fc.oneof(
  { weight: 6, arbitrary: fc.constant('application/json') },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'application/json; charset=utf-8',
      'APPLICATION/JSON',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      '',
      'application/json\u0000',
    ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
);
const method = fc.oneof(
  { weight: 12, arbitrary: fc.constant('POST') },
  { weight: 2, arbitrary: fc.constantFrom('GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'post', '') },
);
/** Base64: the body correctly encoded, or bytes that are not valid base64 / not UTF-8 once decoded. */
const encoding = fc.oneof(
  { weight: 8, arbitrary: fc.constant('plain') },
  { weight: 1, arbitrary: fc.constant('base64') },
  { weight: 1, arbitrary: fc.constant('broken-base64') },
);

function events(
  path: string,
  valid: fc.Arbitrary<unknown>,
  nearlyValid: fc.Arbitrary<unknown>,
): fc.Arbitrary<ApiEvent> {
  return fc
    .record({
      body: bodies(valid, nearlyValid),
      contentType: fc.option(contentType, { nil: undefined, freq: 10 }),
      method,
      encoding,
    })
    .map(({ body, contentType: type, method: httpMethod, encoding: mode }) => {
      let eventBody = body ?? null;
      if (eventBody !== null && mode === 'base64') eventBody = Buffer.from(eventBody).toString('base64');
      if (eventBody !== null && mode === 'broken-base64') eventBody = `%%${eventBody}`;
      return {
        httpMethod,
        path,
        headers: type === undefined ? {} : { 'content-type': type },
        body: eventBody,
        isBase64Encoded: mode !== 'plain',
        requestContext: { requestId: 'fuzz' },
      };
    });
}

// ---- The property -----------------------------------------------------------------------------------

async function answersWithinContract(
  handler: ApiHandler | StreamingApiHandler,
  event: ApiEvent,
  success: z.ZodType,
): Promise<void> {
  const result = buffered(await handler(event));
  expect(result.statusCode).toBeLessThan(500);
  expect(result.headers?.['Content-Type']).toBe('application/json');
  const body: unknown = JSON.parse(result.body);
  if (result.statusCode >= 400) {
    const error = (body as { error?: { code?: unknown; message?: unknown } }).error;
    expect(Object.keys(body as object)).toEqual(['error']);
    expect(typeof error?.message).toBe('string');
    expect(ERROR_STATUS[error?.code as ErrorCode]).toBe(result.statusCode);
  } else {
    expect(result.statusCode).toBeGreaterThanOrEqual(200);
    expect(success.safeParse(body).success).toBe(true);
  }
}

const offlineEnv = {
  ASTRO_MODEL: 'offline',
  ASTRO_IMAGE_MODEL: 'offline',
  IMAGE_STORE: 'local',
};

describe('every handler under random and malformed input', () => {
  it('chat answers within the contract', async () => {
    const handler = createChatHandler(offlineEnv);
    await fc.assert(
      fc.asyncProperty(events(API_ROUTES.chat, validChat, chatBody), (event) =>
        answersWithinContract(handler, event, chatResponseSchema),
      ),
      { numRuns: RUNS },
    );
  });

  it('chat asked for a stream answers within the contract: an error response or well-formed lines', async () => {
    const handler = createChatHandler(offlineEnv);
    await fc.assert(
      fc.asyncProperty(events(API_ROUTES.chat, validChat, chatBody), async (event) => {
        const result = await handler({
          ...event,
          headers: { ...event.headers, accept: 'application/x-ndjson' },
        });
        if (!isStreamed(result)) {
          expect(result.statusCode).toBeGreaterThanOrEqual(400);
          expect(result.statusCode).toBeLessThan(500);
          return;
        }
        const lines = await readLines(result);
        expect(lines.at(-1)?.type).toBe('done');
        const done = lines.at(-1) as { response: string };
        expect(textOf(lines)).toBe(done.response);
      }),
      { numRuns: RUNS / 4 },
    );
  });

  it('generateImage answers within the contract', async () => {
    const handler = createGenerateImageHandler({ ...offlineEnv, IMAGE_DIR: pictureDir });
    await fc.assert(
      fc.asyncProperty(events(API_ROUTES.generateImage, validImage, imageBody), (event) =>
        answersWithinContract(handler, event, generateImageResponseSchema),
      ),
      { numRuns: RUNS },
    );
  });

  it('feedback answers within the contract', async () => {
    const handler = createFeedbackHandler({
      FEEDBACK_TABLE: dynamo.tableName,
      DYNAMODB_ENDPOINT: dynamo.endpoint,
    });
    await fc.assert(
      fc.asyncProperty(events(API_ROUTES.feedback, validFeedback, feedbackRequestBody), (event) =>
        answersWithinContract(handler, event, feedbackResponseSchema),
      ),
      { numRuns: RUNS },
    );
  });

  it('speechToken answers within the contract', async () => {
    const handler = createSpeechTokenHandler({
      AZURE_SPEECH_KEY: 'fuzz-key-0123456789',
      AZURE_STS_BASE_URL: sts.url,
    });
    await fc.assert(
      fc.asyncProperty(
        events(API_ROUTES.speechToken, fc.constant({}), fc.dictionary(fc.string(), fc.jsonValue())),
        (event) => answersWithinContract(handler, event, speechTokenResponseSchema),
      ),
      { numRuns: RUNS },
    );
  });

  it('no request polluted Object.prototype', () => {
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
