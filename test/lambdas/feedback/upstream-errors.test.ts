import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { endpointOverride } from '#lambdas/config';
import { API_ROUTES } from '#contract/routes';
import { createFeedbackHandler } from '#lambdas/feedback/handler';
import { ApiError } from '#lambdas/lib/api-error';
import { FeedbackStore } from '#lambdas/store/feedback-store';
import { apiEvent, bodyOf } from '#support/events';
import { feedbackBody } from '#support/feedback';
import { hang, sendJson, startFakeServer, type FakeServer } from '#support/loopback';
import { captureLogs } from '#support/logs';

/** A DynamoDB error answer in the service's JSON protocol. */
function dynamoError(type: string, status: number) {
  return (_request: unknown, response: Parameters<typeof sendJson>[0]) =>
    sendJson(
      response,
      status,
      { __type: `com.amazonaws.dynamodb.v20120810#${type}`, message: `upstream detail 4b1d for ${type}` },
      { 'Content-Type': 'application/x-amz-json-1.0' },
    );
}

let fake: FakeServer;
beforeAll(async () => {
  fake = await startFakeServer(dynamoError('InternalServerError', 500));
});
afterAll(async () => {
  await fake.close();
});
afterEach(() => {
  fake.requests.length = 0;
});

const handlerFor = (extra: Record<string, string> = {}) =>
  createFeedbackHandler({ FEEDBACK_TABLE: 'astro-feedback', DYNAMODB_ENDPOINT: fake.url, ...extra });

/** A store whose client gives up after one attempt, so the throttling answer arrives without backoff. */
const singleAttemptStore = () =>
  new FeedbackStore(
    new DynamoDBClient({ region: 'us-east-1', maxAttempts: 1, ...endpointOverride(fake.url) }),
    'astro-feedback',
  );

describe('feedback storage failures', () => {
  it('answers 502 upstream_error when DynamoDB fails, without its message', async () => {
    fake.respondWith(dynamoError('InternalServerError', 500));
    const logs = captureLogs();

    const result = await handlerFor()(apiEvent({ path: API_ROUTES.feedback, body: feedbackBody() }));
    logs.restore();

    expect(result.statusCode).toBe(502);
    expect(bodyOf(result)).toMatchObject({ error: { code: 'upstream_error' } });
    expect(result.body).not.toContain('4b1d');
    expect(fake.requests[0]?.headers['x-amz-target']).toBe('DynamoDB_20120810.PutItem');
    expect(logs.entries()).toContainEqual(
      expect.objectContaining({ level: 'error', code: 'upstream_error', errorName: 'InternalServerError' }),
    );
  });

  it.each(['ProvisionedThroughputExceededException', 'ThrottlingException'])(
    'maps DynamoDB throttling (%s) to 429 rate_limited',
    async (type) => {
      fake.respondWith(dynamoError(type, 400));

      const saving = singleAttemptStore().save(feedbackBody());

      await expect(saving).rejects.toMatchObject({ code: 'rate_limited', status: 429 });
    },
  );

  it('answers 429 through the handler once the client’s own retries are spent', async () => {
    fake.respondWith(dynamoError('ProvisionedThroughputExceededException', 400));

    const result = await handlerFor()(apiEvent({ path: API_ROUTES.feedback, body: feedbackBody() }));

    expect(result.statusCode).toBe(429);
    expect(bodyOf(result)).toMatchObject({ error: { code: 'rate_limited' } });
    expect(fake.requests.length).toBeGreaterThan(1);
  });

  it('answers 504 upstream_timeout when DynamoDB does not answer in time', async () => {
    fake.respondWith(hang);

    const result = await handlerFor({ DYNAMODB_TIMEOUT_MS: '150' })(
      apiEvent({ path: API_ROUTES.feedback, body: feedbackBody() }),
    );

    expect(result.statusCode).toBe(504);
    expect(bodyOf(result)).toMatchObject({ error: { code: 'upstream_timeout' } });
  });

  it('reports a refused write as an error, never as stored', async () => {
    fake.respondWith(dynamoError('ValidationException', 400));

    const saving = singleAttemptStore().save(feedbackBody());

    await expect(saving).rejects.toBeInstanceOf(ApiError);
    await expect(saving).rejects.toMatchObject({ code: 'upstream_error' });
  });
});
