/**
 * The cap on chat (docs/behaviour.md §12.19): the real chat handler, the Bedrock fake reporting usage and the
 * spend ledger in dynalite. Each paid reply is charged its tokens at the model's price; once the day's
 * budget, the caller's share of it or the conversation's paid replies are used up, the offline tutor
 * answers (`X-Astro-Tutor: offline`, `X-Astro-Spend-Limit` naming the limit), streamed or not, and the
 * model is not called. The limit holds across a new function instance and a day's rollover.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createChatHandler, TUTOR_HEADER } from '#lambdas/chat/handler';
import { API_ROUTES, CHAT_STREAM_MEDIA_TYPE } from '#contract/routes';
import type { ChatResponse } from '#contract/schemas';
import { SPEND_LIMIT_HEADER } from '#contract/spend';
import type { StreamingApiHandler } from '#lambdas/http/endpoint';
import { utcDay } from '#lambdas/spend/ledger';
import {
  bedrockCall,
  converseAnswer,
  converseStreamAnswer,
  converseStreamEvents,
  startBedrockFake,
  textBlock,
} from '#support/bedrock-fake';
import { startTestLedger, type TestLedgerDatabase } from '#support/dynalite';
import { apiEvent, bodyOf, buffered } from '#support/events';
import { captureLogs, type CapturedLogs } from '#support/logs';
import { hang, sendJson, startFakeServer, type FakeRoute, type FakeServer } from '#support/loopback';
import { readLines, textOf } from '#support/ndjson';
import { OTHER_CONVERSATION_ID, signatureHolds, TEST_CONVERSATION_ID, TRUST_ENV } from '#support/trust';

/** Each fake reply reads 1,000 tokens and writes 100: at Nova 2 Lite's $0.30 / $2.50 per million, $0.00055. */
const USAGE = { inputTokens: 1000, outputTokens: 100 };
const REPLY_USD = 0.00055;
const MODEL_SAYS = 'Comets are icy visitors from the outer solar system.';

/** The model: the same reply and usage whole (Converse) or streamed (ConverseStream). */
const model: FakeRoute = (request, response) =>
  bedrockCall(request).operation === 'converse-stream'
    ? converseStreamAnswer(converseStreamEvents([MODEL_SAYS], { usage: USAGE }))(request, response)
    : sendJson(response, 200, converseAnswer([textBlock(MODEL_SAYS)], 'end_turn', USAGE));

