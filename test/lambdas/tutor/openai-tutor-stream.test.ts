import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readTutorConfig, type Env } from '#lambdas/config';
import { createOpenAiTutor } from '#lambdas/tutor/openai-tutor';
import { PICTURE_SHOWN } from '#lambdas/tutor/system-prompt';
import type { Tutor } from '#lambdas/tutor/tutor';
import { answersInTurn, jsonOf, routesInTurn } from '#support/bedrock-fake';
import { hang, startFakeServer, type FakeRoute, type FakeServer } from '#support/loopback';
import {
  completion,
  completionChunk,
  openAiError,
  pictureCall,
  sseAnswer,
  sseData,
  streamedCompletion,
} from '#support/openai-fake';
import { collect, doneReply, gate } from '#support/tutor-stream';

interface CompletionBody {
  stream?: boolean;
  tools?: unknown[];
  messages: { role: string; content: string | null; tool_calls?: unknown; tool_call_id?: string }[];
}

const ask = { userMessage: 'What is a star?', language: 'en-US' as const, history: [] };

/** The same model output as a whole completion (for reply()) and as SSE chunks (for stream()). */
function sameOutput(whole: FakeRoute, streamed: FakeRoute): FakeRoute {
  return (request, response) =>
    jsonOf<CompletionBody>(request).stream === true ? streamed(request, response) : whole(request, response);
}

