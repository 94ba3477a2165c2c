import { Writable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ApiError } from '#lambdas/lib/api-error';
import { handlerAtColdStart } from '#lambdas/http/cold-start';
import { defineEndpoint, notFound, type StreamedResult } from '#lambdas/http/endpoint';
import {
  collectResult,
  streamingLambda,
  writeResult,
  type HttpResponseMetadata,
} from '#lambdas/http/lambda-stream';
import { parseBody } from '#lambdas/http/request';
import { apiEvent, bodyOf } from '#support/events';
import { captureLogs, type CapturedLogs } from '#support/logs';

// The words every endpoint answers with (docs/behaviour.md §8: each error code with a message a learner
// can read), and the Lambda streaming adapter's buffered and binary answers.

type ErrorJson = { error: { code: string; message: string } };
const origins = { siteOrigins: [], hostHeader: 'host' };
const schema = z.object({ name: z.string(), nested: z.object({ n: z.number() }).optional() });
const rules = { maxBytes: 100 };
const parseError = (event: ReturnType<typeof apiEvent>) => {
  try {
    parseBody(event, schema, rules);
    return null;
  } catch (error) {
    return error as ApiError;
  }
};

let logs: CapturedLogs | undefined;
afterEach(() => {
  logs?.restore();
  logs = undefined;
});

describe('what a refused body is told', () => {
  it('names the limit, the media type, and what is wrong with the JSON', () => {
    expect(parseError(apiEvent({ body: { name: 'x'.repeat(200) } }))?.message).toBe(
      'The request body is larger than 100 bytes.',
    );
    expect(
      parseError(apiEvent({ body: { name: 'Vega' }, headers: { 'Content-Type': 'text/plain' } }))?.message,
    ).toBe('The request body must be sent as application/json.');
    expect(parseError(apiEvent({ body: '{"name":' }))).toMatchObject({
      code: 'invalid_json',
      message: 'The request body is not valid JSON.',
    });
    expect(parseError(apiEvent({ body: '[1]' }))?.message).toBe('The request body must be a JSON object.');
  });

  it('names the field, or the body itself when the whole value is wrong', () => {
    expect(parseError(apiEvent({ body: { name: 7 } }))?.message).toMatch(/^name: /);
    expect(parseError(apiEvent({ body: { name: 'a', nested: { n: 'x' } } }))?.message).toMatch(
      /^nested\.n: /,
    );
    const strict = z.object({ name: z.string() }).refine(() => false, 'never valid');
    expect(() => parseBody(apiEvent({ body: { name: 'a' } }), strict, rules)).toThrow('body: never valid');
  });

  it('is an ApiError by name, for the logs', () => {
    expect(new ApiError('forbidden', 'No.').name).toBe('ApiError');
  });
});