describe('the cap on chat', () => {
  let bedrock: FakeServer;
  let database: TestLedgerDatabase;
  let logs: CapturedLogs;
  let clock: number;

  beforeAll(async () => {
    bedrock = await startBedrockFake(model);
    database = await startTestLedger();
  });
  afterAll(async () => {
    await bedrock.close();
    await database.close();
  });
  beforeEach(() => {
    bedrock.requests.length = 0;
    logs = captureLogs();
  });
  afterEach(() => logs.restore());

  const handlerWith = (env: Record<string, string>): StreamingApiHandler =>
    createChatHandler(
      {
        ...TRUST_ENV,
        ...database.env,
        ASTRO_MODEL: 'bedrock',
        BEDROCK_ENDPOINT: bedrock.url,
        MODEL_TIMEOUT_MS: '2000',
        ...env,
      },
      () => clock,
    );
  const ask = async (
    handler: StreamingApiHandler,
    options: { sourceIp?: string; conversationId?: string; stream?: boolean } = {},
  ) =>
    handler(
      apiEvent({
        path: API_ROUTES.chat,
        sourceIp: options.sourceIp ?? '192.0.2.50',
        headers: options.stream ? { Accept: CHAT_STREAM_MEDIA_TYPE } : {},
        body: {
          userMessage: 'Tell me about comets',
          language: 'en-US',
          chatHistory: [],
          conversationId: options.conversationId ?? crypto.randomUUID(),
        },
      }),
    );

  it('answers from the model and charges each reply its tokens, until the day’s budget is reached', async () => {
    clock = Date.parse('2026-07-01T10:00:00Z');
    const handler = handlerWith({ ASTRO_DAILY_BUDGET_USD: '0.001', ASTRO_CLIENT_SHARE: '1' });

    const first = buffered(await ask(handler));
    const second = buffered(await ask(handler));

    expect(first.headers?.[TUTOR_HEADER]).toBe('bedrock');
    expect(second.headers?.[TUTOR_HEADER]).toBe('bedrock');
    expect(bodyOf<ChatResponse>(second).response).toBe(MODEL_SAYS);
    expect(await database.item('day#2026-07-01')).toMatchObject({
      usd: 2 * REPLY_USD,
      chatUsd: 2 * REPLY_USD,
    });

    const third = buffered(await ask(handler, { conversationId: TEST_CONVERSATION_ID }));
    const reply = bodyOf<ChatResponse>(third);

    expect(third.statusCode).toBe(200);
    expect(third.headers?.[TUTOR_HEADER]).toBe('offline');
    expect(third.headers?.[SPEND_LIMIT_HEADER]).toBe('day');
    expect(bedrock.requests).toHaveLength(2);
    // A real lesson, signed for its place like any reply.
    expect(reply.response).toMatch(/comet/i);
    expect(reply.response).not.toBe(MODEL_SAYS);
    expect(
      signatureHolds(
        reply.signature,
        reply.response,
        { conversationId: TEST_CONVERSATION_ID, position: 1 },
        { now: clock },
      ),
    ).toBe(true);
    expect(logs.entries()).toContainEqual(
      expect.objectContaining({ message: 'spend limit reached', limit: 'day' }),
    );
  });

  it('streams the offline lesson once the cap is reached, with the same headers', async () => {
    clock = Date.parse('2026-07-01T11:00:00Z');
    const handler = handlerWith({ ASTRO_DAILY_BUDGET_USD: '0.001', ASTRO_CLIENT_SHARE: '1' });

    const result = await ask(handler, { stream: true });
    const lines = await readLines(result);

    expect(result.headers?.[TUTOR_HEADER]).toBe('offline');
    expect(result.headers?.[SPEND_LIMIT_HEADER]).toBe('day');
    expect(lines.at(-1)?.type).toBe('done');
    expect(textOf(lines)).toMatch(/comet/i);
    expect(bedrock.requests).toHaveLength(0);
  });

  it('remembers the cap in a new function instance, and lifts it at midnight UTC', async () => {
    clock = Date.parse('2026-07-01T23:59:00Z');
    const fresh = handlerWith({ ASTRO_DAILY_BUDGET_USD: '0.001', ASTRO_CLIENT_SHARE: '1' });
    expect(buffered(await ask(fresh)).headers?.[TUTOR_HEADER]).toBe('offline');

    clock = Date.parse('2026-07-02T00:00:30Z');
    expect(utcDay(clock)).toBe('2026-07-02');
    expect(buffered(await ask(fresh)).headers?.[TUTOR_HEADER]).toBe('bedrock');
  });

  it('charges a streamed reply the usage its stream reports', async () => {
    clock = Date.parse('2026-07-03T09:00:00Z');
    const handler = handlerWith({ ASTRO_DAILY_BUDGET_USD: '1' });

    const lines = await readLines(await ask(handler, { stream: true }));

    expect(lines.at(-1)?.type).toBe('done');
    expect((await database.item('day#2026-07-03'))?.chatUsd).toBe(REPLY_USD);
  });

  it('sends one heavy client to the offline tutor alone: its share is spent, the others’ is not', async () => {
    clock = Date.parse('2026-07-04T09:00:00Z');
    // A $1 day, 0.1% each: one client may spend $0.001, two replies.
    const handler = handlerWith({ ASTRO_DAILY_BUDGET_USD: '1', ASTRO_CLIENT_SHARE: '0.001' });
    await ask(handler, { sourceIp: '198.51.100.1' });
    await ask(handler, { sourceIp: '198.51.100.1' });

    const heavy = buffered(await ask(handler, { sourceIp: '198.51.100.1' }));
    const other = buffered(await ask(handler, { sourceIp: '198.51.100.2' }));

    expect(heavy.headers?.[TUTOR_HEADER]).toBe('offline');
    expect(heavy.headers?.[SPEND_LIMIT_HEADER]).toBe('client');
    expect(other.headers?.[TUTOR_HEADER]).toBe('bedrock');
  });

  it('counts an IPv6 client by its /64: rotating addresses inside it does not buy a new share', async () => {
    clock = Date.parse('2026-07-05T09:00:00Z');
    const handler = handlerWith({ ASTRO_DAILY_BUDGET_USD: '1', ASTRO_CLIENT_SHARE: '0.001' });
    await ask(handler, { sourceIp: '2001:db8:77:1::a' });
    await ask(handler, { sourceIp: '2001:db8:77:1::b' });

    const rotated = buffered(await ask(handler, { sourceIp: '2001:db8:77:1:dead:beef:0:1' }));
    const neighbour = buffered(await ask(handler, { sourceIp: '2001:db8:77:2::a' }));

    expect(rotated.headers?.[SPEND_LIMIT_HEADER]).toBe('client');
    expect(neighbour.headers?.[TUTOR_HEADER]).toBe('bedrock');
  });

  it('gives each conversation its own number of paid replies, then the offline tutor for the rest of it', async () => {
    clock = Date.parse('2026-07-06T09:00:00Z');
    const handler = handlerWith({ ASTRO_DAILY_BUDGET_USD: '10', ASTRO_CONVERSATION_MAX_TURNS: '2' });
    await ask(handler, { conversationId: TEST_CONVERSATION_ID });
    await ask(handler, { conversationId: TEST_CONVERSATION_ID });

    const third = buffered(await ask(handler, { conversationId: TEST_CONVERSATION_ID }));
    const another = buffered(await ask(handler, { conversationId: OTHER_CONVERSATION_ID }));

    expect(third.headers?.[SPEND_LIMIT_HEADER]).toBe('conversation');
    expect(another.headers?.[TUTOR_HEADER]).toBe('bedrock');
  });

  it('costs nothing and is never capped with no budget set (locally, by default)', async () => {
    clock = Date.parse('2026-07-07T09:00:00Z');
    const handler = handlerWith({});
    for (let reply = 0; reply < 3; reply += 1) {
      expect(buffered(await ask(handler)).headers?.[TUTOR_HEADER]).toBe('bedrock');
    }
    expect((await database.item('day#2026-07-07'))?.usd).toBe(3 * REPLY_USD);
  });
});