describe('the OpenAI-compatible tutor streaming (platform fetch against an SSE fake)', () => {
  let fake: FakeServer;
  const tutorWith = (env: Env = {}): Tutor =>
    createOpenAiTutor(
      readTutorConfig({
        ASTRO_MODEL: 'openai',
        OPENAI_BASE_URL: `${fake.url}/v1`,
        OPENAI_MODEL: 'llama3.2',
        // Far from a busy machine's pauses: the deadline tests set their own.
        MODEL_TIMEOUT_MS: '20000',
        MODEL_IDLE_TIMEOUT_MS: '10000',
        ...env,
      }),
    );
  const body = (index: number) => {
    const request = fake.requests[index];
    if (!request) throw new Error(`no request ${index}`);
    return jsonOf<CompletionBody>(request);
  };

  beforeAll(async () => {
    fake = await startFakeServer(sseAnswer(streamedCompletion(['Hi!'])));
  });
  afterAll(() => fake.close());
  beforeEach(() => {
    fake.requests.length = 0;
  });

  it('asks with stream: true, streams the content deltas and ends with what reply() gives', async () => {
    const pieces = ['Stars are giant', ' balls of hot gas.', ' Our Sun is one.', ' Which star is closest?'];
    fake.respondWith(
      sameOutput(
        answersInTurn(completion({ content: pieces.join('') })),
        sseAnswer(streamedCompletion(pieces)),
      ),
    );
    const tutor = tutorWith();

    const streamed = await collect(tutor.stream(ask));

    expect(body(0)).toMatchObject({ stream: true });
    expect(fake.requests[0]?.url).toBe('/v1/chat/completions');
    expect(streamed.error).toBeUndefined();
    expect(streamed.events.filter((event) => event.type === 'delta').length).toBeGreaterThan(1);
    expect(streamed.text).toBe(pieces.join(''));
    expect(doneReply(streamed.events)).toEqual(await tutor.reply(ask));
  });

  it('streams the last characters held back until the end, so the words streamed are the reply', async () => {
    fake.respondWith(sseAnswer(streamedCompletion(['Bold text starts with ', '<b'])));
    const streamed = await collect(tutorWith().stream(ask));
    expect(streamed.text).toBe('Bold text starts with <b');
    expect(doneReply(streamed.events)).toEqual({ response: 'Bold text starts with <b' });
  });

  it('reads what servers vary in: no [DONE] after the finish, [DONE] alone, chunks without choices', async () => {
    const text = 'Saturn has rings.';
    fake.respondWith(
      sseAnswer([
        sseData(completionChunk({ content: text })),
        sseData(completionChunk({ finishReason: 'stop' })),
      ]),
    );
    expect((await collect(tutorWith().stream(ask))).text).toBe(text);

    fake.respondWith(
      sseAnswer([
        sseData({ id: 'usage', object: 'chat.completion.chunk', choices: [], usage: { total_tokens: 9 } }),
        sseData(completionChunk({ content: text })),
        'data:  [DONE] \n\n',
      ]),
    );
    const streamed = await collect(tutorWith().stream(ask));
    expect(streamed.error).toBeUndefined();
    expect(streamed.text).toBe(text);
  });

  it('assembles tool calls by index, whatever each chunk leaves out', async () => {
    fake.respondWith(
      sseAnswer([
        sseData(completionChunk({ content: 'Right! Look at this.' })),
        sseData(completionChunk({ toolCalls: [{ index: 0, id: 'call-1', name: 'check_answer' }] })),
        sseData(completionChunk({ toolCalls: [{ index: 1, id: 'call-2', name: 'show_picture' }] })),
        sseData({
          choices: [{ index: 0, delta: { tool_calls: [{ index: 1 }] }, finish_reason: null }],
        }),
        sseData(completionChunk({ toolCalls: [{ index: 0, arguments: '{"correct":' }] })),
        sseData(completionChunk({ toolCalls: [{ index: 1, arguments: '{"prompt":"Saturn"}' }] })),
        sseData(completionChunk({ toolCalls: [{ index: 0, arguments: 'true}' }] })),
        sseData(completionChunk({ finishReason: 'tool_calls' })),
        'data: [DONE]\n\n',
      ]),
    );
    const streamed = await collect(tutorWith().stream(ask));
    expect(streamed.error).toBeUndefined();
    expect(doneReply(streamed.events)).toEqual({
      response: 'Right! Look at this.',
      imagePrompt: 'Saturn',
      check: { type: 'answer', correct: true },
    });
  });

  it('puts back lines and multi-byte characters split across network chunks', async () => {
    const event = sseData(completionChunk({ content: 'Die Sonne glüht – 🌞 heiß!' }));
    const bytes = Buffer.from(event, 'utf8');
    const cut = bytes.indexOf(Buffer.from('🌞')) + 2;
    fake.respondWith(
      sseAnswer([
        bytes.subarray(0, 7),
        bytes.subarray(7, cut),
        bytes.subarray(cut),
        ...streamedCompletion([]),
      ]),
    );

    const streamed = await collect(tutorWith().stream(ask));

    expect(streamed.text).toBe('Die Sonne glüht – 🌞 heiß!');
  });

  it('assembles the show_picture arguments from tool_calls deltas and sends the picture before done', async () => {
    const chunks = [
      sseData(completionChunk({ content: 'Saturn has rings.' })),
      sseData(
        completionChunk({ toolCalls: [{ index: 0, id: 'call_1', name: 'show_picture', arguments: '' }] }),
      ),
      sseData(completionChunk({ toolCalls: [{ index: 0, arguments: '{"prompt":"Saturn' }] })),
      sseData(completionChunk({ toolCalls: [{ index: 0, arguments: ' and its rings"}' }] })),
      sseData(completionChunk({ finishReason: 'tool_calls' })),
      'data: [DONE]\n\n',
    ];
    fake.respondWith(
      sameOutput(
        answersInTurn(
          completion({ content: 'Saturn has rings.', toolCalls: [pictureCall('Saturn and its rings')] }),
        ),
        sseAnswer(chunks),
      ),
    );
    const tutor = tutorWith();

    const streamed = await collect(tutor.stream(ask));

    expect(streamed.events.map((item) => item.type)).toEqual(['delta', 'picture', 'done']);
    expect(streamed.events[1]).toEqual({ type: 'picture', imagePrompt: 'Saturn and its rings' });
    expect(doneReply(streamed.events)).toEqual(await tutor.reply(ask));
  });

  it('asks again for words inside the stream when the model only calls the function', async () => {
    const toolOnly = [
      sseData(
        completionChunk({
          toolCalls: [{ index: 0, id: 'call_9', name: 'show_picture', arguments: '{"prompt":"A comet"}' }],
        }),
      ),
      sseData(completionChunk({ finishReason: 'tool_calls' })),
      'data: [DONE]\n\n',
    ];
    fake.respondWith(
      sameOutput(
        answersInTurn(
          completion({ toolCalls: [pictureCall('A comet', 'call_9')] }),
          completion({ content: 'Here is a comet. What is its tail made of?' }),
        ),
        routesInTurn(
          sseAnswer(toolOnly),
          sseAnswer(streamedCompletion(['Here is a comet.', ' What is its tail made of?'])),
        ),
      ),
    );
    const tutor = tutorWith();

    const streamed = await collect(tutor.stream(ask));

    expect(streamed.events.map((item) => item.type)).toEqual(['picture', 'delta', 'delta', 'done']);
    expect(body(1).messages.slice(-2)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_9',
            type: 'function',
            function: { name: 'show_picture', arguments: '{"prompt":"A comet"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_9', content: PICTURE_SHOWN },
    ]);
    expect(doneReply(streamed.events)).toEqual(await tutor.reply(ask));
  });

  it('falls back to one piece when the server refuses streaming, and remembers it', async () => {
    fake.respondWith((request, response) =>
      jsonOf<CompletionBody>(request).stream
        ? openAiError(400, "'stream' is not supported by this server")(request, response)
        : answersInTurn(completion({ content: 'Stars shine by fusion.' }))(request, response),
    );
    const tutor = tutorWith();

    const first = await collect(tutor.stream(ask));
    const second = await collect(tutor.stream(ask));

    expect(first.events).toEqual([
      { type: 'delta', text: 'Stars shine by fusion.' },
      { type: 'done', response: 'Stars shine by fusion.' },
    ]);
    expect(second.events).toEqual(first.events);
    expect(fake.requests.map((request) => jsonOf<CompletionBody>(request).stream)).toEqual([
      true,
      undefined,
      undefined,
    ]);
  });

  it('falls back without tools when the server refuses them, as reply() does', async () => {
    fake.respondWith((request, response) =>
      jsonOf<CompletionBody>(request).tools
        ? openAiError(400, 'this model does not support tools')(request, response)
        : sseAnswer(streamedCompletion(['Stars shine.']))(request, response),
    );

    const streamed = await collect(tutorWith().stream(ask));

    expect(streamed.text).toBe('Stars shine.');
    expect(body(1)).toMatchObject({ stream: true });
    expect(body(1).tools).toBeUndefined();
  });

  it('reads a whole JSON completion from a server that ignores stream: true', async () => {
    fake.respondWith(
      answersInTurn(completion({ content: 'Stars shine.', toolCalls: [pictureCall('A star')] })),
    );

    const streamed = await collect(tutorWith().stream(ask));

    expect(streamed.events).toEqual([
      { type: 'delta', text: 'Stars shine.' },
      { type: 'picture', imagePrompt: 'A star' },
      { type: 'done', response: 'Stars shine.', imagePrompt: 'A star' },
    ]);
  });

  it('ends with an error after the text so far when the server sends an error mid-stream', async () => {
    fake.respondWith(
      sseAnswer([
        sseData(completionChunk({ content: 'Stars are ' })),
        sseData({ error: { message: 'boom' } }),
      ]),
    );

    const streamed = await collect(tutorWith().stream(ask));

    expect(streamed.text).toBe('Stars are');
    expect(streamed.error).toMatchObject({ code: 'upstream_error' });
  });

  it('ends with upstream_error when the stream stops before its end', async () => {
    fake.respondWith(sseAnswer([sseData(completionChunk({ content: 'Stars are hot' }))]));

    const streamed = await collect(tutorWith().stream(ask));

    expect(streamed.text).toBe('Stars are hot');
    expect(streamed.error).toMatchObject({
      code: 'upstream_error',
      cause: { message: 'the stream ended before the answer did' },
    });
  });

  it('ends with content_filtered on a content_filter finish', async () => {
    fake.respondWith(sseAnswer(streamedCompletion(['Well'], 'content_filter')));

    expect((await collect(tutorWith().stream(ask))).error).toMatchObject({ code: 'content_filtered' });
  });

  it('gives up with upstream_timeout when the model goes quiet mid-reply (the idle deadline)', async () => {
    const never = gate();
    fake.respondWith(
      sseAnswer([sseData(completionChunk({ content: 'Stars are' })), never.wait], { end: false }),
    );

    // The whole deadline far beyond the test's own: only the idle deadline can end the reply in time.
    const streamed = await collect(
      tutorWith({ MODEL_TIMEOUT_MS: '60000', MODEL_IDLE_TIMEOUT_MS: '1500' }).stream(ask),
    );

    expect(streamed.text).toBe('Stars are');
    expect(streamed.error).toMatchObject({ code: 'upstream_timeout' });
    never.open();
  });

  it('gives up with upstream_timeout when the server never answers', async () => {
    fake.respondWith(hang);

    const streamed = await collect(tutorWith({ MODEL_TIMEOUT_MS: '300' }).stream(ask));

    expect(streamed.events).toEqual([]);
    expect(streamed.error).toMatchObject({ code: 'upstream_timeout' });
  });
});
