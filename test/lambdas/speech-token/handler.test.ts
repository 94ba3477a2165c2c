import type { ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { API_ROUTES, SPEECH_TOKEN_IF_CONFIGURED } from '#contract/routes';
import { speechTokenResponseSchema } from '#contract/schemas';
import type { ApiHandler } from '#lambdas/http/endpoint';
import { SECRET_CACHE_MS } from '#lambdas/speech/speech-key';
import { TOKEN_EXPIRY_MARGIN_MS, TOKEN_LIFETIME_MS, TOKEN_REUSE_MS } from '#lambdas/speech/token-service';
import { createSpeechTokenHandler } from '#lambdas/speech-token/handler';
import { apiEvent, bodyOf } from '#support/events';
import { hang, sendJson, startFakeServer, type FakeServer, type RecordedRequest } from '#support/loopback';
import { captureLogs, type CapturedLogs } from '#support/logs';
import { secretsManagerRoute } from '#support/secrets-manager-fake';

const KEY = 'k3y0f4zur3sp33chs3cr3tv4lu3aaaa1';
const ROTATED_KEY = 'r0t4t3dk3y0f4zur3sp33chbbbbbbbb2';
const TOKEN_PREFIX = 'eyJhbGciOiJIUzI1NiJ9.eyJyZWdpb24iOiJlYXN0dXMifQ.s1gn4tur3';

let sts: FakeServer;
let secrets: FakeServer;
let issued: string[];
let secretString: string | undefined;
let logs: CapturedLogs;
let clock: number;
const now = () => clock;

/** Azure STS: a fresh token for a known key, 401 for any other. */
function issueTokens(request: RecordedRequest, response: ServerResponse): void {
  const key = request.headers['ocp-apim-subscription-key'];
  if (key !== KEY && key !== ROTATED_KEY) {
    response.writeHead(401, { 'Content-Type': 'application/json' });
    response.end('{"error":{"code":"401","message":"Access denied due to invalid subscription key."}}');
    return;
  }
  const token = `${TOKEN_PREFIX}${issued.length}`;
  issued.push(token);
  response.writeHead(200, { 'Content-Type': 'application/jwt; charset=us-ascii' });
  response.end(token);
}

/** Secrets Manager's GetSecretValue, answering the current `secretString` (the shared loopback fake). */
const serveSecret = secretsManagerRoute(() => secretString);

beforeAll(async () => {
  sts = await startFakeServer(issueTokens);
  secrets = await startFakeServer(serveSecret);
});
afterAll(async () => {
  await sts.close();
  await secrets.close();
});
beforeEach(() => {
  issued = [];
  secretString = KEY;
  clock = Date.parse('2026-01-01T10:00:00Z');
  sts.respondWith(issueTokens);
  secrets.respondWith(serveSecret);
  sts.requests.length = 0;
  secrets.requests.length = 0;
  logs = captureLogs();
});
afterEach(() => {
  logs.restore();
  // Whatever happened, neither the key nor a token may have been logged.
  const logged = logs.lines.join('\n');
  for (const secret of [KEY, ROTATED_KEY, TOKEN_PREFIX]) expect(logged).not.toContain(secret);
});

const localHandler = (env: Record<string, string> = {}) =>
  createSpeechTokenHandler({ AZURE_SPEECH_KEY: KEY, AZURE_STS_BASE_URL: sts.url, ...env }, now);
const secretHandler = (env: Record<string, string> = {}) =>
  createSpeechTokenHandler(
    {
      SPEECH_SECRET_ID: 'astro/azure-speech',
      SECRETS_MANAGER_ENDPOINT: secrets.url,
      AZURE_STS_BASE_URL: sts.url,
      ...env,
    },
    now,
  );
const call = (handler: ApiHandler, init: Parameters<typeof apiEvent>[0] = {}) =>
  handler(apiEvent({ path: API_ROUTES.speechToken, ...init }));
const errorCode = (result: { body: string }) => bodyOf<{ error: { code: string } }>(result).error.code;

describe('POST /api/speechToken with a local key', () => {
  it('exchanges the key at Azure STS and answers {token, region, expiresAt} that no cache may keep', async () => {
    const result = await call(localHandler());

    expect(result.statusCode).toBe(200);
    expect(result.headers).toMatchObject({ 'Cache-Control': 'no-store', 'Content-Type': 'application/json' });
    const body = speechTokenResponseSchema.parse(bodyOf(result));
    expect(body).toEqual({
      token: issued[0],
      region: 'eastus',
      expiresAt: new Date(clock + TOKEN_LIFETIME_MS - TOKEN_EXPIRY_MARGIN_MS).toISOString(),
    });
    expect(sts.requests).toHaveLength(1);
    expect(sts.requests[0]).toMatchObject({ method: 'POST', url: '/sts/v1.0/issueToken' });
    expect(sts.requests[0]?.headers['ocp-apim-subscription-key']).toBe(KEY);
    expect(result.body).not.toContain(KEY);
  });

  it('accepts an empty JSON object as the body', async () => {
    const result = await call(localHandler(), { body: {} });

    expect(result.statusCode).toBe(200);
  });

  it('names the configured region', async () => {
    const result = await call(localHandler({ AZURE_SPEECH_REGION: 'westeurope' }));

    expect(bodyOf(result)).toMatchObject({ region: 'westeurope' });
  });

  it('answers 503 not_configured when no key is configured, without calling Azure', async () => {
    const result = await call(createSpeechTokenHandler({ AZURE_STS_BASE_URL: sts.url }, now));

    expect(result.statusCode).toBe(503);
    expect(errorCode(result)).toBe('not_configured');
    expect(sts.requests).toHaveLength(0);
  });

  it('answers 204 with nothing in it to a request that prefers a token only if there is a key', async () => {
    const handler = createSpeechTokenHandler({ AZURE_STS_BASE_URL: sts.url }, now);
    const result = await call(handler, { headers: { Prefer: SPEECH_TOKEN_IF_CONFIGURED } });

    expect(result.statusCode).toBe(204);
    expect(result.body).toBe('');
    expect(result.headers).toMatchObject({
      'Preference-Applied': SPEECH_TOKEN_IF_CONFIGURED,
      'Cache-Control': 'no-store',
    });
    expect(result.headers).not.toHaveProperty('Content-Type');
    expect(sts.requests).toHaveLength(0);
    // The preference among others, in any letter case, with parameters: still understood.
    const listed = await call(handler, { headers: { prefer: 'respond-async, If-Configured; x=1' } });
    expect(listed.statusCode).toBe(204);
    // Another preference is not this one.
    const other = await call(handler, { headers: { Prefer: 'return=minimal' } });
    expect(other.statusCode).toBe(503);
  });

  it('gives a token to a request that prefers one only if there is a key, when there is one', async () => {
    const result = await call(localHandler(), { headers: { Prefer: SPEECH_TOKEN_IF_CONFIGURED } });

    expect(result.statusCode).toBe(200);
    expect(speechTokenResponseSchema.parse(bodyOf(result)).token).toBe(issued[0]);
    expect(result.headers).not.toHaveProperty('Preference-Applied');
  });

  it('still answers a failure as one to a request that prefers a token only if there is a key', async () => {
    sts.respondWith((_request, response) => {
      response.writeHead(401).end();
    });
    const result = await call(localHandler(), { headers: { Prefer: SPEECH_TOKEN_IF_CONFIGURED } });

    expect(result.statusCode).toBeGreaterThanOrEqual(500);
    expect(errorCode(result)).not.toBe('not_configured');
  });

  it('reuses one token for a while, then issues a new one', async () => {
    const handler = localHandler();

    const first = bodyOf(await call(handler));
    clock += TOKEN_REUSE_MS - 1;
    const reused = bodyOf(await call(handler));
    clock += 1;
    const renewed = bodyOf(await call(handler));

    expect(reused).toEqual(first);
    expect(renewed.token).not.toBe(first.token);
    expect(Date.parse(String(renewed.expiresAt))).toBe(clock + TOKEN_LIFETIME_MS - TOKEN_EXPIRY_MARGIN_MS);
    expect(sts.requests).toHaveLength(2);
  });

  it('never hands out a token with less than four minutes left', () => {
    expect(TOKEN_LIFETIME_MS - TOKEN_EXPIRY_MARGIN_MS - TOKEN_REUSE_MS).toBeGreaterThanOrEqual(4 * 60 * 1000);
    expect(TOKEN_REUSE_MS).toBeLessThanOrEqual(9 * 60 * 1000);
  });

  it('shares one STS request among concurrent callers', async () => {
    const handler = localHandler();

    const results = await Promise.all(Array.from({ length: 10 }, () => call(handler)));

    expect(new Set(results.map((result) => bodyOf(result).token))).toEqual(new Set([issued[0]]));
    expect(sts.requests).toHaveLength(1);
  });
});

describe('POST /api/speechToken when Azure STS fails', () => {
  it('answers 502 upstream_error when STS refuses the key', async () => {
    const result = await call(localHandler({ AZURE_SPEECH_KEY: 'an-unknown-key-0000' }));

    expect(result.statusCode).toBe(502);
    expect(errorCode(result)).toBe('upstream_error');
    expect(result.body).not.toContain('Access denied');
  });

  it('answers 502 upstream_error when STS fails with a 5xx', async () => {
    sts.respondWith((_request, response) => sendJson(response, 503, { error: 'down for maintenance' }));

    const result = await call(localHandler());

    expect(result.statusCode).toBe(502);
    expect(errorCode(result)).toBe('upstream_error');
    expect(result.body).not.toContain('maintenance');
  });

  it('answers 429 rate_limited when STS throttles', async () => {
    sts.respondWith((_request, response) => sendJson(response, 429, {}));

    const result = await call(localHandler());

    expect(result.statusCode).toBe(429);
    expect(errorCode(result)).toBe('rate_limited');
  });

  it('answers 504 upstream_timeout when STS does not answer in time', async () => {
    sts.respondWith(hang);

    const result = await call(localHandler({ SPEECH_STS_TIMEOUT_MS: '150' }));

    expect(result.statusCode).toBe(504);
    expect(errorCode(result)).toBe('upstream_timeout');
  });

  it('answers 504 when STS sends headers but never finishes the body', async () => {
    sts.respondWith((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'application/jwt' });
      response.write('eyJhbGciOi');
    });

    const result = await call(localHandler({ SPEECH_STS_TIMEOUT_MS: '150' }));

    expect(result.statusCode).toBe(504);
  });

  it.each([
    ['an empty body', Buffer.alloc(0)],
    [
      'binary bytes',
      Buffer.from([
        0x00, 0xff, 0x10, 0x80, 0x7f, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c,
      ]),
    ],
    ['an HTML page', Buffer.from('<html><body>Service temporarily unavailable</body></html>')],
  ])('answers 502 upstream_error when STS answers 200 with %s', async (_name, payload) => {
    sts.respondWith((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'text/html' });
      response.end(payload);
    });

    const result = await call(localHandler());

    expect(result.statusCode).toBe(502);
    expect(errorCode(result)).toBe('upstream_error');
  });

  it('answers 502 when STS cannot be reached', async () => {
    const closed = await startFakeServer(hang);
    await closed.close();

    const result = await call(localHandler({ AZURE_STS_BASE_URL: closed.url }));

    expect(result.statusCode).toBe(502);
  });

  it('recovers on the next call once STS works again (a failure is not cached)', async () => {
    sts.respondWith((_request, response) => sendJson(response, 500, {}));
    const handler = localHandler();
    await call(handler);
    sts.respondWith(issueTokens);

    const result = await call(handler);

    expect(result.statusCode).toBe(200);
  });
});