describe('the cap when the ledger does not answer', () => {
  let bedrock: FakeServer;
  let dynamo: FakeServer;
  let logs: CapturedLogs;

  beforeAll(async () => {
    bedrock = await startBedrockFake(model);
    dynamo = await startFakeServer(hang);
  });
  afterAll(async () => {
    await bedrock.close();
    await dynamo.close();
  });
  beforeEach(() => {
    logs = captureLogs();
  });
  afterEach(() => logs.restore());

  it('answers from the offline tutor (no spend known, no paid call), without a limit header, and logs why', async () => {
    const handler = createChatHandler({
      ...TRUST_ENV,
      ASTRO_MODEL: 'bedrock',
      BEDROCK_ENDPOINT: bedrock.url,
      SPEND_TABLE: 'astro-spend',
      DYNAMODB_ENDPOINT: dynamo.url,
      ASTRO_DAILY_BUDGET_USD: '25',
      SPEND_READ_TIMEOUT_MS: '150',
      SPEND_WRITE_TIMEOUT_MS: '150',
    });

    const result = buffered(
      await handler(
        apiEvent({
          path: API_ROUTES.chat,
          body: {
            userMessage: 'Tell me about Mars',
            language: 'en-US',
            chatHistory: [],
            conversationId: TEST_CONVERSATION_ID,
          },
        }),
      ),
    );

    expect(result.statusCode).toBe(200);
    expect(result.headers?.[TUTOR_HEADER]).toBe('offline');
    expect(result.headers?.[SPEND_LIMIT_HEADER]).toBeUndefined();
    expect(bedrock.requests).toHaveLength(0);
    expect(logs.entries()).toContainEqual(
      expect.objectContaining({ message: 'spend ledger failed', operation: 'read', timedOut: true }),
    );
  });

  it('answers the model’s reply although the ledger could not record it (no budget set: nothing read)', async () => {
    const handler = createChatHandler({
      ...TRUST_ENV,
      ASTRO_MODEL: 'bedrock',
      BEDROCK_ENDPOINT: bedrock.url,
      SPEND_TABLE: 'astro-spend',
      DYNAMODB_ENDPOINT: dynamo.url,
      SPEND_WRITE_TIMEOUT_MS: '150',
    });

    const result = buffered(
      await handler(
        apiEvent({
          path: API_ROUTES.chat,
          body: {
            userMessage: 'Tell me about Mars',
            language: 'en-US',
            chatHistory: [],
            conversationId: TEST_CONVERSATION_ID,
          },
        }),
      ),
    );

    expect(result.statusCode).toBe(200);
    expect(bodyOf<ChatResponse>(result).response).toBe(MODEL_SAYS);
    expect(logs.entries()).toContainEqual(
      expect.objectContaining({ message: 'spend ledger failed', operation: 'record', timedOut: true }),
    );
  });
});
