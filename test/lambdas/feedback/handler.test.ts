import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  FEEDBACK_HISTORY_MAX_MESSAGES,
  FEEDBACK_IMAGE_URL_MAX_CHARS,
  FEEDBACK_MAX_BODY_BYTES,
  FEEDBACK_MESSAGE_MAX_CHARS,
  FEEDBACK_SUGGESTION_MAX_CHARS,
  MAX_BODY_BYTES,
  MESSAGE_ID_MAX_CHARS,
} from '#contract/limits';
import { API_ROUTES } from '#contract/routes';
import type { ChatMessage, FeedbackRequest } from '#contract/schemas';
import { createFeedbackHandler } from '#lambdas/feedback/handler';
import type { ApiHandler } from '#lambdas/http/endpoint';
import { startTestDynamo, type TestDynamo } from '#support/dynalite';
import { apiEvent, bodyOf } from '#support/events';
import { feedbackBody } from '#support/feedback';
import { captureLogs, type CapturedLogs } from '#support/logs';

let dynamo: TestDynamo;
let handler: ApiHandler;

beforeAll(async () => {
  dynamo = await startTestDynamo();
  handler = createFeedbackHandler({ FEEDBACK_TABLE: dynamo.tableName, DYNAMODB_ENDPOINT: dynamo.endpoint });
});
afterAll(async () => {
  await dynamo.close();
});

const post = (body: unknown, init: Parameters<typeof apiEvent>[0] = {}) =>
  handler(apiEvent({ path: API_ROUTES.feedback, body, ...init }));

