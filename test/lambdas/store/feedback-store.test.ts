import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDynamoClient, FEEDBACK_TTL_ATTRIBUTE, FeedbackStore } from '#lambdas/store/feedback-store';
import { startTestDynamo, type TestDynamo } from '#support/dynalite';
import { feedbackBody } from '#support/feedback';

// The store on its own, with its clock injected: what the handler tests can only check loosely (that
// createdAt is some ISO time) is checked here to the second.

let dynamo: TestDynamo;
let store: (options?: ConstructorParameters<typeof FeedbackStore>[2]) => FeedbackStore;

beforeAll(async () => {
  dynamo = await startTestDynamo('astro-feedback-store-test');
  const client = createDynamoClient({
    tableName: dynamo.tableName,
    region: 'us-east-1',
    endpoint: dynamo.endpoint,
    timeoutMs: 5_000,
    retentionDays: 400,
  });
  store = (options) => new FeedbackStore(client, dynamo.tableName, options);
});
afterAll(async () => {
  await dynamo.close();
});

describe('the feedback store', () => {
  it('stamps each item with the time it arrived, and deletes it retentionDays later', async () => {
    const arrived = new Date('2026-03-14T15:09:26.535Z');
    const body = feedbackBody();

    expect(await store({ now: () => arrived, retentionDays: 30 }).save(body)).toEqual({ stored: true });

    const item = await dynamo.getItem(body.conversationId);
    expect(item?.createdAt).toBe('2026-03-14T15:09:26.535Z');
    expect(item?.expiresAt).toBe(Math.floor(arrived.getTime() / 1000) + 30 * 86_400);
    // The attribute the table's TTL reads (infra/constructs/feedback-table.ts names the same).
    expect(FEEDBACK_TTL_ATTRIBUTE).toBe('expiresAt');
  });

  it('uses the wall clock and keeps items 400 days when nothing is injected', async () => {
    const body = feedbackBody();
    const before = Date.now();

    await store().save(body);

    const item = await dynamo.getItem(body.conversationId);
    const createdAt = Date.parse(String(item?.createdAt));
    expect(createdAt).toBeGreaterThanOrEqual(before);
    expect(createdAt).toBeLessThanOrEqual(Date.now());
    expect(item?.expiresAt).toBe(Math.floor(createdAt / 1000) + 400 * 86_400);
  });

  it('counts the messages and the learner’s messages for reports, and leaves absent fields out', async () => {
    const body = feedbackBody();

    await store().save(body);

    const item = await dynamo.getItem(body.conversationId);
    expect(item).toMatchObject({ messageCount: 7, userMessageCount: 3 });
    const history = item?.chatHistory as Record<string, unknown>[];
    expect(Object.keys(history[0] ?? {}).sort()).toEqual(['id', 'sender', 'text']);
  });

  it('keeps what the learner sent first: a repeat, in any letter case, is not stored', async () => {
    const first = feedbackBody({ suggestion: 'first' });
    const repeat = { ...first, conversationId: first.conversationId.toUpperCase(), suggestion: 'second' };

    expect(await store().save(first)).toEqual({ stored: true });
    expect(await store().save(repeat)).toEqual({ stored: false });

    expect((await dynamo.getItem(first.conversationId))?.suggestion).toBe('first');
  });
});
