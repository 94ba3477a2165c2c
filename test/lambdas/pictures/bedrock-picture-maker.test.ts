import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readPictureConfig } from '#lambdas/config';
import { createBedrockPictureMaker, textToImageBody } from '#lambdas/pictures/bedrock-picture-maker';
import type { PictureMaker } from '#lambdas/pictures/picture-maker';
import { STYLE_PREFIX } from '#lambdas/pictures/picture-style';
import {
  answersInTurn,
  awsError,
  bedrockCall,
  jsonOf,
  notJson,
  startBedrockFake,
  TINY_PNG,
} from '#support/bedrock-fake';
import { hang, type FakeServer } from '#support/loopback';

describe('the Bedrock picture maker (real InvokeModel client against a loopback fake)', () => {
  let fake: FakeServer;
  let maker: PictureMaker;

  beforeAll(async () => {
    fake = await startBedrockFake(answersInTurn({ images: [TINY_PNG.toString('base64')] }));
    maker = createBedrockPictureMaker(
      readPictureConfig({
        ASTRO_IMAGE_MODEL: 'bedrock',
        BEDROCK_ENDPOINT: fake.url,
        IMAGE_TIMEOUT_MS: '1500',
      }),
    );
  });
  afterAll(() => fake.close());
  beforeEach(() => {
    fake.requests.length = 0;
    fake.respondWith(answersInTurn({ images: [TINY_PNG.toString('base64')] }));
  });

  it('asks Nova Canvas for one 512×512 text-to-image picture and returns the PNG', async () => {
    const image = await maker.make('Saturn and its rings');
    const [request] = fake.requests;
    if (!request) throw new Error('the fake received nothing');

    expect(image.contentType).toBe('image/png');
    expect(image.extension).toBe('png');
    expect(Buffer.from(image.bytes).equals(TINY_PNG)).toBe(true);
    expect(bedrockCall(request)).toEqual({
      modelId: 'amazon.nova-canvas-v1:0',
      operation: 'invoke',
    });
    const body = jsonOf(request);
    expect(body).toEqual(textToImageBody('Saturn and its rings'));
    expect(body).toMatchObject({
      taskType: 'TEXT_IMAGE',
      textToImageParams: { text: `${STYLE_PREFIX}Saturn and its rings` },
      imageGenerationConfig: { numberOfImages: 1, width: 512, height: 512, quality: 'standard' },
    });
  });

  it('uses the same seed for the same prompt and another for another prompt', () => {
    const seed = (prompt: string) => textToImageBody(prompt).imageGenerationConfig.seed;

    expect(seed('A comet')).toBe(seed('A comet'));
    expect(seed('A comet')).not.toBe(seed('A spiral galaxy'));
    expect(seed('A comet')).toBeLessThanOrEqual(858_993_459);
  });

  it('keeps the styled prompt within the model limit of 1024 characters', () => {
    expect(textToImageBody('x'.repeat(1000)).textToImageParams.text).toHaveLength(1024);
  });

  it('answers a content-filter rejection with content_filtered', async () => {
    fake.respondWith(
      awsError(400, 'ValidationException', 'This request has been blocked by our content filters.'),
    );
    await expect(maker.make('something')).rejects.toMatchObject({ code: 'content_filtered', status: 422 });

    fake.respondWith(answersInTurn({ images: [], error: 'Blocked by the content filter' }));
    await expect(maker.make('something')).rejects.toMatchObject({ code: 'content_filtered', status: 422 });
  });

  it.each([
    ['a throttled call', 'rate_limited', awsError(429, 'ThrottlingException', 'Too many requests')],
    ['a service fault', 'upstream_error', awsError(500, 'InternalServerException', 'boom')],
    ['another validation error', 'upstream_error', awsError(400, 'ValidationException', 'width is invalid')],
    ['a body that is not JSON', 'upstream_error', notJson()],
    ['no image', 'upstream_error', answersInTurn({ images: [] })],
    [
      'bytes that are not a picture',
      'upstream_error',
      answersInTurn({ images: [Buffer.from('<svg/>').toString('base64')] }),
    ],
    ['a hang past the deadline', 'upstream_timeout', hang],
  ])('answers %s with %s', async (_case, code, route) => {
    fake.respondWith(route);

    await expect(maker.make('The Moon')).rejects.toMatchObject({ code });
  });
});
