/**
 * Deadlines that a garbage collection cannot take (docs/behaviour.md §9.14): this file runs with
 * `--expose-gc` (vitest.config.ts, project `gc`) and collects between every step. A deadline built on
 * `AbortSignal.any([AbortSignal.timeout(…), caller])` loses its timer in the first collection
 * (nodejs/node#57736) and never fires; these prove the deadlines in lambdas/upstream/deadline.ts do, and
 * that a model that dribbles a word every few milliseconds for ever is still cut off with an `error`
 * line at MODEL_TIMEOUT_MS.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatHandler } from '#lambdas/chat/handler';
import { API_ROUTES, CHAT_STREAM_MEDIA_TYPE } from '#contract/routes';
import { deadline, streamDeadline } from '#lambdas/upstream/deadline';
import { apiEvent } from '#support/events';
import { startFakeServer, type FakeServer } from '#support/loopback';
import { readLines } from '#support/ndjson';
import { completionChunk, sseData } from '#support/openai-fake';
import { TRUST_ENV } from '#support/trust';

const collect = (globalThis as { gc?: () => void }).gc;

/** Collects garbage a few times, letting timers and finalizers run in between. */
async function collectGarbage(): Promise<void> {
  if (!collect) throw new Error('run with --expose-gc (the vitest project "gc")');
  for (let round = 0; round < 3; round += 1) {
    collect();
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Resolves 'fired' when `signal` aborts, or 'never' once `guardMs` has passed without it. */
function firedWithin(signal: AbortSignal, guardMs: number): Promise<'fired' | 'never'> {
  return new Promise((resolve) => {
    const guard = setTimeout(() => resolve('never'), guardMs);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(guard);
        resolve('fired');
      },
      { once: true },
    );
  });
}

describe('a deadline survives garbage collection', () => {
  it('fires with a caller signal beside it, after collections while it runs', async () => {
    const caller = new AbortController();
    const limit = deadline(100, caller.signal);
    const fired = firedWithin(limit.signal, 2_000);

    await collectGarbage();

    expect(await fired).toBe('fired');
    expect(limit.expired()).toBe(true);
    expect((limit.signal.reason as Error).name).toBe('TimeoutError');
  });

  it('fires its whole deadline while pieces keep arriving, after collections between them', async () => {
    const caller = new AbortController();
    const limit = streamDeadline(150, 10_000, caller.signal);
    const fired = firedWithin(limit.signal, 3_000);
    let outcome: 'fired' | 'never' | undefined;
    void fired.then((value) => (outcome = value));

    while (outcome === undefined) {
      limit.touch();
      await collectGarbage();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }

    expect(outcome).toBe('fired');
    expect((limit.signal.reason as Error).name).toBe('TimeoutError');
  });
});

describe('an endless model stream', () => {
  let model: FakeServer;
  let pieces = 0;

  beforeAll(async () => {
    // A model that writes a word every 20 ms and never finishes: the idle deadline never runs out.
    model = await startFakeServer(async (_request, response) => {
      response.writeHead(200, { 'Content-Type': 'text/event-stream' });
      response.flushHeaders();
      for (let index = 0; index < 500 && !response.destroyed; index += 1) {
        pieces += 1;
        response.write(sseData(completionChunk({ content: `word${index} ` })));
        collect?.();
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      response.end();
    });
  });
  afterAll(() => model.close());

  it('ends with an upstream_timeout error line at MODEL_TIMEOUT_MS, collections or not', async () => {
    const handler = createChatHandler({
      ...TRUST_ENV,
      ASTRO_MODEL: 'openai',
      OPENAI_BASE_URL: `${model.url}/v1`,
      OPENAI_MODEL: 'dribbler',
      // Long enough for the first words to arrive on a busy machine (the lessons are read first), far
      // shorter than the 10 s the model would take to stop on its own.
      MODEL_TIMEOUT_MS: '2000',
      MODEL_IDLE_TIMEOUT_MS: '5000',
    });

    const lines = await readLines(
      await handler(
        apiEvent({
          path: API_ROUTES.chat,
          headers: { Accept: CHAT_STREAM_MEDIA_TYPE },
          body: {
            userMessage: 'Tell me about comets',
            language: 'en-US',
            chatHistory: [],
            conversationId: '0b7e9c1e-3c52-4d8e-9a57-2f5d4d1b6a10',
          },
        }),
      ),
    );

    expect(lines.filter((line) => line.type === 'delta').length).toBeGreaterThan(0);
    expect(lines.at(-1)).toEqual({
      type: 'error',
      error: { code: 'upstream_timeout', message: expect.any(String) as unknown },
    });
    // Cut long before the model would have stopped on its own.
    expect(pieces).toBeLessThan(500);
  });
});
