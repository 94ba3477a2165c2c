import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ERROR_STATUS } from '#contract/errors';
import { ApiError } from '#lambdas/lib/api-error';
import { defineEndpoint, notFound } from '#lambdas/http/endpoint';
import { apiEvent, bodyOf } from '#support/events';
import { captureLogs, type CapturedLogs } from '#support/logs';

const greetingSchema = z.object({
  name: z.string().min(1).max(20),
  nested: z.object({ n: z.number() }).optional(),
});

const origins = { siteOrigins: [], hostHeader: 'host' };

const greet = defineEndpoint({
  route: '/api/greet',
  origins,
  schema: greetingSchema,
  maxBodyBytes: 200,
  handle: async (input) => ({ status: 200, body: { hello: input.name }, headers: { 'X-Astro-Test': 'yes' } }),
});

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

type ErrorJson = { error: { code: string; message: string } };

let logs: CapturedLogs | undefined;
afterEach(() => {
  logs?.restore();
  logs = undefined;
});

describe('defineEndpoint', () => {
  it('validates the body and answers the service’s result as JSON that is never cached', async () => {
    const result = await greet(apiEvent({ body: { name: 'Vega' } }));

    expect(result.statusCode).toBe(200);
    expect(bodyOf(result)).toEqual({ hello: 'Vega' });
    expect(result.headers).toEqual({
      'Content-Type': 'application/json',
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      'X-Astro-Test': 'yes',
    });
  });

  it('accepts a JSON content type with parameters, in any letter case', async () => {
    const result = await greet(
      apiEvent({ body: { name: 'Vega' }, headers: { 'Content-Type': 'Application/JSON; charset=UTF-8' } }),
    );

    expect(result.statusCode).toBe(200);
  });

  it('reads the content type whatever the header name’s case', async () => {
    const event = apiEvent({ body: { name: 'Vega' } });
    event.headers = { 'CONTENT-TYPE': 'application/json' };

    expect((await greet(event)).statusCode).toBe(200);
  });

  it('decodes a base64-encoded body', async () => {
    const result = await greet(apiEvent({ body: { name: 'Ωmega' }, base64: true }));

    expect(bodyOf(result)).toEqual({ hello: 'Ωmega' });
  });

  it.each([
    ['a missing content type', { headers: { 'Content-Type': '' } }],
    ['text/plain', { headers: { 'Content-Type': 'text/plain' } }],
    ['a form', { headers: { 'Content-Type': 'application/x-www-form-urlencoded' } }],
    ['a lookalike', { headers: { 'Content-Type': 'application/jsonp' } }],
  ])('refuses %s with 415 unsupported_media_type', async (_name, init) => {
    const result = await greet(apiEvent({ body: { name: 'Vega' }, ...init }));

    expect(result.statusCode).toBe(415);
    expect(bodyOf<ErrorJson>(result).error.code).toBe('unsupported_media_type');
  });

  it.each([
    ['broken JSON', '{"name": '],
    ['an array', '[1,2]'],
    ['a string', '"Vega"'],
    ['null', 'null'],
    ['a number', '42'],
    ['no body', undefined],
    ['a blank body', '   '],
  ])('refuses %s with 400 invalid_json', async (_name, body) => {
    const result = await greet(apiEvent({ body }));

    expect(result.statusCode).toBe(400);
    expect(bodyOf<ErrorJson>(result).error.code).toBe('invalid_json');
  });

  it('names the failing field in 400 invalid_request without echoing what was sent', async () => {
    const result = await greet(apiEvent({ body: { name: 'x'.repeat(21) + 'SECRETVALUE' } }));

    expect(result.statusCode).toBe(400);
    const { error } = bodyOf<ErrorJson>(result);
    expect(error.code).toBe('invalid_request');
    expect(error.message).toMatch(/^name: /);
    expect(error.message).not.toContain('SECRETVALUE');
  });

  it('names a nested field by its path', async () => {
    const result = await greet(apiEvent({ body: { name: 'Vega', nested: { n: 'one' } } }));

    expect(bodyOf<ErrorJson>(result).error.message).toMatch(/^nested\.n: /);
  });

  it('ignores prototype keys instead of letting them reach the service', async () => {
    const result = await greet(apiEvent({ body: '{"name":"Vega","__proto__":{"polluted":true}}' }));

    expect(result.statusCode).toBe(200);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses a body over the limit with 413, counting decoded bytes', async () => {
    const plain = await greet(apiEvent({ body: { name: 'Vega', pad: 'é'.repeat(100) } }));
    const base64 = await greet(apiEvent({ body: { name: 'Vega', pad: 'x'.repeat(190) }, base64: true }));

    expect(plain.statusCode).toBe(413);
    expect(bodyOf<ErrorJson>(plain).error.code).toBe('payload_too_large');
    expect(base64.statusCode).toBe(413);
  });

  it.each(['GET', 'PUT', 'DELETE', 'OPTIONS', 'HEAD'])(
    'answers %s with 405 and Allow: POST',
    async (method) => {
      const result = await greet(apiEvent({ method, body: { name: 'Vega' } }));

      expect(result.statusCode).toBe(405);
      expect(result.headers?.Allow).toBe('POST');
      expect(bodyOf<ErrorJson>(result).error.code).toBe('method_not_allowed');
    },
  );

  it('answers a typed service error with its contract status and message', async () => {
    const result = await failing(new ApiError('content_filtered', 'Let us talk about the stars instead.'))(
      apiEvent(),
    );

    expect(result.statusCode).toBe(ERROR_STATUS.content_filtered);
    expect(bodyOf(result)).toEqual({
      error: { code: 'content_filtered', message: 'Let us talk about the stars instead.' },
    });
  });

  it('answers an unexpected exception with 500 internal_error and nothing of the exception', async () => {
    const error = new Error('db password=hunter2 at /srv/app.js:12');

    const result = await failing(error)(apiEvent());

    expect(result.statusCode).toBe(500);
    expect(bodyOf<ErrorJson>(result).error.code).toBe('internal_error');
    expect(result.body).not.toContain('hunter2');
    expect(result.body).not.toContain('app.js');
  });

  it('answers a thrown non-error value with 500 as well', async () => {
    const result = await failing('a string')(apiEvent());

    expect(result.statusCode).toBe(500);
  });

  it('logs one line per request with route, method, status, duration and error code', async () => {
    logs = captureLogs();

    await greet(apiEvent({ body: { name: 'Vega' } }));
    await greet(apiEvent({ body: 'nope' }));

    const requests = logs.entries().filter((entry) => entry.message === 'request');
    expect(requests).toEqual([
      expect.objectContaining({
        route: '/api/greet',
        method: 'POST',
        status: 200,
        durationMs: expect.any(Number),
      }),
      expect.objectContaining({ route: '/api/greet', status: 400, errorCode: 'invalid_json' }),
    ]);
    expect(logs.lines.join('\n')).not.toContain('Vega');
  });

  it('logs a 5xx with the cause’s name for operators, once', async () => {
    logs = captureLogs();

    await failing(new ApiError('upstream_error', 'Try again.', { cause: new TypeError('socket hang up') }))(
      apiEvent(),
    );

    expect(logs.entries().filter((entry) => entry.level === 'error')).toEqual([
      expect.objectContaining({ route: '/api/fail', code: 'upstream_error', errorName: 'TypeError' }),
    ]);
  });
});

