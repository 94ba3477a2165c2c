import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as ChatApi from '#web/api/chat';
import type * as Http from '#web/api/http';
import { hang, sendJson, startFakeServer, type FakeServer } from '#support/loopback';
import { gate } from '#support/tutor-stream';

// The web's streamed chat call: real fetch against a loopback server standing in for the API, and a
// Response built from a ReadableStream where the exact cut of the network chunks matters.
let server: FakeServer;
let chat: typeof ChatApi;
let http: typeof Http;

beforeAll(async () => {
  server = await startFakeServer((_request, response) => sendJson(response, 500, {}));
  vi.stubEnv('VITE_API_BASE', server.url);
  vi.resetModules();
  chat = await import('#web/api/chat');
  http = await import('#web/api/http');
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await server.close();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const request = {
  userMessage: 'What is a comet?',
  language: 'en-US' as const,
  chatHistory: [],
  conversationId: '3f6c1b1e-8d2a-4c55-9e1f-7a0b2c4d6e81',
};
const NDJSON = { 'Content-Type': 'application/x-ndjson', 'X-Astro-Tutor': 'bedrock' };
const line = (value: unknown) => `${JSON.stringify(value)}\n`;
// Each deadline short only where it is the one under test, so that neither can pass for the other.
const SHORT_FIRST_LINE = { firstByteMs: 200, idleMs: 60_000 };
const SHORT_SILENCE = { firstByteMs: 60_000, idleMs: 200 };

/** Records what the handlers were given, in order. */
function recorder() {
  const seen: string[] = [];
  return {
    seen,
    handlers: {
      onDelta: (text: string) => seen.push(`delta:${text}`),
      onPicture: (imagePrompt: string) => seen.push(`picture:${imagePrompt}`),
    },
  };
}

/** Answers fetch with these exact byte chunks as an NDJSON body. */
function answerWithChunks(chunks: readonly Uint8Array[], headers: Record<string, string> = NDJSON) {
  vi.stubGlobal('fetch', async () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(chunk);
        controller.close();
      },
    });
    return new Response(body, { status: 200, headers });
  });
}

/** Answers fetch with an NDJSON body whose lines the test sends when it chooses. */
function answerLineByLine() {
  let body!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({ start: (controller) => void (body = controller) });
  vi.stubGlobal('fetch', async () => new Response(stream, { status: 200, headers: NDJSON }));
  return (value: unknown) => body.enqueue(new TextEncoder().encode(line(value)));
}

/** How a call has ended so far: still waiting, its reply's text, or its error's message. */
function outcomeOf(promise: Promise<{ response: string }>) {
  const outcome = { now: 'waiting' };
  promise.then(
    (reply) => (outcome.now = `reply: ${reply.response}`),
    (error: Error) => (outcome.now = `failed: ${error.message}`),
  );
  return outcome;
}

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error,
  );

