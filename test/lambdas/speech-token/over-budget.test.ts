/**
 * Speech tokens under the spend guard (docs/behaviour.md §12.19): each token minted at Azure STS is charged
 * its estimate once (a token handed out again costs nothing more); once the day's budget or the caller's
 * share is spent, 503 `over_budget` and no call to STS, so the web app uses the browser's speech.
 */
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ErrorBody } from '#contract/errors';
import { API_ROUTES } from '#contract/routes';
import { TOKEN_REUSE_MS } from '#lambdas/speech/token-service';
import { createSpeechTokenHandler } from '#lambdas/speech-token/handler';
import { startTestLedger, type TestLedgerDatabase } from '#support/dynalite';
import { apiEvent, bodyOf } from '#support/events';
import { startFakeServer, type FakeServer, type RecordedRequest } from '#support/loopback';

const KEY = 'k3y0f4zur3sp33chs3cr3tv4lu3aaaa1';

describe('speech tokens and the cap', () => {
  let sts: FakeServer;
  let database: TestLedgerDatabase;
  let clock: number;

  beforeAll(async () => {
    sts = await startFakeServer((_request: RecordedRequest, response: ServerResponse) => {
      response.writeHead(200, { 'Content-Type': 'application/jwt' });
      response.end(`eyJhbGciOiJIUzI1NiJ9.eyJ9.token${Date.now()}`);
    });
    database = await startTestLedger();
  });
  afterAll(async () => {
    await sts.close();
    await database.close();
  });
  beforeEach(() => {
    sts.requests.length = 0;
  });

  const handlerWith = (env: Record<string, string>) =>
    createSpeechTokenHandler(
      { ...database.env, AZURE_SPEECH_KEY: KEY, AZURE_STS_BASE_URL: sts.url, ...env },
      () => clock,
    );
  const ask = (handler: ReturnType<typeof handlerWith>, sourceIp = '192.0.2.30') =>
    handler(apiEvent({ path: API_ROUTES.speechToken, body: '', sourceIp }));

  it('charges each minted token its estimate once, and a token handed out again nothing', async () => {
    clock = Date.parse('2026-09-01T09:00:00Z');
    const handler = handlerWith({ ASTRO_PRICE_SPEECH_TOKEN_USD: '0.2' });

    const answers = await Promise.all([ask(handler), ask(handler), ask(handler)]);
    clock += TOKEN_REUSE_MS + 1;
    await ask(handler);

    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200]);
    expect(sts.requests).toHaveLength(2);
    expect(await database.item('day#2026-09-01')).toMatchObject({ usd: 0.4, speechUsd: 0.4 });
  });

  it('answers 503 over_budget once the day’s budget is reached, without asking STS', async () => {
    clock = Date.parse('2026-09-02T09:00:00Z');
    const handler = handlerWith({ ASTRO_DAILY_BUDGET_USD: '0.3', ASTRO_CLIENT_SHARE: '1' });
    expect((await ask(handler)).statusCode).toBe(200);
    expect((await database.item('day#2026-09-02'))?.usd).toBe(0.17);
    clock += TOKEN_REUSE_MS + 1;
    expect((await ask(handler)).statusCode).toBe(200);
    sts.requests.length = 0;

    const refused = await ask(handler);

    expect(refused.statusCode).toBe(503);
    expect(bodyOf<ErrorBody>(refused).error.code).toBe('over_budget');
    expect(refused.headers?.['Cache-Control']).toBe('no-store');
    expect(sts.requests).toHaveLength(0);
  });

  it('refuses a client whose share is spent, and serves another', async () => {
    clock = Date.parse('2026-09-03T09:00:00Z');
    const handler = handlerWith({ ASTRO_DAILY_BUDGET_USD: '10', ASTRO_CLIENT_SHARE: '0.01' });
    expect((await ask(handler, '198.51.100.40')).statusCode).toBe(200);

    expect((await ask(handler, '198.51.100.40')).statusCode).toBe(503);
    expect((await ask(handler, '198.51.100.41')).statusCode).toBe(200);
  });
});
