import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTutorConfig } from '#lambdas/config';
import { createBedrockTutor } from '#lambdas/tutor/bedrock-tutor';
import type { Tutor } from '#lambdas/tutor/tutor';
import {
  answersInTurn,
  converseAnswer,
  converseStreamAnswer,
  converseStreamEvents,
  pictureBlock,
  routesInTurn,
  startBedrockFake,
  textBlock,
} from '#support/bedrock-fake';
import type { FakeServer } from '#support/loopback';
import { collect, doneReply } from '#support/tutor-stream';

// The Bedrock answers a tutor must refuse or read with care (docs/behaviour.md §13.5–§13.7): a malformed
// stop, a reply with no words, tools other than show_picture, a picture whose input cannot be read.

const ask = { userMessage: 'Tell me about Saturn', language: 'en-US' as const, history: [] };
// Another tool, even one whose input has a prompt, is never a picture.
const otherTool = { toolUse: { toolUseId: 'tool-9', name: 'look_up', input: { prompt: 'Saturn' } } };

describe('Bedrock answers read with care', () => {
  let fake: FakeServer;
  let tutor: Tutor;

  beforeAll(async () => {
    fake = await startBedrockFake(answersInTurn(converseAnswer([textBlock('Hi!')])));
    tutor = createBedrockTutor(
      readTutorConfig({
        ASTRO_MODEL: 'bedrock',
        BEDROCK_ENDPOINT: fake.url,
        MODEL_TIMEOUT_MS: '2000',
        MODEL_IDLE_TIMEOUT_MS: '1000',
      }),
    );
  });
  afterAll(() => fake.close());

  it.each(['malformed_model_output', 'malformed_tool_use'])(
    'answers upstream_error (502) for a %s stop, whole or streamed',
    async (stopReason) => {
      fake.respondWith(answersInTurn(converseAnswer([textBlock('Half a')], stopReason)));
      await expect(tutor.reply(ask)).rejects.toMatchObject({ code: 'upstream_error', status: 502 });

      fake.respondWith(converseStreamAnswer(converseStreamEvents(['Half a'], { stopReason })));
      expect((await collect(tutor.stream(ask))).error).toMatchObject({ code: 'upstream_error' });
    },
  );

  it('answers content_filtered for a guardrail stop', async () => {
    fake.respondWith(answersInTurn(converseAnswer([textBlock('Well')], 'guardrail_intervened')));
    await expect(tutor.reply(ask)).rejects.toMatchObject({ code: 'content_filtered' });
  });

  it('answers upstream_error when the model says nothing and calls no tool, whole or streamed', async () => {
    // The log (the error's cause) says why.
    const why = { cause: { message: 'the model returned no text' } };
    fake.respondWith(answersInTurn(converseAnswer([])));
    await expect(tutor.reply(ask)).rejects.toMatchObject({ code: 'upstream_error', ...why });

    fake.respondWith(converseStreamAnswer(converseStreamEvents([])));
    const streamed = await collect(tutor.stream(ask));
    expect(streamed.events).toEqual([]);
    expect(streamed.error).toMatchObject({ code: 'upstream_error', ...why });
  });

  it('answers upstream_error when the model is still silent after the picture, streamed', async () => {
    const toolOnly = converseStreamEvents([], {
      tools: [{ toolUseId: 'tool-1', name: 'show_picture', input: ['{"prompt":"Saturn"}'] }],
    });
    fake.respondWith(routesInTurn(converseStreamAnswer(toolOnly), converseStreamAnswer(toolOnly)));

    const streamed = await collect(tutor.stream(ask));

    expect(streamed.events.map((event) => event.type)).toEqual(['picture']);
    expect(streamed.error).toMatchObject({
      code: 'upstream_error',
      cause: { message: 'the model returned no text after the tool' },
    });
  });

  it('draws no picture for another tool, and takes the words beside it', async () => {
    fake.respondWith(answersInTurn(converseAnswer([textBlock('Saturn has rings.'), otherTool], 'tool_use')));
    expect(await tutor.reply(ask)).toStrictEqual({ response: 'Saturn has rings.' });

    fake.respondWith(
      converseStreamAnswer(
        converseStreamEvents(['Saturn has rings.'], {
          tools: [{ toolUseId: 'tool-9', name: 'look_up', input: ['{"prompt":"Saturn"}'] }],
        }),
      ),
    );
    const streamed = await collect(tutor.stream(ask));
    expect(streamed.events.map((event) => event.type)).toEqual(['delta', 'done']);
    expect(doneReply(streamed.events)).toStrictEqual({ response: 'Saturn has rings.' });
  });

  it('answers upstream_error when the answer holds no message, saying so', async () => {
    for (const output of [{}, { message: { role: 'assistant' } }]) {
      fake.respondWith(
        answersInTurn({ output, stopReason: 'end_turn', usage: {}, metrics: { latencyMs: 1 } }),
      );
      await expect(tutor.reply(ask)).rejects.toMatchObject({
        code: 'upstream_error',
        cause: { message: 'no message in the answer' },
      });
    }
  });

  it('streams the last characters held back until the end, so the words streamed are the reply', async () => {
    fake.respondWith(converseStreamAnswer(converseStreamEvents(['Bold text starts with ', '<b'])));
    const streamed = await collect(tutor.stream(ask));
    expect(streamed.text).toBe('Bold text starts with <b');
    expect(doneReply(streamed.events)).toEqual({ response: 'Bold text starts with <b' });
  });

  it('streams the characters held back at the end of the follow-up, after a picture-only answer', async () => {
    const pictureOnly = converseStreamEvents([], {
      tools: [{ toolUseId: 'tool-1', name: 'show_picture', input: ['{"prompt":"Saturn"}'] }],
    });
    const words = converseStreamEvents(['Bold text starts with ', '<b']);
    fake.respondWith(routesInTurn(converseStreamAnswer(pictureOnly), converseStreamAnswer(words)));

    const streamed = await collect(tutor.stream(ask));

    expect(streamed.text).toBe('Bold text starts with <b');
    expect(doneReply(streamed.events)).toEqual({
      response: 'Bold text starts with <b',
      imagePrompt: 'Saturn',
    });
  });

  it('takes the picture of the follow-up when the first tool call’s input could not be read, streamed', async () => {
    const unreadable = converseStreamEvents([], {
      tools: [{ toolUseId: 'tool-1', name: 'show_picture', input: ['{"prompt": "Sat'] }],
    });
    const withPicture = converseStreamEvents(['Here is Saturn.'], {
      tools: [{ toolUseId: 'tool-2', name: 'show_picture', input: ['{"prompt":"Saturn and its rings"}'] }],
    });
    fake.respondWith(routesInTurn(converseStreamAnswer(unreadable), converseStreamAnswer(withPicture)));

    const streamed = await collect(tutor.stream(ask));

    expect(streamed.error).toBeUndefined();
    expect(streamed.events.filter((event) => event.type === 'picture')).toEqual([
      { type: 'picture', imagePrompt: 'Saturn and its rings' },
    ]);
    expect(doneReply(streamed.events)).toEqual({
      response: 'Here is Saturn.',
      imagePrompt: 'Saturn and its rings',
    });
  });

  it('keeps the first picture and sends it once, when the follow-up asks for another', async () => {
    const first = converseStreamEvents([], {
      tools: [{ toolUseId: 'tool-1', name: 'show_picture', input: ['', '{"prompt":"Jupiter"}'] }],
    });
    const second = converseStreamEvents(['Here is Jupiter.'], {
      tools: [{ toolUseId: 'tool-2', name: 'show_picture', input: ['{"prompt":"Mars"}'] }],
    });
    fake.respondWith(routesInTurn(converseStreamAnswer(first), converseStreamAnswer(second)));

    const streamed = await collect(tutor.stream(ask));

    expect(streamed.events.filter((event) => event.type === 'picture')).toEqual([
      { type: 'picture', imagePrompt: 'Jupiter' },
    ]);
    expect(doneReply(streamed.events)).toEqual({ response: 'Here is Jupiter.', imagePrompt: 'Jupiter' });
  });

  it('takes the first readable picture prompt of a whole answer', async () => {
    fake.respondWith(
      answersInTurn(
        converseAnswer(
          [
            textBlock('Look at this.'),
            { toolUse: { toolUseId: 'a', name: 'show_picture', input: { prompt: '   ' } } },
            pictureBlock('The Moon', 'b'),
          ],
          'tool_use',
        ),
      ),
    );
    expect(await tutor.reply(ask)).toEqual({ response: 'Look at this.', imagePrompt: 'The Moon' });
  });
});