describe('streamChat', () => {
  it('asks for NDJSON and gives each delta as it arrives, before the server has finished', async () => {
    const rest = gate();
    server.respondWith(async (_request, response) => {
      response.writeHead(200, NDJSON);
      response.write(line({ type: 'delta', text: 'A comet is ' }));
      await rest.wait();
      response.write(line({ type: 'delta', text: 'a dirty snowball.' }));
      response.end(line({ type: 'done', response: 'A comet is a dirty snowball.' }));
    });
    const { seen } = recorder();

    const reply = await chat.streamChat(request, {
      // The server sends the rest only once the first delta has reached the app.
      onDelta: (text) => {
        seen.push(`delta:${text}`);
        rest.open();
      },
      onPicture: (imagePrompt) => seen.push(`picture:${imagePrompt}`),
    });

    expect(seen).toEqual(['delta:A comet is ', 'delta:a dirty snowball.']);
    expect(reply).toEqual({ response: 'A comet is a dirty snowball.', offlineTutor: false });
    const sent = server.requests.at(-1);
    expect(sent?.url).toBe('/api/chat');
    expect(sent?.headers.accept).toBe('application/x-ndjson');
    expect(sent?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(sent?.body.toString() ?? '')).toEqual(request);
  });

  it('gives the picture line as soon as it arrives, once, and returns the reply with it', async () => {
    server.respondWith((_request, response) => {
      response.writeHead(200, { ...NDJSON, 'X-Astro-Tutor': 'offline' });
      response.end(
        line({ type: 'picture', imagePrompt: 'A comet near the Sun' }) +
          line({ type: 'delta', text: 'Look at its tail.' }) +
          line({ type: 'done', response: 'Look at its tail.', imagePrompt: 'A comet near the Sun' }),
      );
    });
    const { seen, handlers } = recorder();

    const reply = await chat.streamChat(request, handlers);

    expect(seen).toEqual(['picture:A comet near the Sun', 'delta:Look at its tail.']);
    expect(reply).toEqual({
      response: 'Look at its tail.',
      imagePrompt: 'A comet near the Sun',
      offlineTutor: true,
    });
  });

  it('puts back lines and multi-byte characters split across chunks, and reads a last line without newline', async () => {
    const bytes = new TextEncoder().encode(
      line({ type: 'delta', text: '彗星は「汚れた雪玉」です。' }) +
        line({ type: 'delta', text: ' 🌠' }) +
        JSON.stringify({ type: 'done', response: '彗星は「汚れた雪玉」です。 🌠' }),
    );
    // Cuts inside a line, inside a 3-byte character and inside the 4-byte emoji.
    const cuts = [5, 20, 21, bytes.indexOf(0xf0) + 2, bytes.length - 10];
    const chunks = [0, ...cuts].map((start, index) => bytes.subarray(start, [...cuts, bytes.length][index]));
    answerWithChunks(chunks);
    const { seen, handlers } = recorder();

    const reply = await chat.streamChat(request, handlers);

    expect(seen).toEqual(['delta:彗星は「汚れた雪玉」です。', 'delta: 🌠']);
    expect(reply.response).toBe('彗星は「汚れた雪玉」です。 🌠');
  });

  it('takes an application/json answer as the whole reply: one delta, then the picture', async () => {
    server.respondWith((_request, response) =>
      sendJson(response, 200, { response: 'Comets have tails.', imagePrompt: 'A comet' }),
    );
    const { seen, handlers } = recorder();

    const reply = await chat.streamChat(request, handlers);

    expect(seen).toEqual(['delta:Comets have tails.', 'picture:A comet']);
    expect(reply).toEqual({ response: 'Comets have tails.', imagePrompt: 'A comet', offlineTutor: false });
  });

  it('reads the check for understanding from the done line and from a JSON answer, and sends the level', async () => {
    const bodies: unknown[] = [];
    server.respondWith((incoming, response) => {
      bodies.push(JSON.parse(incoming.body.toString('utf8')));
      response.writeHead(200, NDJSON);
      response.end(
        line({ type: 'delta', text: 'Which planet is biggest?' }) +
          line({ type: 'done', response: 'Which planet is biggest?', check: { type: 'question' } }),
      );
    });
    const streamed = await chat.streamChat({ ...request, level: 'child' }, recorder().handlers);
    expect(streamed.check).toEqual({ type: 'question' });
    expect(bodies).toEqual([{ ...request, level: 'child' }]);

    server.respondWith((_request, response) =>
      sendJson(response, 200, { response: 'Yes, Jupiter!', check: { type: 'answer', correct: true } }),
    );
    const whole = await chat.streamChat(request, recorder().handlers);
    expect(whole.check).toEqual({ type: 'answer', correct: true });
  });

  it.each([
    [
      { type: 'answer', correct: false, openQuestion: true },
      { type: 'answer', correct: false, openQuestion: true },
    ],
    [
      { type: 'answer', correct: true, openQuestion: true, hint: 'x' },
      { type: 'answer', correct: true, openQuestion: true },
    ],
    [
      { type: 'answer', correct: true, openQuestion: false },
      { type: 'answer', correct: true },
    ],
    [
      { type: 'answer', correct: false, openQuestion: 'yes' },
      { type: 'answer', correct: false },
    ],
    [{ type: 'question', openQuestion: true, topic: 'sun' }, { type: 'question' }],
  ])(
    'reads %j as %j: openQuestion only when exactly true, unknown fields dropped, streamed or whole',
    async (sent, read) => {
      server.respondWith((_request, response) => {
        response.writeHead(200, NDJSON);
        response.end(
          line({ type: 'delta', text: 'Hi.' }) + line({ type: 'done', response: 'Hi.', check: sent }),
        );
      });
      expect((await chat.streamChat(request, recorder().handlers)).check).toEqual(read);
      server.respondWith((_request, response) => sendJson(response, 200, { response: 'Hi.', check: sent }));
      expect((await chat.streamChat(request, recorder().handlers)).check).toEqual(read);
    },
  );

  it.each([{ type: 'answer' }, { type: 'answer', correct: 'yes' }, { type: 'quiz' }, 'question', null])(
    'ignores a malformed check (%j) and keeps the reply',
    async (check) => {
      server.respondWith((_request, response) => {
        response.writeHead(200, NDJSON);
        response.end(line({ type: 'delta', text: 'Hi.' }) + line({ type: 'done', response: 'Hi.', check }));
      });
      const reply = await chat.streamChat(request, recorder().handlers);
      expect(reply).toEqual({ response: 'Hi.', offlineTutor: false });
    },
  );

  it('fails a non-OK answer with "API call failed: <status>" and its code, before any delta', async () => {
    server.respondWith((_request, response) =>
      sendJson(response, 429, { error: { code: 'rate_limited', message: 'slow down' } }),
    );
    const { seen, handlers } = recorder();

    const failure = await failureOf(chat.streamChat(request, handlers));

    expect(failure).toBeInstanceOf(http.ApiRequestError);
    expect(failure).toMatchObject({ message: 'API call failed: 429', status: 429, code: 'rate_limited' });
    expect(seen).toEqual([]);
  });

  it('throws on an error line, after giving the deltas before it', async () => {
    server.respondWith((_request, response) => {
      response.writeHead(200, NDJSON);
      response.end(
        line({ type: 'delta', text: 'A comet is' }) +
          line({ type: 'error', error: { code: 'upstream_timeout', message: 'The model took too long.' } }),
      );
    });
    const { seen, handlers } = recorder();

    const failure = await failureOf(chat.streamChat(request, handlers));

    expect(seen).toEqual(['delta:A comet is']);
    expect(failure).toBeInstanceOf(http.ApiRequestError);
    expect(failure).toMatchObject({ message: 'API call failed: 504', status: 504, code: 'upstream_timeout' });
  });

  it('throws when the stream breaks off before done', async () => {
    server.respondWith((_request, response) => {
      response.writeHead(200, NDJSON);
      response.write(line({ type: 'delta', text: 'A comet is' }));
      setTimeout(() => response.destroy(), 20);
    });
    const { seen, handlers } = recorder();

    const failure = await failureOf(chat.streamChat(request, handlers));

    expect(seen).toEqual(['delta:A comet is']);
    expect(failure).toBeInstanceOf(http.ApiRequestError);
  });

  it('throws when the stream ends cleanly without done', async () => {
    answerWithChunks([new TextEncoder().encode(line({ type: 'delta', text: 'A comet' }))]);

    const failure = await failureOf(chat.streamChat(request, recorder().handlers));

    expect(failure).toMatchObject({
      name: 'ApiRequestError',
      message: 'API call failed: the reply broke off',
    });
  });

  it.each([
    ['not JSON', 'hello\n'],
    ['an unknown line type', line({ type: 'shout', text: 'HI' })],
    ['a delta without text', line({ type: 'delta' })],
    ['a done without a response', line({ type: 'done', response: '  ' })],
    ['an error with an unknown code', line({ type: 'error', error: { code: 'oops', message: 'x' } })],
  ])('refuses a malformed line: %s', async (_case, text) => {
    answerWithChunks([new TextEncoder().encode(text)]);

    await expect(chat.streamChat(request, recorder().handlers)).rejects.toMatchObject({
      message: 'Malformed answer from /api/chat',
    });
  });

  it('gives up when no answer starts within the first-byte deadline', async () => {
    server.respondWith(hang);

    const failure = await failureOf(
      chat.streamChat(request, recorder().handlers, undefined, SHORT_FIRST_LINE),
    );

    expect(failure).toMatchObject({
      name: 'ApiRequestError',
      message: 'API call failed: the reply timed out',
    });
  });

  it('gives up when the stream goes quiet between lines (the idle deadline)', async () => {
    server.respondWith((_request, response) => {
      response.writeHead(200, NDJSON);
      response.write(line({ type: 'delta', text: 'A comet is' }));
    });
    const { seen, handlers } = recorder();

    const failure = await failureOf(chat.streamChat(request, handlers, undefined, SHORT_SILENCE));

    expect(seen).toEqual(['delta:A comet is']);
    expect(failure).toMatchObject({ message: 'API call failed: the reply timed out' });
  });

  it('stops reading at once when the caller aborts, with the caller’s reason', async () => {
    server.respondWith((_request, response) => {
      response.writeHead(200, NDJSON);
      response.write(line({ type: 'delta', text: 'A comet is' }));
    });
    const caller = new AbortController();
    const reason = new Error('the learner pressed Stop');

    const failure = failureOf(
      chat.streamChat(
        request,
        { onDelta: () => caller.abort(reason), onPicture: () => undefined },
        caller.signal,
      ),
    );

    expect(await failure).toBe(reason);
  });
});