describe('what an endpoint answers and logs', () => {
  const failing = (error: unknown) =>
    defineEndpoint({
      route: '/api/fail',
      origins,
      schema: z.object({}).optional(),
      allowEmptyBody: true,
      handle: async () => {
        throw error;
      },
    });

  it('tells the learner something went wrong on our side, for an unexpected exception', async () => {
    const result = await failing(new Error('boom'))(apiEvent());
    expect(bodyOf<ErrorJson>(result).error.message).toBe(
      'Something went wrong on our side. Please try again.',
    );
  });

  it('names the route that takes POST only', async () => {
    const result = await failing(new Error('unused'))(apiEvent({ method: 'GET' }));
    expect(bodyOf<ErrorJson>(result).error.message).toBe('/api/fail accepts POST only.');
  });

  it('logs API Gateway’s request id, or a fresh one when there is none', async () => {
    logs = captureLogs();
    const event = apiEvent();
    event.requestContext = { requestId: 'req-123' };
    await failing(new ApiError('forbidden', 'No.'))(event);
    await failing(new ApiError('forbidden', 'No.'))({ ...apiEvent(), requestContext: null });

    const ids = logs.entries().map((entry) => entry.requestId);
    expect(ids[0]).toBe('req-123');
    expect(ids[1]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('quotes at most 200 characters of an unknown path', () => {
    const path = `/api/${'x'.repeat(300)}`;
    expect(bodyOf<ErrorJson>(notFound(path)).error.message).toBe(`No API endpoint at ${path.slice(0, 200)}.`);
  });

  it('answers 503 not_configured with its message when the configuration is invalid, and logs it', async () => {
    logs = captureLogs();
    const handler = handlerAtColdStart(
      '/api/broken',
      () => {
        throw new Error('MODEL_ID is missing');
      },
      {},
    );

    const result = await handler(apiEvent());

    expect(result.statusCode).toBe(503);
    expect(bodyOf<ErrorJson>(result).error.message).toBe('This endpoint is not configured on the server.');
    expect(logs.entries()).toEqual([
      expect.objectContaining({ level: 'error', message: 'configuration invalid', route: '/api/broken' }),
    ]);
  });
});

/** A response stream that records its writes and asks for a drain after the first, as a slow client does. */
class SlowStream extends Writable {
  readonly writes: Buffer[] = [];
  constructor() {
    super({ highWaterMark: 1 });
  }
  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: () => void): void {
    this.writes.push(Buffer.from(chunk));
    setTimeout(callback, 1);
  }
}
const passThrough = {
  HttpResponseStream: { from: (stream: Writable, _metadata: HttpResponseMetadata) => stream },
};
async function* pieces(...texts: string[]) {
  yield* texts;
}

describe('the Lambda streaming adapter', () => {
  it('writes a base64-encoded answer as its bytes', async () => {
    const stream = new SlowStream();
    await writeResult(
      {
        statusCode: 200,
        headers: {},
        body: Buffer.from('★ bytes').toString('base64'),
        isBase64Encoded: true,
      },
      stream,
      passThrough,
    );
    expect(Buffer.concat(stream.writes).toString('utf8')).toBe('★ bytes');
  });

  it('waits for the client to drain before writing the next piece, and keeps every piece in order', async () => {
    const stream = new SlowStream();
    const streamed: StreamedResult = { statusCode: 200, headers: {}, body: pieces('a', 'b', 'c') };
    await writeResult(streamed, stream, passThrough);
    expect(stream.writes.map(String)).toEqual(['a', 'b', 'c']);
  });

  it('pulls no more of the reply while a client that stopped reading has not drained', async () => {
    const stuck = new Writable({ highWaterMark: 1, write: () => undefined });
    let pulled = 0;
    async function* counted() {
      for (const text of ['a', 'b', 'c']) {
        pulled += 1;
        yield text;
      }
    }
    void writeResult({ statusCode: 200, headers: {}, body: counted() }, stuck, passThrough);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(pulled).toBe(1);
    stuck.destroy();
  });

  it('collects a stream into one buffered answer with its status and headers, and passes a buffered one as is', async () => {
    const streamed: StreamedResult = {
      statusCode: 200,
      headers: { 'Content-Type': 'application/x-ndjson' },
      body: pieces('{"a":1}\n', '{"b":2}\n'),
    };
    expect(await collectResult(streamed)).toEqual({
      statusCode: 200,
      headers: { 'Content-Type': 'application/x-ndjson' },
      body: '{"a":1}\n{"b":2}\n',
    });
    const plain = { statusCode: 404, headers: {}, body: '{}' };
    expect(await collectResult(plain)).toBe(plain);
  });

  it('answers as a buffered handler when the awslambda global lacks what streaming needs', async () => {
    const handler = async () => ({ statusCode: 200, headers: {}, body: pieces('x') }) as StreamedResult;
    for (const partial of [
      { streamifyResponse: () => 'streamed' },
      { HttpResponseStream: passThrough.HttpResponseStream },
    ]) {
      vi.stubGlobal('awslambda', partial);
      try {
        const exported = streamingLambda(handler);
        expect(exported).not.toBe('streamed');
        expect(await (exported as (event: unknown) => Promise<unknown>)(apiEvent())).toMatchObject({
          body: 'x',
        });
      } finally {
        vi.unstubAllGlobals();
      }
    }
  });
});
