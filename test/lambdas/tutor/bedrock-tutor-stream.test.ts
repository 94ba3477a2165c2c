import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readTutorConfig } from '#lambdas/config';
import { createBedrockTutor } from '#lambdas/tutor/bedrock-tutor';
import { PICTURE_SHOWN } from '#lambdas/tutor/system-prompt';
import type { Tutor } from '#lambdas/tutor/tutor';
import {
  answersInTurn,
  awsError,
  bedrockCall,
  converseAnswer,
  converseEvent,
  converseException,
  converseStreamAnswer,
  converseStreamEvents,
  jsonOf,
  pictureBlock,
  routesInTurn,
  startBedrockFake,
  textBlock,
} from '#support/bedrock-fake';
import type { FakeRoute, FakeServer } from '#support/loopback';
import { collect, doneReply, gate } from '#support/tutor-stream';

interface ConverseBody {
  messages: { role: string; content: Record<string, unknown>[] }[];
}

const ask = { userMessage: 'Tell me about Saturn', language: 'en-US' as const, history: [] };

/** The same model output as a Converse answer (for reply()) and as ConverseStream events (for stream()). */
function sameOutput(converse: FakeRoute, converseStream: FakeRoute): FakeRoute {
  return (request, response) =>
    bedrockCall(request).operation === 'converse-stream'
      ? converseStream(request, response)
      : converse(request, response);
}