describe('streamChat deadlines (docs/behaviour.md §7.11, §9.9: 30 s to the first line, then 20 s between lines)', () => {
  const { firstByteMs, idleMs } = { firstByteMs: 30_000, idleMs: 20_000 };

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('uses those deadlines when the caller gives none', () => {
    expect(chat.CHAT_STREAM_DEADLINES).toEqual({ firstByteMs, idleMs });
  });

  it('keeps reading a reply whose lines each come within 20 s, though the whole takes over a minute', async () => {
    const send = answerLineByLine();
    const outcome = outcomeOf(chat.streamChat(request, recorder().handlers));

    // Each line comes 15 s after the one before: under the silence deadline, past the first line's.
    for (const text of ['Comets ', 'are ', 'dirty ', 'snowballs.']) {
      await vi.advanceTimersByTimeAsync(15_000);
      send({ type: 'delta', text });
    }
    await vi.advanceTimersByTimeAsync(15_000);
    send({ type: 'done', response: 'Comets are dirty snowballs.' });
    await vi.advanceTimersByTimeAsync(0);

    expect(outcome.now).toBe('reply: Comets are dirty snowballs.');
  });

  it('gives up 20 s after the last line, not when the first line’s 30 s run out', async () => {
    const send = answerLineByLine();
    const outcome = outcomeOf(chat.streamChat(request, recorder().handlers));

    await vi.advanceTimersByTimeAsync(1_000);
    send({ type: 'delta', text: 'A comet is' });
    await vi.advanceTimersByTimeAsync(idleMs - 1);
    expect(outcome.now).toBe('waiting');

    await vi.advanceTimersByTimeAsync(1);
    expect(outcome.now).toBe('failed: API call failed: the reply timed out');
  });

  it('gives up when the first line takes over 30 s, though the silence deadline is shorter', async () => {
    answerLineByLine();
    const outcome = outcomeOf(chat.streamChat(request, recorder().handlers));

    await vi.advanceTimersByTimeAsync(firstByteMs - 1);
    expect(outcome.now).toBe('waiting');

    await vi.advanceTimersByTimeAsync(1);
    expect(outcome.now).toBe('failed: API call failed: the reply timed out');
  });
});
