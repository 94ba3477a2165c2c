import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as Http from '#web/api/http';
import type * as SpeechToken from '#web/api/speech-token';
import { hang, startFakeServer, type FakeServer } from '#support/loopback';

// No API call may wait for ever: a server that never answers, or stalls mid-body, is cut off by the
// call's deadline (real fetch against a loopback server; the deadline is shortened for the test).
let server: FakeServer;
let http: typeof Http;
let speechToken: typeof SpeechToken;

beforeAll(async () => {
  server = await startFakeServer(hang);
  vi.stubEnv('VITE_API_BASE', server.url);
  vi.resetModules();
  http = await import('#web/api/http');
  speechToken = await import('#web/api/speech-token');
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await server.close();
});

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'answered',
    (error: Error) => error.name,
  );

describe('API call deadlines', () => {
  it('gives up on a server that never answers', async () => {
    server.respondWith(hang);
    expect(await failureOf(http.postJson('/api/chat', {}, undefined, 200))).toBe('TimeoutError');
  });

  it('gives up on a server that sends its headers and then stalls the body', async () => {
    server.respondWith((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.write('{"response":');
    });
    expect(await failureOf(http.postJson('/api/chat', {}, undefined, 200))).toBe('TimeoutError');
  });

  it("still honours the caller's own signal, whichever comes first", async () => {
    server.respondWith(hang);
    const caller = new AbortController();
    const pending = failureOf(http.postJson('/api/chat', {}, caller.signal, 60_000));
    caller.abort();
    expect(await pending).toBe('AbortError');
  });

  it('combines an already-aborted signal into an aborted one', () => {
    const caller = new AbortController();
    caller.abort(new Error('gone'));
    expect(http.withTimeout(caller.signal, 60_000).aborted).toBe(true);
  });

  it('waits longer than the API itself may take (its deadlines end before API Gateway gives up at 29 s)', () => {
    expect(http.API_DEADLINE_MS).toBeGreaterThan(29_000);
  });
});

describe('the speech token deadline (docs/behaviour.md §7.11: 10 s, then the browser speaks)', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('gives up on a token request after 10 s, not the 30 s of other calls', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    // AbortSignal.timeout runs on Node's own timers, which fake timers do not reach: the same signal on
    // setTimeout, so the test can move the clock.
    vi.spyOn(AbortSignal, 'timeout').mockImplementation((ms) => {
      const controller = new AbortController();
      setTimeout(() => controller.abort(new DOMException('The operation timed out.', 'TimeoutError')), ms);
      return controller.signal;
    });
    // A token request the server never answers: fetch ends only when its signal aborts.
    vi.stubGlobal(
      'fetch',
      (_url: string, init: RequestInit) =>
        new Promise((_resolve, reject) =>
          init.signal?.addEventListener('abort', () => reject(init.signal?.reason)),
        ),
    );
    const outcome = { now: 'waiting' };
    speechToken.fetchSpeechToken().catch((error: Error) => (outcome.now = error.name));

    await vi.advanceTimersByTimeAsync(speechToken.SPEECH_TOKEN_DEADLINE_MS - 1);
    expect(outcome.now).toBe('waiting');
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome.now).toBe('TimeoutError');
    expect(speechToken.SPEECH_TOKEN_DEADLINE_MS).toBe(10_000);
  });
});