describe('POST /api/feedback', () => {
  it('stores new feedback with its timestamp and answers 201 stored:true', async () => {
    const body = feedbackBody();

    const result = await post(body);

    expect(result.statusCode).toBe(201);
    expect(bodyOf(result)).toEqual({ stored: true });
    expect(result.headers).toMatchObject({ 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
    const item = await dynamo.getItem(body.conversationId);
    expect(item).toMatchObject({
      conversationId: body.conversationId,
      helpfulness: 5,
      clarity: 4,
      suggestion: body.suggestion,
      language: 'en-US',
      chatHistory: body.chatHistory,
      messageCount: 7,
      userMessageCount: 3,
    });
    expect(new Date(String(item?.createdAt)).toISOString()).toBe(item?.createdAt);
  });

  it('answers a repeat for the same conversation with 200 stored:false and keeps the first item unchanged', async () => {
    const first = feedbackBody({ helpfulness: 2, suggestion: 'first' });
    await post(first);
    const before = await dynamo.getItem(first.conversationId);

    const repeat = await post({ ...first, helpfulness: 5, suggestion: 'second' });

    expect(repeat.statusCode).toBe(200);
    expect(bodyOf(repeat)).toEqual({ stored: false });
    expect(await dynamo.getItem(first.conversationId)).toEqual(before);
    expect(before).toMatchObject({ helpfulness: 2, suggestion: 'first' });
  });

  it('keeps the stars earned in the conversation, and stores none for a web app that sends none', async () => {
    const withStars = feedbackBody({ starsEarned: 4 });
    const without = feedbackBody();

    expect((await post(withStars)).statusCode).toBe(201);
    expect((await post(without)).statusCode).toBe(201);

    expect(await dynamo.getItem(withStars.conversationId)).toMatchObject({ starsEarned: 4 });
    expect(await dynamo.getItem(without.conversationId)).not.toHaveProperty('starsEarned');
  });

  it('refuses stars that are not a whole count within the limit, storing nothing', async () => {
    for (const starsEarned of [-1, 2.5, FEEDBACK_HISTORY_MAX_MESSAGES + 1, '3']) {
      const body = { ...feedbackBody(), starsEarned };
      const result = await post(body);
      expect(result.statusCode, String(starsEarned)).toBe(400);
      expect(bodyOf(result)).toMatchObject({ error: { code: 'invalid_request' } });
      expect(await dynamo.getItem(body.conversationId)).toBeUndefined();
    }
  });

  it('stores an empty suggestion and an empty history', async () => {
    const body = feedbackBody({ suggestion: '', chatHistory: [] });

    const result = await post(body);

    expect(result.statusCode).toBe(201);
    expect(await dynamo.getItem(body.conversationId)).toMatchObject({ suggestion: '', chatHistory: [] });
  });

  it('accepts a body between the general 64 KiB limit and the feedback limit', async () => {
    const chatHistory = Array.from({ length: 40 }, (_, index) => ({
      id: index,
      text: 'x'.repeat(FEEDBACK_MESSAGE_MAX_CHARS),
      sender: 'user' as const,
    }));
    const body = feedbackBody({ chatHistory });
    expect(JSON.stringify(body).length).toBeGreaterThan(MAX_BODY_BYTES);

    expect((await post(body)).statusCode).toBe(201);
  });

  it('stores the largest body the contract allows within DynamoDB’s 400 KB item limit', async () => {
    // Three UTF-8 bytes per character is the most a capped string can cost per JSON byte sent.
    const wide = (length: number) => '星'.repeat(length);
    const message = (index: number): ChatMessage => ({
      id: `loading-${String(index).padStart(MESSAGE_ID_MAX_CHARS - 8, '0')}`,
      text: wide(FEEDBACK_MESSAGE_MAX_CHARS),
      sender: 'astro',
      isLoading: false,
      imageUrl: `/images/${'a'.repeat(FEEDBACK_IMAGE_URL_MAX_CHARS - 8)}`,
    });
    const body: FeedbackRequest = feedbackBody({
      suggestion: wide(FEEDBACK_SUGGESTION_MAX_CHARS),
      chatHistory: [],
    });
    const size = (value: FeedbackRequest) => Buffer.byteLength(JSON.stringify(value));
    const fits = (next: ChatMessage) =>
      size({ ...body, chatHistory: [...body.chatHistory, next] }) <= FEEDBACK_MAX_BODY_BYTES;
    while (
      body.chatHistory.length < FEEDBACK_HISTORY_MAX_MESSAGES &&
      fits(message(body.chatHistory.length))
    ) {
      body.chatHistory.push(message(body.chatHistory.length));
    }
    // Fill what is left with short messages whose text takes the remaining bytes exactly.
    for (;;) {
      const filler: ChatMessage = { id: body.chatHistory.length, text: '', sender: 'user' };
      const gap = FEEDBACK_MAX_BODY_BYTES - size({ ...body, chatHistory: [...body.chatHistory, filler] });
      if (gap < 0 || body.chatHistory.length >= FEEDBACK_HISTORY_MAX_MESSAGES) break;
      const bytes = Math.min(gap, 3 * FEEDBACK_MESSAGE_MAX_CHARS);
      body.chatHistory.push({ ...filler, text: wide(Math.floor(bytes / 3)) + 'a'.repeat(bytes % 3) });
      if (bytes === gap) break;
    }
    expect(size(body)).toBe(FEEDBACK_MAX_BODY_BYTES);

    const result = await post(body);

    expect(result.statusCode).toBe(201);
    const item = await dynamo.getItem(body.conversationId);
    expect(item?.chatHistory).toEqual(body.chatHistory);
  });

  it('relies on an item limit that dynalite enforces like DynamoDB', async () => {
    const put = dynamo.documents.send(
      new PutCommand({
        TableName: dynamo.tableName,
        Item: { conversationId: crypto.randomUUID(), suggestion: 'x'.repeat(400 * 1024) },
      }),
    );

    await expect(put).rejects.toThrow(/size/i);
  });

  it('refuses a body over the feedback limit with 413 before storing anything', async () => {
    const body = feedbackBody({ suggestion: 'x'.repeat(FEEDBACK_MAX_BODY_BYTES) });

    const result = await post(body);

    expect(result.statusCode).toBe(413);
    expect(bodyOf(result)).toEqual({ error: { code: 'payload_too_large', message: expect.any(String) } });
    expect(await dynamo.getItem(body.conversationId)).toBeUndefined();
  });

  it.each([
    ['helpfulness', { helpfulness: 0 }],
    ['helpfulness', { helpfulness: 6 }],
    ['clarity', { clarity: 2.5 }],
    ['clarity', { clarity: '4' }],
    ['suggestion', { suggestion: 'x'.repeat(FEEDBACK_SUGGESTION_MAX_CHARS + 1) }],
    ['conversationId', { conversationId: 'not-a-uuid' }],
    ['language', { language: 'en-GB' }],
    [
      'chatHistory',
      { chatHistory: Array.from({ length: 201 }, (_, id) => ({ id, text: '', sender: 'user' })) },
    ],
    ['chatHistory.0.sender', { chatHistory: [{ id: 1, text: 'hi', sender: 'system' }] }],
    ['chatHistory.0.text', { chatHistory: [{ id: 1, text: 'x'.repeat(4001), sender: 'user' }] }],
    ['chatHistory.0.id', { chatHistory: [{ id: -1, text: 'hi', sender: 'user' }] }],
  ])('refuses an invalid %s with 400 invalid_request naming the field', async (field, override) => {
    const body = { ...feedbackBody(), ...override };

    const result = await post(body);

    expect(result.statusCode).toBe(400);
    const error = bodyOf<{ error: { code: string; message: string } }>(result).error;
    expect(error.code).toBe('invalid_request');
    expect(error.message.startsWith(`${field}:`)).toBe(true);
    expect(await dynamo.getItem(body.conversationId)).toBeUndefined();
  });

  it('refuses a body without a required field', async () => {
    const { clarity: _clarity, ...body } = feedbackBody();

    const result = await post(body);

    expect(bodyOf(result)).toMatchObject({
      error: { code: 'invalid_request', message: expect.stringMatching(/^clarity:/) },
    });
  });

  it('refuses text that is not JSON with 400 invalid_json', async () => {
    const result = await post('{"helpfulness": 5,');

    expect(result.statusCode).toBe(400);
    expect(bodyOf(result)).toMatchObject({ error: { code: 'invalid_json' } });
  });

  it('refuses a body that is not sent as JSON with 415', async () => {
    const result = await post(JSON.stringify(feedbackBody()), { headers: { 'Content-Type': 'text/plain' } });

    expect(result.statusCode).toBe(415);
    expect(bodyOf(result)).toMatchObject({ error: { code: 'unsupported_media_type' } });
  });

  it('reads a base64-encoded body as API Gateway delivers binary payloads', async () => {
    const body = feedbackBody();

    const result = await post(body, { base64: true });

    expect(result.statusCode).toBe(201);
    expect(await dynamo.getItem(body.conversationId)).toMatchObject({ conversationId: body.conversationId });
  });

  it('answers any method but POST with 405 and an Allow header', async () => {
    const result = await handler(apiEvent({ method: 'GET', path: API_ROUTES.feedback }));

    expect(result.statusCode).toBe(405);
    expect(result.headers).toMatchObject({ Allow: 'POST' });
    expect(bodyOf(result)).toMatchObject({ error: { code: 'method_not_allowed' } });
  });
});

describe('POST /api/feedback under concurrency', () => {
  it('stores all of 50 concurrent submissions for different conversations', async () => {
    const bodies = Array.from({ length: 50 }, (_, index) =>
      feedbackBody({ suggestion: `concurrent ${index}` }),
    );

    const results = await Promise.all(bodies.map((body) => post(body)));

    expect(results.map((result) => result.statusCode)).toEqual(bodies.map(() => 201));
    const ids = new Set(bodies.map((body) => body.conversationId));
    const stored = (await dynamo.scanAll()).filter((item) => ids.has(String(item.conversationId)));
    expect(stored).toHaveLength(50);
    for (const body of bodies) {
      expect(stored.find((item) => item.conversationId === body.conversationId)?.suggestion).toBe(
        body.suggestion,
      );
    }
  });

  it('stores exactly one item for 20 concurrent repeats of one conversation: the one answered 201', async () => {
    const conversationId = crypto.randomUUID();
    const bodies = Array.from({ length: 20 }, (_, index) =>
      feedbackBody({ conversationId, suggestion: `try ${index}` }),
    );

    const results = await Promise.all(bodies.map((body) => post(body)));

    const created = results.flatMap((result, index) => (result.statusCode === 201 ? [bodies[index]] : []));
    expect(created).toHaveLength(1);
    expect(results.filter((result) => result.statusCode === 200).map((result) => bodyOf(result))).toEqual(
      Array.from({ length: 19 }, () => ({ stored: false })),
    );
    const stored = (await dynamo.scanAll()).filter((item) => item.conversationId === conversationId);
    expect(stored).toHaveLength(1);
    expect(stored[0]?.suggestion).toBe(created[0]?.suggestion);
  });
});

describe('POST /api/feedback logging', () => {
  let logs: CapturedLogs;
  afterEach(() => logs.restore());

  it('logs one line per request with route, status and duration, and never the body', async () => {
    logs = captureLogs();
    const body = feedbackBody({ suggestion: 'a private remark 7f3a' });

    await post(body);

    const requests = logs.entries().filter((entry) => entry.message === 'request');
    expect(requests).toEqual([
      expect.objectContaining({ route: API_ROUTES.feedback, status: 201, durationMs: expect.any(Number) }),
    ]);
    expect(logs.lines.join('\n')).not.toContain('private remark');
    expect(logs.lines.join('\n')).not.toContain('Why is Mars red');
  });
});

describe('POST /api/feedback: one item per conversation, kept for a bounded time', () => {
  it('stores the conversationId in lower case, so an upper-case repeat is a repeat', async () => {
    const body = feedbackBody({ suggestion: 'lower first' });
    const upper = {
      ...feedbackBody({ suggestion: 'upper repeat' }),
      conversationId: body.conversationId.toUpperCase(),
    };

    const first = await post({ ...body, conversationId: body.conversationId.toUpperCase() });
    const repeat = await post({ ...upper, conversationId: body.conversationId });

    expect(first.statusCode).toBe(201);
    expect(repeat.statusCode).toBe(200);
    expect(bodyOf(repeat)).toEqual({ stored: false });
    expect(await dynamo.getItem(body.conversationId.toUpperCase())).toBeUndefined();
    expect(await dynamo.getItem(body.conversationId)).toMatchObject({ suggestion: 'lower first' });
  });

  it('gives each item a TTL (epoch seconds) the configured number of days after it arrived', async () => {
    const shortLived = createFeedbackHandler({
      FEEDBACK_TABLE: dynamo.tableName,
      DYNAMODB_ENDPOINT: dynamo.endpoint,
      FEEDBACK_RETENTION_DAYS: '30',
    });
    const body = feedbackBody();

    await shortLived(apiEvent({ path: API_ROUTES.feedback, body }));

    const item = await dynamo.getItem(body.conversationId);
    const createdAt = Date.parse(String(item?.createdAt)) / 1000;
    expect(item?.expiresAt).toBe(Math.floor(createdAt) + 30 * 24 * 60 * 60);
  });

  it('keeps items 400 days by default', async () => {
    const body = feedbackBody();

    await post(body);

    const item = await dynamo.getItem(body.conversationId);
    const createdAt = Math.floor(Date.parse(String(item?.createdAt)) / 1000);
    expect(item?.expiresAt).toBe(createdAt + 400 * 24 * 60 * 60);
  });
});
