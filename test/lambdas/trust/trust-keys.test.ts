import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createChatHandler as streamingChatHandler } from '#lambdas/chat/handler';
import type { ErrorBody } from '#contract/errors';
import { API_ROUTES } from '#contract/routes';
import type { ChatResponse } from '#contract/schemas';
import { handlerAtColdStart } from '#lambdas/http/cold-start';
import { signReply } from '#lambdas/trust/seals';
import { createTrust } from '#lambdas/trust/trust-config';
import {
  fileTrustKeys,
  parseTrustSecret,
  TRUST_KEY_CACHE_MS,
  type TrustKeys,
} from '#lambdas/trust/trust-keys';
import { answersInJson, apiEvent, bodyOf } from '#support/events';
import { hang, startFakeServer, type FakeServer } from '#support/loopback';
import { captureLogs, type CapturedLogs } from '#support/logs';
import { startSecretsManagerFake } from '#support/secrets-manager-fake';
import { signatureHolds, TEST_CONVERSATION_ID } from '#support/trust';

const AT = (position: number) => ({ conversationId: TEST_CONVERSATION_ID, position });

/** These tests read whole JSON answers. */
const createChatHandler = (...args: Parameters<typeof streamingChatHandler>) =>
  answersInJson(streamingChatHandler(...args));

const OLD = 'old-signing-key-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
const NEW = 'new-signing-key-bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb';
/** The shortest key docs/behaviour.md §12.5 allows (32 printable characters), and one character less. */
const KEY_32 = 'shortest-key-0123456789!~abcdefg';
const KEY_31 = KEY_32.slice(0, 31);

describe('the signing key in Secrets Manager (real client against a loopback fake)', () => {
  let secrets: FakeServer;
  let secret: string | undefined;
  let clock: number;
  let logs: CapturedLogs;

  beforeAll(async () => {
    secrets = await startSecretsManagerFake(() => secret);
  });
  afterAll(() => secrets.close());
  beforeEach(() => {
    secret = JSON.stringify({ current: OLD });
    clock = Date.parse('2026-03-01T12:00:00Z');
    secrets.requests.length = 0;
    logs = captureLogs();
  });
  afterEach(() => {
    logs.restore();
    const logged = logs.lines.join('\n');
    for (const key of [OLD, NEW]) expect(logged).not.toContain(key);
  });

  const trustFrom = (env: Record<string, string> = {}) =>
    createTrust(
      { TRUST_SECRET_ID: 'astro/signing-key', SECRETS_MANAGER_ENDPOINT: secrets.url, ...env },
      () => clock,
    );
  const keys = (current: string, previous?: string): TrustKeys =>
    parseTrustSecret(JSON.stringify(previous ? { current, previous } : { current }));

  it('reads the key once for many replies, and again only after the cache time', async () => {
    const trust = trustFrom();
    const [a, b] = await Promise.all([
      trust.seal({ response: 'One' }, AT(0)),
      trust.seal({ response: 'Two' }, AT(2)),
    ]);
    await trust.seal({ response: 'Three' }, AT(4));

    expect(secrets.requests).toHaveLength(1);
    expect(JSON.parse(secrets.requests[0]?.body.toString() ?? '')).toEqual({ SecretId: 'astro/signing-key' });
    expect(signatureHolds(a.signature, 'One', AT(0), { keys: keys(OLD), now: clock })).toBe(true);
    expect(signatureHolds(b.signature, 'Two', AT(2), { keys: keys(OLD), now: clock })).toBe(true);

    clock += TRUST_KEY_CACHE_MS + 1;
    await trust.seal({ response: 'Four' }, AT(6));
    expect(secrets.requests).toHaveLength(2);
  });

  it('accepts both keys during a rotation and signs with the new one', async () => {
    const signedBefore = signReply(keys(OLD), AT(0), 'Jupiter is big.', clock);
    secret = JSON.stringify({ current: NEW, previous: OLD });
    const trust = trustFrom();

    const kept = await trust.trustedHistory(TEST_CONVERSATION_ID, [
      { role: 'assistant', content: 'Jupiter is big.', signature: signedBefore },
    ]);
    const sealed = await trust.seal({ response: 'Mars is small.' }, AT(2));

    expect(kept.turns).toEqual([{ role: 'assistant', content: 'Jupiter is big.' }]);
    expect(signatureHolds(sealed.signature, 'Mars is small.', AT(2), { keys: keys(NEW), now: clock })).toBe(
      true,
    );
    expect(signatureHolds(sealed.signature, 'Mars is small.', AT(2), { keys: keys(OLD), now: clock })).toBe(
      false,
    );
  });

  it('stops accepting the old key once the rotation ends', async () => {
    const signedBefore = signReply(keys(OLD), AT(0), 'Jupiter is big.', clock);
    secret = JSON.stringify({ current: NEW });

    const kept = await trustFrom().trustedHistory(TEST_CONVERSATION_ID, [
      { role: 'assistant', content: 'Jupiter is big.', signature: signedBefore },
    ]);

    expect(kept.turns).toEqual([]);
  });

  it.each([
    // Text that is not JSON, with a key in it.
    ['a malformed secret', () => `{"current":"short"} ${OLD}`, OLD],
    // Valid JSON: only the key's length (§12.5: 32 printable characters at least) is wrong.
    [
      'a well-formed secret whose key is one character short',
      () => JSON.stringify({ current: KEY_31 }),
      KEY_31,
    ],
  ])('answers 503 not_configured for %s, without its content', async (_case, secretText, hidden) => {
    secret = secretText();
    const chat = createChatHandler({
      TRUST_SECRET_ID: 'astro/signing-key',
      SECRETS_MANAGER_ENDPOINT: secrets.url,
    });

    const result = await chat(
      apiEvent({
        path: API_ROUTES.chat,
        body: { userMessage: 'Hi', language: 'en-US', chatHistory: [], conversationId: TEST_CONVERSATION_ID },
      }),
    );

    expect(result.statusCode).toBe(503);
    expect(bodyOf<ErrorBody>(result).error.code).toBe('not_configured');
    expect(result.body).not.toContain(hidden);
  });

  it('answers 504 when Secrets Manager hangs, within the configured deadline', async () => {
    const hanging = await startFakeServer(hang);
    try {
      const trust = createTrust({
        TRUST_SECRET_ID: 'astro/signing-key',
        SECRETS_MANAGER_ENDPOINT: hanging.url,
        SECRETS_MANAGER_TIMEOUT_MS: '200',
      });
      await expect(trust.seal({ response: 'Hi' }, AT(0))).rejects.toMatchObject({ code: 'upstream_timeout' });
    } finally {
      await hanging.close();
    }
  });
});

