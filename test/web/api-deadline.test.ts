import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as Http from '#web/api/http';
import { hang, startFakeServer, type FakeServer } from '#support/loopback';

// No API call may wait for ever: a server that never answers, or stalls mid-body, is cut off by the
// call's deadline (real fetch against a loopback server; the deadline is shortened for the test).
let server: FakeServer;
let http: typeof Http;

beforeAll(async () => {
  server = await startFakeServer(hang);
  vi.stubEnv('VITE_API_BASE', server.url);
  vi.resetModules();
  http = await import('#web/api/http');
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
