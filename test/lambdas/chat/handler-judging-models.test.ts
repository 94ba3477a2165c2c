/**
 * The model tutors judge like a teacher (docs/behaviour.md §17.2): the judging rules reach the model, in
 * its system prompt and in the check tools' descriptions, and a reply that judges the learner's answer
 * and asks the question again (both tools called) becomes the `check` the web app reads, with
 * `openQuestion`, on the JSON answer and on the streamed `done` line alike. Through POST /api/chat, with
 * the real Bedrock Runtime client and platform fetch against the loopback fakes.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createChatHandler } from '#lambdas/chat/handler';
import { API_ROUTES, CHAT_STREAM_MEDIA_TYPE } from '#contract/routes';
import type { StreamingApiHandler } from '#lambdas/http/endpoint';
import {
  answersInTurn,
  bedrockCall,
  converseAnswer,
  converseStreamAnswer,
  converseStreamEvents,
  jsonOf,
  startBedrockFake,
  textBlock,
} from '#support/bedrock-fake';
import { apiEvent, bodyOf, buffered } from '#support/events';
import { startFakeServer, type FakeRoute, type FakeServer } from '#support/loopback';
import { readLines } from '#support/ndjson';
import { completion, completionChunk, sseAnswer, sseData } from '#support/openai-fake';
import { signedTurn, TEST_CONVERSATION_ID, TRUST_ENV } from '#support/trust';

const QUESTION = 'Is the Sun a planet or a star?';
const HINT_AGAIN = `Not quite: planets only shine with light that bounces off them. ${QUESTION}`;

/** The learner's misconception, after Astro's signed check question. */
const misconception = {
  userMessage: 'a planet, not a star',
  language: 'en-US',
  chatHistory: [
    { role: 'user', content: 'Tell me about the Sun' },
    signedTurn(`The Sun is a star. ${QUESTION}`, 1),
  ],
  conversationId: TEST_CONVERSATION_ID,
};

