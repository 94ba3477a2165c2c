/**
 * What each model call reports it used, for the spend ledger (docs/behaviour.md §12.18): the real Bedrock
 * Runtime client against the HTTP/2 fake (Converse `usage`, ConverseStream's `metadata` event) and platform
 * fetch against the OpenAI-compatible fake (a completion's `usage`, a stream's last chunk asked for with
 * `stream_options.include_usage`), streamed and not, one report per call, and an estimate that never
 * counts less for a call that ends without one.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readTutorConfig } from '#lambdas/config';
import { createBedrockTutor } from '#lambdas/tutor/bedrock-tutor';
import { createOpenAiTutor } from '#lambdas/tutor/openai-tutor';
import type { TokenUsage, Tutor, TutorRequest } from '#lambdas/tutor/tutor';
import {
  answersInTurn,
  converseAnswer,
  converseStreamAnswer,
  converseStreamEvents,
  jsonOf,
  pictureBlock,
  routesInTurn,
  startBedrockFake,
  textBlock,
} from '#support/bedrock-fake';
import { sendJson, startFakeServer, type FakeRoute, type FakeServer } from '#support/loopback';
import {
  completion,
  completionChunk,
  openAiError,
  pictureCall,
  sseAnswer,
  sseData,
  streamedCompletion,
} from '#support/openai-fake';
import { collect } from '#support/tutor-stream';

const ask: TutorRequest = { userMessage: 'What is a star?', language: 'en-US', history: [] };

/** A meter that keeps every report. */
function meter() {
  const reports: TokenUsage[] = [];
  return { reports, meter: (usage: TokenUsage) => void reports.push(usage) };
}

describe('Bedrock: the usage Converse reports', () => {
  let bedrock: FakeServer;
  let tutor: Tutor;

  beforeAll(async () => {
    bedrock = await startBedrockFake(answersInTurn(converseAnswer([textBlock('Stars shine.')])));
    tutor = createBedrockTutor(
      readTutorConfig({ ASTRO_MODEL: 'bedrock', BEDROCK_ENDPOINT: bedrock.url, MODEL_TIMEOUT_MS: '2000' }),
    );
  });
  afterAll(() => bedrock.close());
  beforeEach(() => {
    bedrock.requests.length = 0;
  });

  it('tells the meter the tokens a whole answer reports, once', async () => {
    bedrock.respondWith(
      answersInTurn(
        converseAnswer([textBlock('Stars shine.')], 'end_turn', { inputTokens: 1234, outputTokens: 56 }),
      ),
    );
    const { reports, meter: tell } = meter();

    await tutor.reply(ask, undefined, tell);

    expect(reports).toEqual([{ inputTokens: 1234, outputTokens: 56 }]);
  });

  it('tells one report per call when a picture-only answer is asked again for its words', async () => {
    bedrock.respondWith(
      answersInTurn(
        converseAnswer([pictureBlock('A red giant star')], 'tool_use', {
          inputTokens: 900,
          outputTokens: 30,
        }),
        converseAnswer([textBlock('Here it is.')], 'end_turn', { inputTokens: 950, outputTokens: 12 }),
      ),
    );
    const { reports, meter: tell } = meter();

    await tutor.reply(ask, undefined, tell);

    expect(reports).toEqual([
      { inputTokens: 900, outputTokens: 30 },
      { inputTokens: 950, outputTokens: 12 },
    ]);
  });

  it('tells the tokens the streamed metadata event reports', async () => {
    bedrock.respondWith(
      converseStreamAnswer(
        converseStreamEvents(['Stars ', 'shine.'], { usage: { inputTokens: 777, outputTokens: 8 } }),
      ),
    );
    const { reports, meter: tell } = meter();

    const { error } = await collect(tutor.stream(ask, undefined, tell));

    expect(error).toBeUndefined();
    expect(reports).toEqual([{ inputTokens: 777, outputTokens: 8 }]);
  });

  it('estimates a streamed call that ended without its metadata: every character sent and received', async () => {
    bedrock.respondWith(converseStreamAnswer(converseStreamEvents(['Stars shine.'], { usage: null })));
    const { reports, meter: tell } = meter();

    await collect(tutor.stream(ask, undefined, tell));

    const [sent] = bedrock.requests;
    if (!sent) throw new Error('no call');
    expect(reports).toHaveLength(1);
    // At least a token per character of the request's system prompt and messages.
    const { system, messages } = jsonOf<{ system: unknown; messages: unknown }>(sent);
    expect(reports[0]?.inputTokens).toBeGreaterThanOrEqual(JSON.stringify({ system, messages }).length - 100);
    expect(reports[0]?.outputTokens).toBe('Stars shine.'.length);
  });

  it('estimates a call the deadline cut, so a learner who leaves mid-reply is still counted', async () => {
    bedrock.respondWith(converseStreamAnswer(converseStreamEvents(['Stars ']).slice(0, 2), { end: false }));
    const cut = createBedrockTutor(
      readTutorConfig({
        ASTRO_MODEL: 'bedrock',
        BEDROCK_ENDPOINT: bedrock.url,
        MODEL_TIMEOUT_MS: '2000',
        MODEL_IDLE_TIMEOUT_MS: '150',
      }),
    );
    const { reports, meter: tell } = meter();

    const { error } = await collect(cut.stream(ask, undefined, tell));

    expect(error).toMatchObject({ code: 'upstream_timeout' });
    expect(reports).toHaveLength(1);
    expect(reports[0]?.inputTokens).toBeGreaterThan(1000);
  });
});

