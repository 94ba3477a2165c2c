import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '#lambdas/config';
import { handlerAtColdStart } from '#lambdas/http/cold-start';
import type { ApiHandler } from '#lambdas/http/endpoint';
import { jsonResponse } from '#lambdas/http/response';
import { apiEvent, bodyOf } from '#support/events';
import { captureLogs, type CapturedLogs } from '#support/logs';

const working: ApiHandler = async () => jsonResponse(200, { ok: true });

let logs: CapturedLogs | undefined;
afterEach(() => {
  logs?.restore();
  logs = undefined;
});

describe('handlerAtColdStart', () => {
  it('builds the handler while the module loads inside Lambda', () => {
    let builds = 0;

    handlerAtColdStart('/api/x', () => (builds++, working), { AWS_LAMBDA_FUNCTION_NAME: 'astro-chat' });

    expect(builds).toBe(1);
  });

  it('builds on first use outside Lambda, once', async () => {
    let builds = 0;
    const handler = handlerAtColdStart('/api/x', () => (builds++, working), {});
    const before = builds;

    await handler(apiEvent());
    await handler(apiEvent());

    expect(before).toBe(0);
    expect(builds).toBe(1);
  });

  it('answers 503 not_configured when the configuration is invalid, and logs the variable’s name', async () => {
    logs = captureLogs();
    const handler = handlerAtColdStart(
      '/api/feedback',
      () => {
        throw new ConfigError('Invalid feedback configuration: FEEDBACK_TABLE (required)');
      },
      { AWS_LAMBDA_FUNCTION_NAME: 'astro-feedback' },
    );

    const result = await handler(apiEvent());

    expect(result.statusCode).toBe(503);
    expect(bodyOf(result)).toMatchObject({ error: { code: 'not_configured' } });
    expect(result.body).not.toContain('FEEDBACK_TABLE');
    expect(logs.entries()).toContainEqual(
      expect.objectContaining({
        level: 'error',
        route: '/api/feedback',
        errorMessage: expect.stringContaining('FEEDBACK_TABLE'),
      }),
    );
  });
});
