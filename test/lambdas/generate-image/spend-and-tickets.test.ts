/**
 * Pictures under the spend guard (docs/behaviour.md §12.4, §12.19): one draw per ticket however many requests
 * arrive at once (single-flight in a function, the ticket spent once across functions by a conditional write
 * in the ledger, the second request getting the same picture), a failed draw giving its ticket back, each
 * draw charged its price, and past the cap a sketch instead of the paid model.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { API_ROUTES } from '#contract/routes';
import { SPEND_LIMIT_HEADER } from '#contract/spend';
import { createGenerateImageHandler, PICTURE_MAKER_HEADER } from '#lambdas/generate-image/handler';
import type { ApiHandler } from '#lambdas/http/endpoint';
import { awsError, startBedrockFake, TINY_PNG } from '#support/bedrock-fake';
import { startTestLedger, type TestLedgerDatabase } from '#support/dynalite';
import { apiEvent, bodyOf } from '#support/events';
import { sendJson, type FakeRoute, type FakeServer } from '#support/loopback';
import { gate } from '#support/tutor-stream';
import { ticketFor, TRUST_ENV } from '#support/trust';

const draws: FakeRoute = (_request, response) =>
  sendJson(response, 200, { images: [TINY_PNG.toString('base64')] });

describe('pictures, tickets and the cap', () => {
  let bedrock: FakeServer;
  let database: TestLedgerDatabase;
  let directory: string;
  let clock: number;

  beforeAll(async () => {
    bedrock = await startBedrockFake(draws);
    database = await startTestLedger();
    directory = await mkdtemp(join(tmpdir(), 'astro-draw-once-'));
  });
  afterAll(async () => {
    await bedrock.close();
    await database.close();
    await rm(directory, { recursive: true, force: true });
  });
  beforeEach(() => {
    bedrock.requests.length = 0;
    bedrock.respondWith(draws);
  });

  /** A generateImage function: two of them share the ledger and the picture store, as two Lambdas do. */
  const aFunction = (env: Record<string, string> = {}): ApiHandler =>
    createGenerateImageHandler(
      {
        ...TRUST_ENV,
        ...database.env,
        ASTRO_IMAGE_MODEL: 'bedrock',
        BEDROCK_ENDPOINT: bedrock.url,
        IMAGE_DIR: directory,
        ...env,
      },
      () => clock,
    );
  const generate = (handler: ApiHandler, prompt: string, ticket: string, sourceIp = '192.0.2.20') =>
    handler(apiEvent({ path: API_ROUTES.generateImage, body: { prompt, ticket }, sourceIp }));

  it('draws once for requests at once with one ticket in one function: all get that picture', async () => {
    clock = Date.parse('2026-08-01T10:00:00Z');
    const prompt = 'Saturn and its rings of ice';
    const ticket = ticketFor(prompt, clock);
    const handler = aFunction();

    const answers = await Promise.all(Array.from({ length: 5 }, () => generate(handler, prompt, ticket)));

    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(answers.map((answer) => bodyOf<{ imageUrl: string }>(answer).imageUrl)).size).toBe(1);
    expect(bedrock.requests).toHaveLength(1);
  });

  it('draws once across two functions: the ticket is spent once, the second waits for the first one’s picture', async () => {
    clock = Date.parse('2026-08-01T11:00:00Z');
    const prompt = 'Jupiter and its Great Red Spot';
    const ticket = ticketFor(prompt, clock);
    const slow = gate();
    bedrock.respondWith(async (request, response) => {
      await slow.wait();
      draws(request, response);
    });

    const first = generate(aFunction(), prompt, ticket);
    const second = generate(aFunction(), prompt, ticket);
    // Both have arrived: one is drawing, the other found the ticket spent and looks for the picture.
    while (bedrock.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, 300));
    slow.open();
    const answers = await Promise.all([first, second]);

    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
    expect(bodyOf(answers[0] as { body: string })).toEqual(bodyOf(answers[1] as { body: string }));
    expect(bedrock.requests).toHaveLength(1);
  });

  it('gives a ticket back when its draw fails, so the learner’s next try draws', async () => {
    clock = Date.parse('2026-08-01T12:00:00Z');
    const prompt = 'A comet with a long tail';
    const ticket = ticketFor(prompt, clock);
    bedrock.respondWith(awsError(500, 'InternalServerException', 'broken'));

    const failed = await generate(aFunction(), prompt, ticket);
    bedrock.respondWith(draws);
    const again = await generate(aFunction(), prompt, ticket);

    expect(failed.statusCode).toBe(502);
    expect(again.statusCode).toBe(200);
    expect(again.headers?.[PICTURE_MAKER_HEADER]).toBe('bedrock');
  });

  it('charges each picture drawn its price, and a picture already drawn nothing', async () => {
    clock = Date.parse('2026-08-02T09:00:00Z');
    const prompt = 'The Moon over a quiet sea';
    const handler = aFunction();

    await generate(handler, prompt, ticketFor(prompt, clock));
    await generate(handler, prompt, ticketFor(prompt, clock));

    expect(await database.item('day#2026-08-02')).toMatchObject({ usd: 0.04, pictureUsd: 0.04 });
  });

  it('sketches instead of calling the paid model once the day’s budget is reached, and says which limit', async () => {
    clock = Date.parse('2026-08-03T09:00:00Z');
    const handler = aFunction({ ASTRO_DAILY_BUDGET_USD: '0.05', ASTRO_CLIENT_SHARE: '1' });
    await generate(handler, 'Mars and its red deserts', ticketFor('Mars and its red deserts', clock));
    await generate(handler, 'Venus in thick clouds', ticketFor('Venus in thick clouds', clock));
    bedrock.requests.length = 0;

    const sketched = await generate(
      handler,
      'Neptune, a deep blue planet',
      ticketFor('Neptune, a deep blue planet', clock),
    );

    expect(sketched.statusCode).toBe(200);
    expect(sketched.headers?.[PICTURE_MAKER_HEADER]).toBe('offline');
    expect(sketched.headers?.[SPEND_LIMIT_HEADER]).toBe('day');
    expect(bodyOf<{ imageUrl: string }>(sketched).imageUrl).toMatch(/\.svg$/);
    expect(bedrock.requests).toHaveLength(0);
    expect((await readdir(directory)).some((name) => name.endsWith('.svg'))).toBe(true);
  });
});