/** The rules the model must be given, in the words a reviewer would look for. */
const RULES = [
  /a misconception that contains the right word \("a planet, not a star"\)/i,
  /a negation \("not a star"/i,
  /ask the learner to choose one/i,
  /a question instead of an answer is not an answer and uses no try/i,
  /at the learner's level in other, simpler words/i,
  /at most one star per conversation/i,
];

function firstRequest(model: FakeServer) {
  const sent = model.requests[0];
  if (!sent) throw new Error('the model was not called');
  return sent;
}

async function judged(handler: StreamingApiHandler) {
  const whole = buffered(await handler(apiEvent({ path: API_ROUTES.chat, body: misconception })));
  const lines = await readLines(
    await handler(
      apiEvent({ path: API_ROUTES.chat, headers: { Accept: CHAT_STREAM_MEDIA_TYPE }, body: misconception }),
    ),
  );
  return { json: bodyOf<{ response: string; check?: unknown }>(whole), done: lines.at(-1) };
}

describe('an OpenAI-compatible model judging through /api/chat', () => {
  let model: FakeServer;
  let handler: StreamingApiHandler;

  const whole: FakeRoute = answersInTurn(
    completion({
      content: HINT_AGAIN,
      toolCalls: [
        {
          id: 'call_a',
          type: 'function',
          function: { name: 'check_answer', arguments: '{"correct":false}' },
        },
        { id: 'call_q', type: 'function', function: { name: 'ask_check_question', arguments: '{}' } },
      ],
    }),
  );
  const streamed: FakeRoute = sseAnswer([
    sseData(completionChunk({ content: HINT_AGAIN })),
    sseData(
      completionChunk({ toolCalls: [{ index: 0, id: 'call_a', name: 'check_answer', arguments: '' }] }),
    ),
    sseData(completionChunk({ toolCalls: [{ index: 0, arguments: '{"correct":false}' }] })),
    sseData(
      completionChunk({
        toolCalls: [{ index: 1, id: 'call_q', name: 'ask_check_question', arguments: '{}' }],
      }),
    ),
    sseData(completionChunk({ finishReason: 'tool_calls' })),
    'data: [DONE]\n\n',
  ]);

  beforeAll(async () => {
    model = await startFakeServer((request, response) =>
      jsonOf<{ stream?: boolean }>(request).stream === true
        ? streamed(request, response)
        : whole(request, response),
    );
    handler = createChatHandler({
      ...TRUST_ENV,
      ASTRO_MODEL: 'openai',
      OPENAI_BASE_URL: `${model.url}/v1`,
      OPENAI_MODEL: 'llama3.2',
      MODEL_TIMEOUT_MS: '2000',
    });
  });
  afterAll(() => model.close());
  beforeEach(() => {
    model.requests.length = 0;
  });

  it('turns check_answer and ask_check_question into a judgement that keeps the question open', async () => {
    const { json, done } = await judged(handler);

    expect(json).toMatchObject({
      response: HINT_AGAIN,
      check: { type: 'answer', correct: false, openQuestion: true },
    });
    expect(done).toMatchObject({
      type: 'done',
      check: { type: 'answer', correct: false, openQuestion: true },
    });
  });

  it('gives the model the judging rules, in its system prompt and in the check tool', async () => {
    await judged(handler);

    const sent = jsonOf<{
      messages: { role: string; content: string }[];
      tools: { function: { name: string; description: string } }[];
    }>(firstRequest(model));
    const system = sent.messages[0]?.content ?? '';
    for (const rule of RULES) expect(system).toMatch(rule);
    const checkAnswer = sent.tools.find((tool) => tool.function.name === 'check_answer')?.function
      .description;
    expect(checkAnswer).toMatch(/"a planet, not a star" and "not a star" are wrong/);
    expect(checkAnswer).toMatch(/Do not call it when the learner names both options/);
    // The learner's own words reach the model, after Astro's signed question.
    expect(sent.messages.at(-1)).toEqual({ role: 'user', content: 'a planet, not a star' });
  });
});

describe('a Bedrock model judging through /api/chat', () => {
  let model: FakeServer;
  let handler: StreamingApiHandler;

  beforeAll(async () => {
    const tools = [
      { toolUse: { toolUseId: 'tool-a', name: 'check_answer', input: { correct: false } } },
      { toolUse: { toolUseId: 'tool-q', name: 'ask_check_question', input: {} } },
    ];
    const whole = answersInTurn(converseAnswer([textBlock(HINT_AGAIN), ...tools], 'tool_use'));
    const streamed = converseStreamAnswer(
      converseStreamEvents([HINT_AGAIN], {
        tools: [
          { toolUseId: 'tool-a', name: 'check_answer', input: ['{"correct":', 'false}'] },
          { toolUseId: 'tool-q', name: 'ask_check_question', input: ['{}'] },
        ],
      }),
    );
    model = await startBedrockFake((request, response) =>
      bedrockCall(request).operation === 'converse-stream'
        ? streamed(request, response)
        : whole(request, response),
    );
    handler = createChatHandler({
      ...TRUST_ENV,
      ASTRO_MODEL: 'bedrock',
      BEDROCK_ENDPOINT: model.url,
      MODEL_TIMEOUT_MS: '2000',
    });
  });
  afterAll(() => model.close());
  beforeEach(() => {
    model.requests.length = 0;
  });

  it('turns check_answer and ask_check_question into a judgement that keeps the question open', async () => {
    const { json, done } = await judged(handler);

    expect(json).toMatchObject({
      response: HINT_AGAIN,
      check: { type: 'answer', correct: false, openQuestion: true },
    });
    expect(done).toMatchObject({
      type: 'done',
      check: { type: 'answer', correct: false, openQuestion: true },
    });
  });

  it('gives the model the judging rules, in its system prompt and in the check tool', async () => {
    await judged(handler);

    const sent = jsonOf<{
      system: { text: string }[];
      toolConfig: { tools: { toolSpec: { name: string; description: string } }[] };
    }>(firstRequest(model));
    const system = sent.system.map((block) => block.text).join('\n');
    for (const rule of RULES) expect(system).toMatch(rule);
    const checkAnswer = sent.toolConfig.tools.find((tool) => tool.toolSpec.name === 'check_answer')?.toolSpec
      .description;
    expect(checkAnswer).toMatch(/"a planet, not a star" and "not a star" are wrong/);
  });
});