describe('what every endpoint does on its own, inside Lambda', () => {
  const padded = defineEndpoint({
    route: '/api/padded',
    origins,
    schema: z.object({ pad: z.string() }),
    handle: async (input) => ({ status: 200, body: { length: input.pad.length } }),
  });
  /** A JSON body of exactly `bytes` bytes. */
  const jsonOfBytes = (bytes: number) => JSON.stringify({ pad: 'x'.repeat(bytes - '{"pad":""}'.length) });

  it('refuses a body over 64 KiB with 413 when the endpoint sets no limit of its own', async () => {
    // The figure is written out: the Lambda's limit must not follow the constant if it is raised.
    const limit = 64 * 1024;

    const atLimit = await padded(apiEvent({ body: jsonOfBytes(limit) }));
    const over = await padded(apiEvent({ body: jsonOfBytes(limit + 1) }));

    expect(atLimit.statusCode).toBe(200);
    expect(over.statusCode).toBe(413);
    expect(bodyOf<ErrorJson>(over).error.code).toBe('payload_too_large');
  });

  it('logs an unexpected exception (500 internal_error) for operators, and no error line for a 4xx', async () => {
    logs = captureLogs();

    await failing(new TypeError('Cannot read properties of undefined'))(apiEvent());
    await failing(new ApiError('invalid_request', 'name: too long'))(apiEvent());

    expect(logs.entries().filter((entry) => entry.level === 'error')).toEqual([
      expect.objectContaining({
        message: 'request failed',
        route: '/api/fail',
        code: 'internal_error',
        errorName: 'TypeError',
      }),
    ]);
  });
});

describe('notFound', () => {
  it('answers 404 not_found as error JSON', () => {
    const result = notFound('/api/nothing');

    expect(result.statusCode).toBe(404);
    expect(bodyOf(result)).toEqual({
      error: { code: 'not_found', message: expect.stringContaining('/api/nothing') },
    });
  });
});