describe('the Bedrock tutor streaming (real ConverseStream client, binary event-stream fake)', () => {
  let fake: FakeServer;
  let tutor: Tutor;

  beforeAll(async () => {
    fake = await startBedrockFake(converseStreamAnswer(converseStreamEvents(['Hi!'])));
    tutor = createBedrockTutor(
      readTutorConfig({
        ASTRO_MODEL: 'bedrock',
        BEDROCK_ENDPOINT: fake.url,
        MODEL_TIMEOUT_MS: '2000',
        // Room for a loaded machine (and Stryker's instrumented code) between two events; the idle test
        // waits this long.
        MODEL_IDLE_TIMEOUT_MS: '1000',
      }),
    );
  });
  afterAll(() => fake.close());
  beforeEach(() => {
    fake.requests.length = 0;
  });

  /** A tutor with its own deadlines for the whole reply and for the silence between two pieces. */
  const tutorWithDeadlines = ({ wholeMs, idleMs }: { wholeMs: string; idleMs: string }) =>
    createBedrockTutor(
      readTutorConfig({
        ASTRO_MODEL: 'bedrock',
        BEDROCK_ENDPOINT: fake.url,
        MODEL_TIMEOUT_MS: wholeMs,
        MODEL_IDLE_TIMEOUT_MS: idleMs,
      }),
    );

  it('streams the text as deltas in order and ends with the reply reply() gives for the same output', async () => {
    const pieces = ['Saturn is a gas', ' giant. Its rings', ' are ice. Can you', ' see them?'];
    fake.respondWith(
      sameOutput(
        answersInTurn(converseAnswer([textBlock(pieces.join(''))])),
        converseStreamAnswer(converseStreamEvents(pieces)),
      ),
    );

    const streamed = await collect(tutor.stream(ask));
    const replied = await tutor.reply(ask);

    expect(streamed.error).toBeUndefined();
    expect(streamed.events.filter((event) => event.type === 'delta').length).toBeGreaterThan(1);
    expect(streamed.text).toBe('Saturn is a gas giant. Its rings are ice. Can you see them?');
    expect(doneReply(streamed.events)).toEqual(replied);
    expect(bedrockCall(fake.requests[0] ?? fail())).toMatchObject({ operation: 'converse-stream' });
  });

  it('assembles the show_picture input from its toolUse deltas and sends the picture before done', async () => {
    const events = converseStreamEvents(['Saturn has rings.'], {
      tools: [
        { toolUseId: 'tool-1', name: 'show_picture', input: ['{"prompt": "Saturn', ' and its rings"}'] },
      ],
    });
    fake.respondWith(
      sameOutput(
        answersInTurn(
          converseAnswer(
            [textBlock('Saturn has rings.'), pictureBlock('Saturn and its rings', 'tool-1')],
            'tool_use',
          ),
        ),
        converseStreamAnswer(events),
      ),
    );

    const streamed = await collect(tutor.stream(ask));

    expect(streamed.events.map((event) => event.type)).toEqual(['delta', 'picture', 'done']);
    expect(streamed.events[1]).toEqual({ type: 'picture', imagePrompt: 'Saturn and its rings' });
    expect(doneReply(streamed.events)).toEqual(await tutor.reply(ask));
    expect(
      fake.requests.filter((request) => bedrockCall(request).operation === 'converse-stream'),
    ).toHaveLength(1);
  });

  it('asks again for words inside the stream when the model only calls the tool, as reply() does', async () => {
    const toolOnly = converseStreamEvents([], {
      tools: [{ toolUseId: 'tool-7', name: 'show_picture', input: ['{"prompt":"A spiral', ' galaxy"}'] }],
    });
    fake.respondWith(
      sameOutput(
        answersInTurn(
          converseAnswer([pictureBlock('A spiral galaxy', 'tool-7')], 'tool_use'),
          converseAnswer([textBlock('Here is a spiral galaxy. Can you spot its arms?')]),
        ),
        routesInTurn(
          converseStreamAnswer(toolOnly),
          converseStreamAnswer(converseStreamEvents(['Here is a spiral galaxy.', ' Can you spot its arms?'])),
        ),
      ),
    );

    const streamed = await collect(tutor.stream(ask));

    expect(streamed.events.map((event) => event.type)).toEqual(['picture', 'delta', 'delta', 'done']);
    expect(streamed.text).toBe('Here is a spiral galaxy. Can you spot its arms?');
    const followUp = jsonOf<ConverseBody>(fake.requests[1] ?? fail());
    expect(followUp.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: [
          { toolUse: { toolUseId: 'tool-7', name: 'show_picture', input: { prompt: 'A spiral galaxy' } } },
        ],
      },
      {
        role: 'user',
        content: [
          { toolResult: { toolUseId: 'tool-7', content: [{ text: PICTURE_SHOWN }], status: 'success' } },
        ],
      },
    ]);
    expect(doneReply(streamed.events)).toEqual(await tutor.reply(ask));
  });

  it('never shows thinking, even when its tags are split across chunks', async () => {
    const pieces = [
      '<thin',
      'king>The learner wants Mars.</thi',
      'nking> Mars is red',
      ' because of rust.  ',
    ];
    fake.respondWith(
      sameOutput(
        answersInTurn(converseAnswer([textBlock(pieces.join(''))])),
        converseStreamAnswer(converseStreamEvents(pieces)),
      ),
    );

    const streamed = await collect(tutor.stream(ask));

    for (const event of streamed.events) expect(JSON.stringify(event)).not.toMatch(/think|learner wants/);
    expect(streamed.text).toBe('Mars is red because of rust.');
    expect(doneReply(streamed.events)).toEqual(await tutor.reply(ask));
  });

  it('keeps asterisks for emphasis exactly as reply() does', async () => {
    const pieces = ['Saturn is **very', '** light: it would *float*!'];
    fake.respondWith(
      sameOutput(
        answersInTurn(converseAnswer([textBlock(pieces.join(''))])),
        converseStreamAnswer(converseStreamEvents(pieces)),
      ),
    );

    const streamed = await collect(tutor.stream(ask));

    expect(streamed.text).toBe('Saturn is **very** light: it would *float*!');
    expect(doneReply(streamed.events)).toEqual(await tutor.reply(ask));
  });

  it.each([
    ['throttlingException', 'rate_limited'],
    ['modelStreamErrorException', 'upstream_error'],
    ['internalServerException', 'upstream_error'],
  ])('ends the stream with an error after the text so far when %s arrives mid-stream', async (type, code) => {
    fake.respondWith(
      converseStreamAnswer([
        converseEvent('messageStart', { role: 'assistant' }),
        converseEvent('contentBlockDelta', {
          contentBlockIndex: 0,
          delta: { text: 'Saturn is a gas giant.' },
        }),
        converseException(type, 'upstream detail'),
      ]),
    );

    const streamed = await collect(tutor.stream(ask));

    expect(streamed.text).toBe('Saturn is a gas giant.');
    expect(streamed.events.some((event) => event.type === 'done')).toBe(false);
    expect(streamed.error).toMatchObject({ code });
  });

  it('ends with content_filtered when a guardrail stops the answer after some text', async () => {
    fake.respondWith(
      converseStreamAnswer(converseStreamEvents(['Well, ', 'hmm.'], { stopReason: 'guardrail_intervened' })),
    );

    const streamed = await collect(tutor.stream(ask));

    expect(streamed.error).toMatchObject({ code: 'content_filtered', status: 422 });
    expect(streamed.events.some((event) => event.type === 'done')).toBe(false);
  });

  it('answers upstream_error when the stream ends before the stop reason', async () => {
    fake.respondWith(
      converseStreamAnswer([
        converseEvent('messageStart', { role: 'assistant' }),
        converseEvent('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Saturn is' } }),
      ]),
    );

    expect((await collect(tutor.stream(ask))).error).toMatchObject({
      code: 'upstream_error',
      cause: { message: 'the answer ended before its stop reason' },
    });
  });

  it('refuses an error status before the stream as reply() does', async () => {
    fake.respondWith(awsError(429, 'ThrottlingException', 'slow down'));

    const streamed = await collect(tutor.stream(ask));

    expect(streamed.events).toEqual([]);
    expect(streamed.error).toMatchObject({ code: 'rate_limited' });
  });

  it('gives up with upstream_timeout when the model goes quiet mid-reply (the idle deadline)', async () => {
    const never = gate();
    fake.respondWith(
      converseStreamAnswer(
        [
          converseEvent('messageStart', { role: 'assistant' }),
          converseEvent('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Saturn is a' } }),
          never.wait,
        ],
        { end: false },
      ),
    );

    // The whole deadline far beyond the test's own: only the idle deadline can end the reply in time.
    const patient = tutorWithDeadlines({ wholeMs: '60000', idleMs: '1000' });

    const streamed = await collect(patient.stream(ask));

    expect(streamed.text).toBe('Saturn is a');
    expect(streamed.error).toMatchObject({ code: 'upstream_timeout', status: 504 });
    never.open();
  });

  it('hears to the end a model that talks for longer than the idle deadline, each piece within it', async () => {
    const talkative = tutorWithDeadlines({ wholeMs: '20000', idleMs: '1000' });
    const words = 'Saturn has rings of ice and rock that stretch far into space.'.split(/(?<= )/);
    const pause = () => new Promise<void>((resolve) => setTimeout(resolve, 150));
    // About 15 events 150 ms apart: the reply lasts over twice the idle deadline, and no gap comes near it
    // even on a machine busy enough to stretch one several times over.
    fake.respondWith(converseStreamAnswer(converseStreamEvents(words).flatMap((event) => [event, pause])));

    const streamed = await collect(talkative.stream(ask));

    expect(streamed.error).toBeUndefined();
    expect(doneReply(streamed.events)).toEqual({ response: words.join('') });
  });

  it('gives up with upstream_timeout when a model that keeps talking passes the whole deadline', async () => {
    const chatty = tutorWithDeadlines({ wholeMs: '300', idleMs: '200' });
    fake.respondWith(async (_request, response) => {
      response.writeHead(200, { 'Content-Type': 'application/vnd.amazon.eventstream' });
      response.write(converseEvent('messageStart', { role: 'assistant' }));
      while (!response.destroyed && !response.writableEnded) {
        response.write(converseEvent('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'la ' } }));
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    });

    const streamed = await collect(chatty.stream(ask));

    expect(streamed.text.length).toBeGreaterThan(0);
    expect(streamed.error).toMatchObject({ code: 'upstream_timeout' });
  });
});

function fail(): never {
  throw new Error('missing request');
}
