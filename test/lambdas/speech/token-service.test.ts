import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ApiError } from '#lambdas/lib/api-error';
import { EnvSpeechKeySource, parseSpeechSecret, type SpeechKeySource } from '#lambdas/speech/speech-key';
import { SpeechTokenService } from '#lambdas/speech/token-service';
import { captureLogs } from '#support/logs';
import { hang, startFakeServer, type FakeRoute, type FakeServer } from '#support/loopback';

// What the token service tells the learner and the operator for each answer of Azure STS
// (docs/behaviour.md §8 and §10.8): the contract's code, a message a learner can read, and a cause for
// the log that never quotes the key or the body.

const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.payload.signature';
let sts: FakeServer;
let forgotten = 0;
const keys: SpeechKeySource = {
  get: async () => ({ key: 'k'.repeat(32), region: 'eastus' }),
  forget: () => void (forgotten += 1),
};
const answer =
  (status: number, body: string): FakeRoute =>
  (_request, response) => {
    response.writeHead(status, { 'Content-Type': 'text/plain' });
    response.end(body);
  };

beforeAll(async () => {
  sts = await startFakeServer(answer(200, TOKEN));
});
afterAll(() => sts.close());
beforeEach(() => {
  sts.requests.length = 0;
  forgotten = 0;
});

type Failure = ApiError & { cause: Error };
const service = (timeoutMs = 2_000) =>
  new SpeechTokenService(keys, { stsBaseUrl: `${sts.url}//`, timeoutMs });
const failure = async (route: FakeRoute, timeoutMs?: number): Promise<Failure> => {
  sts.respondWith(route);
  return (await service(timeoutMs)
    .token()
    .catch((error: unknown) => error)) as Failure;
};

describe('the speech token service and Azure STS', () => {
  it('posts an empty form with the key to /sts/v1.0/issueToken, and trims the token it gets', async () => {
    const logs = captureLogs();
    sts.respondWith(answer(200, `  ${TOKEN}\n`));

    const { token, region } = await service().token();
    logs.restore();

    expect({ token, region }).toEqual({ token: TOKEN, region: 'eastus' });
    const request = sts.requests[0];
    expect(request?.url).toBe('/sts/v1.0/issueToken');
    expect(request?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(request?.body.length).toBe(0);
    expect(logs.entries()).toEqual([
      expect.objectContaining({ level: 'info', message: 'speech token issued', region: 'eastus' }),
    ]);
  });

  it.each([401, 403])(
    'on %i, forgets the key (it may have been rotated) and says STS refused it',
    async (status) => {
      const error = await failure(answer(status, 'denied'));
      expect(error).toMatchObject({
        code: 'upstream_error',
        message: 'The speech service refused the server key.',
      });
      expect(error.cause.message).toBe(`STS answered ${status}`);
      expect(forgotten).toBe(1);
    },
  );

  it('on 429, is rate_limited with its own message', async () => {
    const error = await failure(answer(429, 'slow down'));
    expect(error).toMatchObject({
      code: 'rate_limited',
      message: 'The speech service is busy. Please try again shortly.',
    });
    expect(error.cause.message).toBe('STS answered 429');
    expect(forgotten).toBe(0);
  });

  it('on another failure status, says the service is unavailable, even when the body looks like a token', async () => {
    const error = await failure(answer(500, TOKEN));
    expect(error).toMatchObject({
      code: 'upstream_error',
      message: 'The speech service is unavailable. Please try again.',
    });
    expect(error.cause.message).toBe('STS answered 500');
  });

  it('refuses a malformed token without describing it', async () => {
    const error = await failure(answer(200, 'not a token'));
    expect(error).toMatchObject({
      code: 'upstream_error',
      message: 'The speech service answered with something unexpected.',
    });
    expect(error.cause.message).toBe('STS answered a malformed token (11 characters)');
  });

  it('says the service took too long, or could not be reached, naming only the failure', async () => {
    const late = await failure(hang, 100);
    expect(late).toMatchObject({
      code: 'upstream_timeout',
      message: 'The speech service took too long to answer. Please try again.',
    });
    expect(late.cause.message).toBe('STS timed out');

    const closed = await startFakeServer(answer(200, TOKEN));
    const url = closed.url;
    await closed.close();
    const unreachable = (await new SpeechTokenService(keys, { stsBaseUrl: url, timeoutMs: 2_000 })
      .token()
      .catch((error: unknown) => error)) as Failure;
    expect(unreachable).toMatchObject({
      code: 'upstream_error',
      message: 'The speech service could not be reached. Please try again.',
    });
    expect(unreachable.cause.message).toBe('STS request failed (TypeError)');
  });

  it('answers not_configured with its message when there is no key', async () => {
    const none = new SpeechTokenService(new EnvSpeechKeySource(undefined, 'eastus'), { timeoutMs: 100 });
    await expect(none.token()).rejects.toMatchObject({
      code: 'not_configured',
      message: 'Cloud speech is not configured on the server.',
    });
  });
});

describe('the speech secret', () => {
  it('takes a bare key with white space around it, or JSON with its region', () => {
    expect(parseSpeechSecret(`  ${'k'.repeat(32)}\n`, 'eastus')).toEqual({
      key: 'k'.repeat(32),
      region: 'eastus',
    });
    expect(parseSpeechSecret(` {"key":"${'k'.repeat(32)}","region":"westeurope"} `, 'eastus')).toEqual({
      key: 'k'.repeat(32),
      region: 'westeurope',
    });
    expect(parseSpeechSecret('{"key": ', 'eastus')).toBeUndefined();
  });
});
