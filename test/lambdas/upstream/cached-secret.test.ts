/**
 * The cached Secrets Manager read the speech key and the signing key share: the real SDK client against a
 * loopback fake of GetSecretValue. One read per cache period, one read in flight, a missing secret empty
 * only when asked, and each failure as the contract's error without the secret's content.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CachedSecret, secretsManagerClient } from '#lambdas/upstream/cached-secret';
import { hang, sendJson, type FakeServer } from '#support/loopback';
import { secretsManagerRoute, startSecretsManagerFake } from '#support/secrets-manager-fake';

const CACHE_MS = 1_000;
let secrets: FakeServer;
let stored: string | undefined;
beforeAll(async () => {
  secrets = await startSecretsManagerFake(() => stored);
});
afterAll(() => secrets.close());

function reader(options: { missingIsEmpty?: boolean; timeoutMs?: number; clock?: () => number } = {}) {
  const client = secretsManagerClient({
    region: 'us-east-1',
    endpoint: secrets.url,
    timeoutMs: options.timeoutMs ?? 2_000,
    maxAttempts: 1,
  });
  return new CachedSecret(client, {
    secretId: 'astro/test',
    cacheMs: CACHE_MS,
    parse: (text) => text?.toUpperCase(),
    missingIsEmpty: options.missingIsEmpty,
    what: 'the test key',
    now: options.clock,
  });
}

describe('CachedSecret', () => {
  it('reads once per cache period, shares one read in flight, and reads again after forget()', async () => {
    stored = 'first';
    let clock = 0;
    const secret = reader({ clock: () => clock });
    const before = secrets.requests.length;
    expect(await Promise.all([secret.get(), secret.get()])).toEqual(['FIRST', 'FIRST']);
    expect(secrets.requests.length - before).toBe(1);

    stored = 'second';
    clock += CACHE_MS - 1;
    expect(await secret.get()).toBe('FIRST');
    clock += 1;
    expect(await secret.get()).toBe('SECOND');
    stored = 'third';
    secret.forget();
    expect(await secret.get()).toBe('THIRD');
    expect(secrets.requests.length - before).toBe(3);
  });

  it('reads a missing secret as empty only when told to', async () => {
    stored = undefined;
    expect(await reader({ missingIsEmpty: true }).get()).toBeUndefined();
    await expect(reader().get()).rejects.toMatchObject({
      code: 'upstream_error',
      message: 'The test key could not be read. Please try again.',
    });
  });

  it('answers rate_limited when Secrets Manager throttles', async () => {
    secrets.respondWith((_request, response) =>
      sendJson(
        response,
        400,
        { __type: 'ThrottlingException', message: 'slow down' },
        {
          'Content-Type': 'application/x-amz-json-1.1',
        },
      ),
    );
    try {
      await expect(reader().get()).rejects.toMatchObject({ code: 'rate_limited' });
    } finally {
      secrets.respondWith(secretsManagerRoute(() => stored));
    }
  });

  it('gives up at its deadline when Secrets Manager does not answer', async () => {
    secrets.respondWith(hang);
    try {
      await expect(reader({ timeoutMs: 200 }).get()).rejects.toMatchObject({
        code: 'upstream_timeout',
        message: 'Reading the test key took too long. Please try again.',
      });
    } finally {
      secrets.respondWith(secretsManagerRoute(() => stored));
    }
  });

  it('caches nothing when the value cannot be parsed, and never echoes the secret', async () => {
    stored = 'not-a-key-s3cr3t';
    const client = secretsManagerClient({ region: 'us-east-1', endpoint: secrets.url, timeoutMs: 2_000 });
    let attempts = 0;
    const secret = new CachedSecret(client, {
      secretId: 'astro/test',
      cacheMs: CACHE_MS,
      parse: () => {
        attempts += 1;
        throw new Error('malformed');
      },
      what: 'the test key',
    });
    await expect(secret.get()).rejects.toThrow('malformed');
    const failure = await secret.get().catch((error: unknown) => String(error));
    expect(attempts).toBe(2);
    expect(failure).not.toContain('s3cr3t');
  });
});
