import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ErrorBody } from '#contract/errors';
import { API_ROUTES } from '#contract/routes';
import { createGenerateImageHandler, PICTURE_MAKER_HEADER } from '#lambdas/generate-image/handler';
import type { ApiHandler } from '#lambdas/http/endpoint';
import { answersInTurn, awsError, startBedrockFake, TINY_PNG } from '#support/bedrock-fake';
import { apiEvent, bodyOf } from '#support/events';
import { startFakeServer, type FakeServer } from '#support/loopback';
import { imagesAnswer, openAiError } from '#support/openai-fake';
import { startS3Fake, type S3Fake } from '#support/s3-fake';
import { TRUST_ENV, ticketFor } from '#support/trust';

const SECRET_DETAIL = 'upstream-secret-detail-91bc';
const KEY = '[0-9a-f]{32}';

/** A picture request as the web app sends it: the prompt with the ticket its reply carried. */
const generate = (handler: ApiHandler, prompt = 'Saturn and its rings', ticket = ticketFor(prompt)) =>
  handler(apiEvent({ path: API_ROUTES.generateImage, body: { prompt, ticket } }));

describe('POST /api/generateImage with Bedrock pictures stored in S3', () => {
  let bedrock: FakeServer;
  let s3: S3Fake;
  let handler: ApiHandler;

  beforeAll(async () => {
    bedrock = await startBedrockFake(answersInTurn({ images: [TINY_PNG.toString('base64')] }));
    s3 = await startS3Fake();
    handler = createGenerateImageHandler({
      ...TRUST_ENV,
      ASTRO_IMAGE_MODEL: 'bedrock',
      BEDROCK_ENDPOINT: bedrock.url,
      IMAGE_STORE: 's3',
      IMAGE_BUCKET: 'astro-images',
      S3_ENDPOINT: s3.url,
    });
  });
  afterAll(async () => {
    await bedrock.close();
    await s3.close();
  });
  beforeEach(() => {
    bedrock.respondWith(answersInTurn({ images: [TINY_PNG.toString('base64')] }));
  });

  it('draws the picture, stores it under images/ and answers its same-origin URL', async () => {
    const result = await generate(handler);

    expect(result.statusCode).toBe(200);
    expect(result.headers?.[PICTURE_MAKER_HEADER]).toBe('bedrock');
    const { imageUrl } = bodyOf<{ imageUrl: string }>(result);
    expect(imageUrl).toMatch(new RegExp(`^/images/${KEY}\\.png$`));
    const stored = s3.objects.get(`astro-images${imageUrl}`);
    expect(stored?.key).toBe(imageUrl.slice(1));
    expect(stored?.contentType).toBe('image/png');
    expect(stored?.body.equals(TINY_PNG)).toBe(true);
  });

  it('draws a prompt once: a repeat answers the stored picture without calling the model', async () => {
    const first = await generate(handler, 'Jupiter and its great red spot');
    bedrock.requests.length = 0;
    const objects = s3.objects.size;

    const repeat = await generate(handler, 'Jupiter and its great red spot');

    expect(repeat.statusCode).toBe(200);
    expect(bodyOf(repeat)).toEqual(bodyOf(first));
    expect(bedrock.requests).toHaveLength(0);
    expect(s3.objects.size).toBe(objects);
  });

  it('draws a different prompt as a different picture', async () => {
    const first = bodyOf<{ imageUrl: string }>(await generate(handler, 'The Moon over a hill'));
    const second = bodyOf<{ imageUrl: string }>(await generate(handler, 'The Moon over a lake'));

    expect(first.imageUrl).not.toBe(second.imageUrl);
  });

  it('answers 422 content_filtered for a blocked prompt, without the upstream message', async () => {
    bedrock.respondWith(
      awsError(400, 'ValidationException', `Blocked by our content filters. ${SECRET_DETAIL}`),
    );
    const before = s3.objects.size;

    const result = await generate(handler, 'something unsuitable');

    expect(result.statusCode).toBe(422);
    expect(bodyOf<ErrorBody>(result).error.code).toBe('content_filtered');
    expect(result.body).not.toContain(SECRET_DETAIL);
    expect(s3.objects.size).toBe(before);
  });

  it('refuses a blank prompt with 400 without drawing anything', async () => {
    bedrock.requests.length = 0;

    const result = await generate(handler, '   ');

    expect(result.statusCode).toBe(400);
    expect(bodyOf<ErrorBody>(result).error.code).toBe('invalid_request');
    expect(bedrock.requests).toHaveLength(0);
  });
});

describe('POST /api/generateImage with OpenAI-compatible pictures stored locally', () => {
  let server: FakeServer;
  let directory: string;
  beforeAll(async () => {
    server = await startFakeServer(answersInTurn(imagesAnswer(TINY_PNG)));
    directory = await mkdtemp(join(tmpdir(), 'astro-generate-'));
  });
  afterAll(async () => {
    await server.close();
    await rm(directory, { recursive: true, force: true });
  });

  const openAiHandler = () =>
    createGenerateImageHandler({
      ...TRUST_ENV,
      ASTRO_IMAGE_MODEL: 'openai',
      OPENAI_BASE_URL: server.url,
      IMAGE_DIR: directory,
    });

  it('writes the PNG into the image directory and answers its /images/ URL', async () => {
    const result = await generate(openAiHandler());

    expect(result.statusCode).toBe(200);
    expect(result.headers?.[PICTURE_MAKER_HEADER]).toBe('openai');
    const { imageUrl } = bodyOf<{ imageUrl: string }>(result);
    expect(imageUrl).toMatch(new RegExp(`^/images/${KEY}\\.png$`));
    expect((await readFile(join(directory, imageUrl.slice('/images/'.length)))).equals(TINY_PNG)).toBe(true);
  });

  it('answers 429 rate_limited when the images API is throttled', async () => {
    server.respondWith(openAiError(429, SECRET_DETAIL));

    const result = await generate(openAiHandler(), 'A prompt never drawn before');

    expect(result.statusCode).toBe(429);
    expect(result.body).not.toContain(SECRET_DETAIL);
  });
});

describe('POST /api/generateImage with the default configuration', () => {
  let directory: string;
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'astro-sketch-'));
  });
  afterAll(() => rm(directory, { recursive: true, force: true }));

  it('sketches an SVG offline and stores it as /images/<key>.svg', async () => {
    const result = await generate(createGenerateImageHandler({ ...TRUST_ENV, IMAGE_DIR: directory }));

    expect(result.statusCode).toBe(200);
    expect(result.headers?.[PICTURE_MAKER_HEADER]).toBe('offline');
    const { imageUrl } = bodyOf<{ imageUrl: string }>(result);
    expect(imageUrl).toMatch(new RegExp(`^/images/${KEY}\\.svg$`));
    expect(await readFile(join(directory, imageUrl.slice('/images/'.length)), 'utf8')).toContain('<svg');
  });
});