interface CompletionBody {
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
}

describe('OpenAI-compatible servers: the usage a completion reports', () => {
  let fake: FakeServer;
  let tutor: Tutor;
  const body = (index: number) => {
    const request = fake.requests[index];
    if (!request) throw new Error(`no request ${index}`);
    return jsonOf<CompletionBody>(request);
  };

  beforeAll(async () => {
    fake = await startFakeServer((_request, response) =>
      sendJson(response, 200, completion({ content: 'Hi' })),
    );
  });
  afterAll(() => fake.close());
  beforeEach(() => {
    fake.requests.length = 0;
    tutor = createOpenAiTutor(
      readTutorConfig({
        ASTRO_MODEL: 'openai',
        OPENAI_BASE_URL: `${fake.url}/v1`,
        OPENAI_MODEL: 'llama3.2',
        MODEL_TIMEOUT_MS: '2000',
        MODEL_IDLE_TIMEOUT_MS: '1500',
      }),
    );
  });

  it('tells the meter the usage of a whole completion', async () => {
    fake.respondWith((_request, response) =>
      sendJson(
        response,
        200,
        completion({ content: 'Hi', usage: { promptTokens: 321, completionTokens: 9 } }),
      ),
    );
    const { reports, meter: tell } = meter();

    await tutor.reply(ask, undefined, tell);

    expect(reports).toEqual([{ inputTokens: 321, outputTokens: 9 }]);
  });

  it('asks a stream for its usage (stream_options.include_usage) and tells the last chunk’s figures', async () => {
    fake.respondWith(
      sseAnswer(streamedCompletion(['Stars ', 'shine.'], 'stop', { promptTokens: 400, completionTokens: 4 })),
    );
    const { reports, meter: tell } = meter();

    const { error } = await collect(tutor.stream(ask, undefined, tell));

    expect(error).toBeUndefined();
    expect(body(0)).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(reports).toEqual([{ inputTokens: 400, outputTokens: 4 }]);
  });

  it('reads usage a server puts on its last choice chunk instead', async () => {
    const last = {
      ...completionChunk({ finishReason: 'stop' }),
      usage: { prompt_tokens: 50, completion_tokens: 5 },
    };
    fake.respondWith(
      sseAnswer([sseData(completionChunk({ content: 'Hi' })), sseData(last), 'data: [DONE]\n\n']),
    );
    const { reports, meter: tell } = meter();

    await collect(tutor.stream(ask, undefined, tell));

    expect(reports).toEqual([{ inputTokens: 50, outputTokens: 5 }]);
  });

  it('asks a server that refuses stream_options again without it, remembers, and estimates', async () => {
    const refusing: FakeRoute = (request, response) => {
      if (jsonOf<CompletionBody>(request).stream_options) {
        return openAiError(400, 'Unrecognized request argument supplied: stream_options')(request, response);
      }
      return sseAnswer(streamedCompletion(['Stars shine.'], 'stop', null))(request, response);
    };
    fake.respondWith(refusing);
    const { reports, meter: tell } = meter();

    const first = await collect(tutor.stream(ask, undefined, tell));
    await collect(tutor.stream(ask, undefined, tell));

    expect(first.error).toBeUndefined();
    expect(first.text).toBe('Stars shine.');
    // Refused once, then never asked for again; streaming itself stays on.
    expect(fake.requests.map((_request, index) => body(index).stream_options !== undefined)).toEqual([
      true,
      false,
      false,
    ]);
    expect(fake.requests.every((_request, index) => body(index).stream === true)).toBe(true);
    // The refused call read nothing; the two that answered are estimated.
    expect(reports).toHaveLength(3);
    expect(reports[0]).toEqual({ inputTokens: 0, outputTokens: 0 });
    expect(reports[1]?.inputTokens).toBeGreaterThan(500);
    expect(reports[1]?.outputTokens).toBe('Stars shine.'.length);
  });

  it('estimates a whole completion sent instead of a stream, with the words it carried', async () => {
    // A server that ignores `stream: true` and reports no usage: read as a whole reply is read.
    fake.respondWith((_request, response) =>
      sendJson(response, 200, completion({ content: 'Stars shine.', usage: null })),
    );
    const { reports, meter: tell } = meter();

    const { error, text } = await collect(tutor.stream(ask, undefined, tell));

    expect(error).toBeUndefined();
    expect(text).toBe('Stars shine.');
    expect(reports).toHaveLength(1);
    expect(reports[0]?.inputTokens).toBeGreaterThan(500);
    expect(reports[0]?.outputTokens).toBe('Stars shine.'.length);
  });

  it('tells one report per request when a tool-only answer is asked again', async () => {
    fake.respondWith(
      routesInTurn(
        (_request, response) =>
          sendJson(
            response,
            200,
            completion({
              toolCalls: [pictureCall('A comet')],
              usage: { promptTokens: 100, completionTokens: 10 },
            }),
          ),
        (_request, response) =>
          sendJson(
            response,
            200,
            completion({ content: 'Look!', usage: { promptTokens: 120, completionTokens: 3 } }),
          ),
      ),
    );
    const { reports, meter: tell } = meter();

    await tutor.reply(ask, undefined, tell);

    expect(reports).toEqual([
      { inputTokens: 100, outputTokens: 10 },
      { inputTokens: 120, outputTokens: 3 },
    ]);
  });
});
