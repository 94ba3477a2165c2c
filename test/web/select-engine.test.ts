// @vitest-environment jsdom
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AudioPlayer } from '#web/speech/audio-player';
import type * as SelectEngine from '#web/speech/select-engine';
import { sendJson, startFakeServer, type FakeServer } from '#support/loopback';

// Which engine a conversation gets (docs/behaviour.md §10): the browser's own speech whenever the server
// has no Azure token to give, whatever the reason, so Start always gets an engine. Real fetch against a
// loopback server standing in for /api/speechToken.

let server: FakeServer;
let select: typeof SelectEngine.selectSpeechEngine;
const player = {} as AudioPlayer;
const azure = { kind: 'azure' };
const createAzureEngine = vi.fn(async () => azure);

beforeAll(async () => {
  server = await startFakeServer((_request, response) => sendJson(response, 500, {}));
  vi.stubEnv('VITE_API_BASE', server.url);
  vi.resetModules();
  // The Azure engine itself meets the fake speech service in azure-engine-*.test.ts; here only the
  // choice and what it is given are at stake.
  vi.doMock('#web/speech/azure-engine', () => ({ createAzureEngine }));
  ({ selectSpeechEngine: select } = await import('#web/speech/select-engine'));
});
afterAll(async () => {
  vi.doUnmock('#web/speech/azure-engine');
  vi.unstubAllEnvs();
  await server.close();
});
afterEach(() => vi.restoreAllMocks());

describe('choosing the speech engine', () => {
  it('uses the browser engine, quietly, when the server has no speech key (503 not_configured)', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    server.respondWith((_request, response) =>
      sendJson(response, 503, {
        error: { code: 'not_configured', message: 'Cloud speech is not configured.' },
      }),
    );

    const engine = await select(player);

    expect(engine.kind).toBe('browser');
    expect(server.requests.at(-1)?.url).toBe('/api/speechToken');
    expect(logged).not.toHaveBeenCalled();
  });

  it('uses the browser engine, quietly, once the day’s spending cap is reached (503 over_budget)', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    server.respondWith((_request, response) =>
      sendJson(response, 503, { error: { code: 'over_budget', message: 'The day’s budget is spent.' } }),
    );

    const engine = await select(player);

    expect(engine.kind).toBe('browser');
    expect(logged).not.toHaveBeenCalled();
  });

  it('uses the browser engine, and logs why, when the token service fails or answers nonsense', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    for (const answer of [
      {
        status: 502,
        body: { error: { code: 'upstream_error', message: 'The speech service is unavailable.' } },
      },
      { status: 200, body: { token: 42 } },
    ]) {
      server.respondWith((_request, response) => sendJson(response, answer.status, answer.body));
      expect((await select(player)).kind).toBe('browser');
    }
    expect(logged).toHaveBeenCalledTimes(2);
    expect(String(logged.mock.calls[0]?.[0])).toContain('Azure Speech is unavailable');
  });
});

describe('with a token', () => {
  it('builds the Azure engine from the token, the player and a refresher that asks /api/speechToken again', async () => {
    const expiresAt = new Date(Date.now() + 10 * 60_000).toISOString();
    const token = { token: 'token-1', region: 'westeurope', expiresAt };
    server.respondWith((_request, response) => sendJson(response, 200, token));
    expect(await select(player)).toBe(azure);
    expect(createAzureEngine).toHaveBeenCalledTimes(1);
    const [options] = createAzureEngine.mock.calls[0] as unknown as [
      { token: unknown; player: unknown; fetchToken: (signal?: AbortSignal) => Promise<unknown> },
    ];
    expect(options.token).toEqual(token);
    expect(options.player).toBe(player);
    const asked = server.requests.length;
    server.respondWith((_request, response) => sendJson(response, 200, { ...token, token: 'token-2' }));
    expect(await options.fetchToken(new AbortController().signal)).toEqual({ ...token, token: 'token-2' });
    expect(server.requests.length).toBe(asked + 1);
  });
});
