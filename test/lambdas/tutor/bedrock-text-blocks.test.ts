import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTutorConfig } from '#lambdas/config';
import { createBedrockTutor } from '#lambdas/tutor/bedrock-tutor';
import type { Tutor } from '#lambdas/tutor/tutor';
import {
  answersInTurn,
  converseAnswer,
  converseEvent,
  converseStreamAnswer,
  startBedrockFake,
  textBlock,
} from '#support/bedrock-fake';
import type { FakeServer } from '#support/loopback';
import { collect, doneReply } from '#support/tutor-stream';

// A Converse answer may split its words over several text blocks (docs/behaviour.md §13.6): they are one
// reply, joined by a space, whether it comes whole (reply) or in pieces (stream).

const ask = { userMessage: 'Tell me about Saturn', language: 'en-US' as const, history: [] };
const blocks = ['Saturn has rings.', 'They are made of ice.'];

/** The same two text blocks as ConverseStream events: block 0 in two pieces, then block 1. */
function twoBlockEvents() {
  return [
    converseEvent('messageStart', { role: 'assistant' }),
    converseEvent('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Saturn has' } }),
    converseEvent('contentBlockDelta', { contentBlockIndex: 0, delta: { text: ' rings.' } }),
    converseEvent('contentBlockStop', { contentBlockIndex: 0 }),
    converseEvent('contentBlockDelta', { contentBlockIndex: 1, delta: { text: 'They are made of ice.' } }),
    converseEvent('contentBlockStop', { contentBlockIndex: 1 }),
    converseEvent('messageStop', { stopReason: 'end_turn' }),
  ];
}

describe('the Bedrock tutor with an answer in several text blocks', () => {
  let fake: FakeServer;
  let tutor: Tutor;

  beforeAll(async () => {
    fake = await startBedrockFake(answersInTurn(converseAnswer(blocks.map(textBlock))));
    tutor = createBedrockTutor(
      readTutorConfig({ ASTRO_MODEL: 'bedrock', BEDROCK_ENDPOINT: fake.url, MODEL_TIMEOUT_MS: '2000' }),
    );
  });
  afterAll(() => fake.close());

  it('joins the blocks of a whole answer with a space', async () => {
    fake.respondWith(answersInTurn(converseAnswer(blocks.map(textBlock))));

    expect(await tutor.reply(ask)).toEqual({ response: 'Saturn has rings. They are made of ice.' });
  });

  it('joins them with a space as they stream, and ends with the same reply', async () => {
    fake.respondWith(converseStreamAnswer(twoBlockEvents()));

    const streamed = await collect(tutor.stream(ask));

    expect(streamed.error).toBeUndefined();
    expect(streamed.text).toBe('Saturn has rings. They are made of ice.');
    expect(doneReply(streamed.events)).toEqual({ response: 'Saturn has rings. They are made of ice.' });
  });
});