describe('the signing key secret (docs/behaviour.md §12.5: each key 32+ printable characters)', () => {
  const parse = (secret: object) => () => parseTrustSecret(JSON.stringify(secret));

  it('accepts keys of exactly 32 printable characters', () => {
    expect(KEY_32).toHaveLength(32);
    const keys = parseTrustSecret(JSON.stringify({ current: KEY_32, previous: KEY_32 }));

    expect(keys.current.toString()).toBe(KEY_32);
    expect(keys.previous?.toString()).toBe(KEY_32);
  });

  it('refuses a current key of 31 characters in otherwise valid JSON', () => {
    expect(parse({ current: KEY_31 })).toThrow(/32\+ characters/);
  });

  it('refuses a previous key of 31 characters beside a valid current one', () => {
    expect(parse({ current: KEY_32, previous: KEY_31 })).toThrow(/32\+ characters/);
  });

  it('refuses a key of 32 characters that are not all printable', () => {
    expect(parse({ current: `${KEY_31} ` })).toThrow(/32\+ characters/);
    expect(parse({ current: `${KEY_31}\u00e9` })).toThrow(/32\+ characters/);
  });
});

describe('the signing key in a local file', () => {
  let directory: string;
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'astro-trust-'));
  });
  afterAll(() => rm(directory, { recursive: true, force: true }));

  it('is created on first use with mode 0600, and every later use (and process) reads the same key', async () => {
    const path = join(directory, 'nested', 'trust-key.json');
    const [a, b] = await Promise.all([fileTrustKeys(path).get(), fileTrustKeys(path).get()]);
    const again = await fileTrustKeys(path).get();

    expect(a.current.equals(b.current)).toBe(true);
    expect(again.current.equals(a.current)).toBe(true);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(parseTrustSecret(await readFile(path, 'utf8')).current.length).toBeGreaterThanOrEqual(32);
  });
});

describe('the signing key configuration', () => {
  it('refuses to start a Lambda without TRUST_SECRET_ID (503 not_configured, not a key of its own)', async () => {
    const logs = captureLogs();
    try {
      const chat = handlerAtColdStart(API_ROUTES.chat, () =>
        createChatHandler({ AWS_LAMBDA_FUNCTION_NAME: 'astro-chat' }),
      );
      const result = await chat(
        apiEvent({
          path: API_ROUTES.chat,
          body: {
            userMessage: 'Hi',
            language: 'en-US',
            chatHistory: [],
            conversationId: TEST_CONVERSATION_ID,
          },
        }),
      );

      expect(result.statusCode).toBe(503);
      expect(logs.lines.join('\n')).toContain('TRUST_SECRET_ID');
    } finally {
      logs.restore();
    }
  });

  it('signs with a key of its own outside Lambda when nothing is configured', async () => {
    const chat = createChatHandler({});
    const result = await chat(
      apiEvent({
        path: API_ROUTES.chat,
        body: { userMessage: 'Hi', language: 'en-US', chatHistory: [], conversationId: TEST_CONVERSATION_ID },
      }),
    );

    expect(bodyOf<ChatResponse>(result).signature).toMatch(/^v2\./);
  });
});
