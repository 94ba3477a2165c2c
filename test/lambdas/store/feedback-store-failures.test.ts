import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { endpointOverride } from '#lambdas/config';
import { ApiError } from '#lambdas/lib/api-error';
import { FeedbackStore } from '#lambdas/store/feedback-store';
import { ensureFeedbackTable } from '#lambdas/store/feedback-table';
import { feedbackBody } from '#support/feedback';
import {
  sendJson,
  startFakeServer,
  type FakeRoute,
  type FakeServer,
  type RecordedRequest,
} from '#support/loopback';

// DynamoDB's answers the feedback store and the table helper must read right, from a loopback fake that
// speaks DynamoDB's JSON protocol to the real SDK client (one attempt, so no backoff slows the test).

const JSON_1_0 = { 'Content-Type': 'application/x-amz-json-1.0' };
const operation = (request: RecordedRequest) => String(request.headers['x-amz-target']).split('.')[1];
const failure = (type: string, status = 400) => ({
  status,
  body: { __type: `com.amazonaws.dynamodb.v20120810#${type}`, message: `upstream detail for ${type}` },
});

let fake: FakeServer;
/** The answers to the next requests, in order; the last one repeats. */
let answers: { status: number; body: unknown }[];
const inTurn: FakeRoute = (_request, response) => {
  const next = answers.length > 1 ? answers.shift() : answers[0];
  sendJson(response, next?.status ?? 500, next?.body ?? {}, JSON_1_0);
};
beforeAll(async () => {
  fake = await startFakeServer(inTurn);
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  answers = [];
});

const client = () =>
  new DynamoDBClient({ region: 'us-east-1', maxAttempts: 1, ...endpointOverride(fake.url) });
const save = () => new FeedbackStore(client(), 'astro-feedback').save(feedbackBody());

describe('feedback storage failures, as the learner is told', () => {
  it.each([
    'ProvisionedThroughputExceededException',
    'ThrottlingException',
    'RequestLimitExceeded',
    'LimitExceededException',
  ])(
    '%s is 429 rate_limited, asking the learner to try again, with DynamoDB’s error as the cause',
    async (type) => {
      answers = [failure(type)];

      const error = await save().catch((caught: unknown) => caught);

      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({
        code: 'rate_limited',
        status: 429,
        message: 'Too many feedback submissions right now. Please try again.',
        cause: expect.objectContaining({ name: type }),
      });
    },
  );

  it('any other failure is 502 upstream_error, with the cause kept for the log and never in the message', async () => {
    answers = [failure('InternalServerError', 500)];

    const error = await save().catch((caught: unknown) => caught);

    expect(error).toMatchObject({
      code: 'upstream_error',
      message: 'The feedback could not be stored. Please try again.',
      cause: expect.objectContaining({ name: 'InternalServerError' }),
    });
  });

  it('a timeout is 504 upstream_timeout with its own message', async () => {
    const store = new FeedbackStore(
      new DynamoDBClient({
        region: 'us-east-1',
        maxAttempts: 1,
        ...endpointOverride(fake.url),
        requestHandler: { requestTimeout: 100, throwOnRequestTimeout: true },
      }),
      'astro-feedback',
    );
    fake.respondWith(() => undefined);
    try {
      const error = await store.save(feedbackBody()).catch((caught: unknown) => caught);
      expect(error).toMatchObject({
        code: 'upstream_timeout',
        status: 504,
        message: 'Storing the feedback took too long. Please try again.',
      });
    } finally {
      fake.respondWith(inTurn);
    }
  });

  it('drops optional fields that are present but undefined instead of refusing to write', async () => {
    answers = [{ status: 200, body: {} }];
    const body = feedbackBody();
    const withUndefined = {
      ...body,
      chatHistory: [
        { id: 1, text: 'Hi', sender: 'user' as const, isLoading: undefined, imageUrl: undefined },
      ],
    };

    await expect(new FeedbackStore(client(), 'astro-feedback').save(withUndefined)).resolves.toEqual({
      stored: true,
    });
    const put = JSON.parse(fake.requests[0]?.body.toString() ?? '{}') as {
      Item: { chatHistory: { L: { M: Record<string, unknown> }[] }; expiresAt: unknown };
    };
    expect(Object.keys(put.Item.chatHistory.L[0]?.M ?? {}).sort()).toEqual(['id', 'sender', 'text']);
    expect(put.Item.expiresAt).toEqual({ N: expect.stringMatching(/^\d+$/) });
  });
});

describe('making sure the feedback table exists (local server and tests)', () => {
  const table = (status: string) => ({
    status: 200,
    body: { Table: { TableName: 't', TableStatus: status } },
  });

  it('creates the table, then waits until DynamoDB says it is ACTIVE', async () => {
    answers = [{ status: 200, body: {} }, table('CREATING'), table('CREATING'), table('ACTIVE')];

    await ensureFeedbackTable(client(), 'astro-feedback');

    expect(fake.requests.map(operation)).toEqual([
      'CreateTable',
      'DescribeTable',
      'DescribeTable',
      'DescribeTable',
    ]);
    const created = JSON.parse(fake.requests[0]?.body.toString() ?? '{}') as Record<string, unknown>;
    expect(created).toMatchObject({
      TableName: 'astro-feedback',
      KeySchema: [{ AttributeName: 'conversationId', KeyType: 'HASH' }],
      BillingMode: 'PAY_PER_REQUEST',
    });
  });

  it('takes a table that already exists, and one not yet visible to DescribeTable', async () => {
    answers = [failure('ResourceInUseException'), failure('ResourceNotFoundException'), table('ACTIVE')];

    await ensureFeedbackTable(client(), 'astro-feedback');

    expect(fake.requests.map(operation)).toEqual(['CreateTable', 'DescribeTable', 'DescribeTable']);
  });

  it('passes on any other failure, of the create or of the wait', async () => {
    answers = [failure('AccessDeniedException')];
    await expect(ensureFeedbackTable(client(), 'astro-feedback')).rejects.toMatchObject({
      name: 'AccessDeniedException',
    });

    answers = [{ status: 200, body: {} }, failure('AccessDeniedException')];
    await expect(ensureFeedbackTable(client(), 'astro-feedback')).rejects.toMatchObject({
      name: 'AccessDeniedException',
    });
  });
});