describe('POST /api/speechToken with the key in Secrets Manager', () => {
  it('reads a bare key with the real client and uses the configured region', async () => {
    const result = await call(secretHandler({ AZURE_SPEECH_REGION: 'westus2' }));

    expect(result.statusCode).toBe(200);
    expect(bodyOf(result)).toMatchObject({ region: 'westus2', token: issued[0] });
    expect(secrets.requests).toHaveLength(1);
    expect(JSON.parse(secrets.requests[0]?.body.toString() ?? '{}')).toEqual({
      SecretId: 'astro/azure-speech',
    });
    expect(sts.requests[0]?.headers['ocp-apim-subscription-key']).toBe(KEY);
  });

  it('takes the region from a JSON secret over the configured one', async () => {
    secretString = JSON.stringify({ key: KEY, region: 'swedencentral' });

    const result = await call(secretHandler({ AZURE_SPEECH_REGION: 'westus2' }));

    expect(bodyOf(result)).toMatchObject({ region: 'swedencentral' });
  });

  it('caches the key for at most five minutes', async () => {
    const handler = secretHandler();
    // A failed exchange leaves no token to reuse, so the next call must issue again from the cached key.
    sts.respondWith((_request, response) => sendJson(response, 500, {}));
    await call(handler);
    sts.respondWith(issueTokens);
    clock += SECRET_CACHE_MS - 1;
    const withinCache = await call(handler);
    const readsWithinCache = secrets.requests.length;
    clock += TOKEN_REUSE_MS + 1;

    const afterCache = await call(handler);

    expect([withinCache.statusCode, afterCache.statusCode]).toEqual([200, 200]);
    expect(readsWithinCache).toBe(1);
    expect(secrets.requests).toHaveLength(2);
  });

  it('reads the secret again after STS refuses the key, so a rotated key is picked up at once', async () => {
    const handler = secretHandler();
    secretString = 'a-revoked-key-1234';
    const refused = await call(handler);
    secretString = ROTATED_KEY;

    const result = await call(handler);

    expect(refused.statusCode).toBe(502);
    expect(result.statusCode).toBe(200);
    expect(secrets.requests).toHaveLength(2);
    expect(sts.requests.at(-1)?.headers['ocp-apim-subscription-key']).toBe(ROTATED_KEY);
  });

  it('shares one secret read and one STS request among concurrent callers', async () => {
    const handler = secretHandler();

    const results = await Promise.all(Array.from({ length: 10 }, () => call(handler)));

    expect(results.every((result) => result.statusCode === 200)).toBe(true);
    expect(secrets.requests).toHaveLength(1);
    expect(sts.requests).toHaveLength(1);
  });

  it.each([
    ['the secret does not exist', undefined],
    ['the secret is empty', ''],
    ['the JSON secret has no key', '{"region":"eastus"}'],
    ['the JSON secret is broken', '{"key":'],
  ])('answers 503 not_configured when %s', async (_case, value) => {
    secretString = value;

    const result = await call(secretHandler());

    expect(result.statusCode).toBe(503);
    expect(errorCode(result)).toBe('not_configured');
    expect(sts.requests).toHaveLength(0);
  });

  it('answers 502 upstream_error when Secrets Manager fails', async () => {
    secrets.respondWith((_request, response) =>
      sendJson(
        response,
        500,
        { __type: 'InternalServiceError', message: 'secret detail 9c2e' },
        {
          'Content-Type': 'application/x-amz-json-1.1',
        },
      ),
    );

    const result = await call(secretHandler());

    expect(result.statusCode).toBe(502);
    expect(errorCode(result)).toBe('upstream_error');
    expect(result.body).not.toContain('9c2e');
  });

  it('answers 504 upstream_timeout when Secrets Manager does not answer in time', async () => {
    secrets.respondWith(hang);

    const result = await call(secretHandler({ SECRETS_MANAGER_TIMEOUT_MS: '100' }));

    expect(result.statusCode).toBe(504);
    expect(errorCode(result)).toBe('upstream_timeout');
  });
});

describe('POST /api/speechToken requests', () => {
  it('answers any method but POST with 405', async () => {
    const result = await call(localHandler(), { method: 'GET' });

    expect(result.statusCode).toBe(405);
    expect(sts.requests).toHaveLength(0);
  });

  it('refuses a body that is not JSON with 400 invalid_json', async () => {
    const result = await call(localHandler(), { body: 'token please' });

    expect(result.statusCode).toBe(400);
    expect(errorCode(result)).toBe('invalid_json');
  });
});
