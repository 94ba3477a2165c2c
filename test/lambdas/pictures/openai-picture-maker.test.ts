import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readPictureConfig, type Env } from '#lambdas/config';
import { createOpenAiPictureMaker } from '#lambdas/pictures/openai-picture-maker';
import { STYLE_PREFIX } from '#lambdas/pictures/picture-style';
import { answersInTurn, jsonOf, notJson, TINY_PNG } from '#support/bedrock-fake';
import { hang, startFakeServer, type FakeServer } from '#support/loopback';
import { imagesAnswer, openAiError } from '#support/openai-fake';

describe('the OpenAI-compatible picture maker (platform fetch against a loopback fake)', () => {
  let fake: FakeServer;
  const makerWith = (env: Env = {}) =>
    createOpenAiPictureMaker(
      readPictureConfig({
        ASTRO_IMAGE_MODEL: 'openai',
        OPENAI_BASE_URL: `${fake.url}/v1`,
        IMAGE_TIMEOUT_MS: '1500',
        ...env,
      }),
    );

  beforeAll(async () => {
    fake = await startFakeServer(answersInTurn(imagesAnswer(TINY_PNG)));
  });
  afterAll(() => fake.close());
  beforeEach(() => {
    fake.requests.length = 0;
    fake.respondWith(answersInTurn(imagesAnswer(TINY_PNG)));
  });

  it('asks the images API for one base64 picture and returns the PNG', async () => {
    const image = await makerWith({ OPENAI_IMAGE_MODEL: 'dall-e-3', OPENAI_API_KEY: 'sk-img' }).make(
      'A comet',
    );

    expect(image.contentType).toBe('image/png');
    expect(Buffer.from(image.bytes).equals(TINY_PNG)).toBe(true);
    expect(fake.requests[0]?.url).toBe('/v1/images/generations');
    expect(fake.requests[0]?.headers.authorization).toBe('Bearer sk-img');
    expect(fake.requests.map((request) => jsonOf(request))).toEqual([
      {
        model: 'dall-e-3',
        prompt: `${STYLE_PREFIX}A comet`,
        n: 1,
        size: '1024x1024',
        response_format: 'b64_json',
      },
    ]);
  });

  it('leaves out response_format once a server refuses it, and remembers it', async () => {
    fake.respondWith((request, response) =>
      'response_format' in jsonOf(request)
        ? openAiError(400, "Unknown parameter: 'response_format'.")(request, response)
        : answersInTurn(imagesAnswer(TINY_PNG))(request, response),
    );
    const maker = makerWith({ OPENAI_IMAGE_MODEL: 'gpt-image-1' });

    await maker.make('A nebula');
    await maker.make('A galaxy');

    expect(fake.requests.map((request) => 'response_format' in jsonOf(request))).toEqual([
      true,
      false,
      false,
    ]);
  });

  it.each([
    [
      'a safety refusal',
      'content_filtered',
      openAiError(400, 'Your request was rejected by our safety system.', 'content_policy_violation'),
    ],
    ['a rate limit', 'rate_limited', openAiError(429, 'Slow down')],
    ['a server fault', 'upstream_error', openAiError(500, 'boom')],
    ['another refusal', 'upstream_error', openAiError(400, 'size is invalid')],
    ['a body that is not JSON', 'upstream_error', notJson()],
    [
      'a URL instead of base64',
      'upstream_error',
      answersInTurn({ data: [{ url: 'https://example.com/a.png' }] }),
    ],
    ['a hang past the deadline', 'upstream_timeout', hang],
  ])('answers %s with %s', async (_case, code, route) => {
    fake.respondWith(route);

    await expect(makerWith().make('The Moon')).rejects.toMatchObject({ code });
  });
});
