import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createChatHandler } from '#lambdas/chat/handler';
import { API_ROUTES } from '#contract/routes';
import type { ApiEvent, ApiHandler } from '#lambdas/http/endpoint';
import {
  streamingLambda,
  type HttpResponseMetadata,
  type LambdaStreamingRuntime,
  type StreamifiedHandler,
} from '#lambdas/http/lambda-stream';
import { converseEvent, converseStreamAnswer, startBedrockFake } from '#support/bedrock-fake';
import { apiEvent } from '#support/events';
import type { FakeServer } from '#support/loopback';
import { parseLines } from '#support/ndjson';
import { gate } from '#support/tutor-stream';
import { TEST_CONVERSATION_ID } from '#support/trust';

/** 8 zero bytes: what separates the HTTP metadata prelude from the body in Lambda's HTTP streaming format. */
const DELIMITER = Buffer.alloc(8);

/** A response stream as the Lambda runtime hands it over: a Writable recording each write in order. */
class FakeResponseStream extends Writable {
  readonly writes: Buffer[] = [];
  private waiting: { count: number; resolve: () => void }[] = [];

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: () => void): void {
    this.writes.push(Buffer.from(chunk));
    this.waiting = this.waiting.filter((waiter) => {
      if (this.writes.length < waiter.count) return true;
      waiter.resolve();
      return false;
    });
    callback();
  }

  /** Resolves once `count` writes have arrived. */
  written(count: number): Promise<void> {
    if (this.writes.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push({ count, resolve }));
  }

  get bytes(): Buffer {
    return Buffer.concat(this.writes);
  }
}

/**
 * The two members of the runtime's `awslambda` the adapter uses, behaving as the runtime's do:
 * streamifyResponse marks the handler; HttpResponseStream.from writes the metadata JSON and the delimiter.
 */
const fakeRuntime: LambdaStreamingRuntime = {
  streamifyResponse: (handler) => handler,
  HttpResponseStream: {
    from(responseStream: Writable, metadata: HttpResponseMetadata): Writable {
      responseStream.write(Buffer.concat([Buffer.from(JSON.stringify(metadata)), DELIMITER]));
      return responseStream;
    },
  },
};

function splitPrelude(bytes: Buffer): { metadata: HttpResponseMetadata; body: string } {
  const at = bytes.indexOf(DELIMITER);
  if (at < 0) throw new Error('no metadata prelude');
  return {
    metadata: JSON.parse(bytes.subarray(0, at).toString('utf8')) as HttpResponseMetadata,
    body: bytes.subarray(at + DELIMITER.length).toString('utf8'),
  };
}

const chatEvent = (headers: Record<string, string>): ApiEvent =>
  apiEvent({
    path: API_ROUTES.chat,
    headers,
    body: {
      userMessage: 'What is a comet?',
      language: 'en-US',
      chatHistory: [],
      conversationId: TEST_CONVERSATION_ID,
    },
  });

describe('the chat Lambda through Lambda response streaming', () => {
  let bedrock: FakeServer;
  let lambda: StreamifiedHandler;

  beforeAll(async () => {
    bedrock = await startBedrockFake(converseStreamAnswer([]));
    const chat = createChatHandler({
      ASTRO_MODEL: 'bedrock',
      BEDROCK_ENDPOINT: bedrock.url,
      MODEL_TIMEOUT_MS: '2000',
    });
    lambda = streamingLambda(chat, fakeRuntime) as StreamifiedHandler;
  });
  afterAll(() => bedrock.close());

  it('writes the metadata prelude, then each line while the model is still writing', async () => {
    const rest = gate();
    bedrock.respondWith(
      converseStreamAnswer([
        converseEvent('messageStart', { role: 'assistant' }),
        converseEvent('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'A comet is' } }),
        rest.wait,
        converseEvent('contentBlockDelta', { contentBlockIndex: 0, delta: { text: ' icy.' } }),
        converseEvent('contentBlockStop', { contentBlockIndex: 0 }),
        converseEvent('messageStop', { stopReason: 'end_turn' }),
      ]),
    );
    const responseStream = new FakeResponseStream();

    const invocation = lambda(chatEvent({ Accept: 'application/x-ndjson' }), responseStream);
    // The prelude and the first line are out although the model has not sent the rest yet.
    await responseStream.written(2);
    const early = splitPrelude(responseStream.bytes);
    rest.open();
    await invocation;

    expect(early.metadata).toEqual({
      statusCode: 200,
      headers: {
        'Content-Type': 'application/x-ndjson',
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
        'X-Astro-Tutor': 'bedrock',
      },
    });
    expect(parseLines(early.body)).toEqual([{ type: 'delta', text: 'A comet is' }]);
    expect(parseLines(splitPrelude(responseStream.bytes).body)).toEqual([
      { type: 'delta', text: 'A comet is' },
      { type: 'delta', text: ' icy.' },
      { type: 'done', response: 'A comet is icy.', signature: expect.stringMatching(/^v2\./) },
    ]);
    expect(responseStream.writableFinished).toBe(true);
  });

  it('writes the JSON reply after the prelude when the request does not ask for a stream', async () => {
    bedrock.respondWith((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.end(
        JSON.stringify({
          output: { message: { role: 'assistant', content: [{ text: 'Icy.' }] } },
          stopReason: 'end_turn',
        }),
      );
    });
    const responseStream = new FakeResponseStream();

    await lambda(chatEvent({}), responseStream);

    const { metadata, body } = splitPrelude(responseStream.bytes);
    expect(metadata.statusCode).toBe(200);
    expect(metadata.headers['Content-Type']).toBe('application/json');
    expect(JSON.parse(body)).toEqual({ response: 'Icy.', signature: expect.stringMatching(/^v2\./) });
  });

  it('writes an error response with its status in the prelude', async () => {
    const responseStream = new FakeResponseStream();

    await lambda({ ...chatEvent({}), httpMethod: 'GET' }, responseStream);

    const { metadata, body } = splitPrelude(responseStream.bytes);
    expect(metadata.statusCode).toBe(405);
    expect(metadata.headers.Allow).toBe('POST');
    expect(JSON.parse(body)).toMatchObject({ error: { code: 'method_not_allowed' } });
  });

  describe('with the Lambda runtime there', () => {
    const streamified = new WeakSet<object>();
    let exported: unknown;
    // Loaded once for the group, not inside the test: the chat module's graph is loaded anew here, and
    // mutation testing would otherwise take its module-level code as this one test's.
    beforeAll(async () => {
      vi.stubGlobal('awslambda', {
        ...fakeRuntime,
        streamifyResponse: (handler: StreamifiedHandler) => (streamified.add(handler), handler),
      });
      vi.resetModules();
      try {
        exported = (await import('#lambdas/chat/handler')).handler;
      } finally {
        vi.unstubAllGlobals();
      }
    });

    it('is what the chat module exports', () => {
      expect(streamified.has(exported as object)).toBe(true);
    });
  });

  it('outside the Lambda runtime (no awslambda global) answers as an ordinary buffered handler', async () => {
    const buffered = streamingLambda(createChatHandler({})) as ApiHandler;

    const result = await buffered(chatEvent({ Accept: 'application/x-ndjson' }));

    expect(result.statusCode).toBe(200);
    expect(parseLines(result.body).at(-1)).toMatchObject({ type: 'done' });
  });
});
