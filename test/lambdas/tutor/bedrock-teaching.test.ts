/**
 * Teaching on Bedrock (docs/behaviour.md §17.2, §17.6, §17.9): the check tools read from Converse toolUse
 * blocks and from ConverseStream's streamed toolUse input, the level and the reference notes in the
 * system prompt. Real Bedrock Runtime client against the loopback fake.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readTutorConfig } from '#lambdas/config';
import { CHECK_NOTED } from '#lambdas/tutor/check-tools';
import { createBedrockTutor } from '#lambdas/tutor/bedrock-tutor';
import type { Tutor, TutorRequest } from '#lambdas/tutor/tutor';
import {
  answersInTurn,
  bedrockCall,
  converseAnswer,
  converseStreamAnswer,
  converseStreamEvents,
  jsonOf,
  pictureBlock,
  routesInTurn,
  startBedrockFake,
  textBlock,
  type ConverseBlock,
} from '#support/bedrock-fake';
import type { FakeRoute, FakeServer } from '#support/loopback';
import { lessonNote, readLessonsFirst } from '#support/lessons';
import { collect, doneReply } from '#support/tutor-stream';

interface ConverseBody {
  system: { text: string }[];
  messages: { role: string; content: Record<string, unknown>[] }[];
}

const toolBlock = (name: string, input: Record<string, unknown>, toolUseId = 'tool-c'): ConverseBlock => ({
  toolUse: { toolUseId, name, input },
});

/** The learner answers Astro's check question. */
const answering: TutorRequest = {
  userMessage: 'Because it has no light of its own?',
  language: 'en-US',
  history: [
    { role: 'user', content: 'Tell me about the Moon' },
    {
      role: 'assistant',
      content: 'The Moon shines with light from the Sun. Where does its light come from?',
    },
  ],
};

/** The same model output as a Converse answer (for reply()) and as ConverseStream events (for stream()). */
function sameOutput(converse: FakeRoute, converseStream: FakeRoute): FakeRoute {
  return (request, response) =>
    bedrockCall(request).operation === 'converse-stream'
      ? converseStream(request, response)
      : converse(request, response);
}

describe('the Bedrock tutor teaching (real client, loopback fake)', () => {
  let fake: FakeServer;
  let tutor: Tutor;

  beforeAll(async () => {
    // Grounding reads a language's lessons on its first use: read before the models' short deadlines.
    await readLessonsFirst('en-US', 'es-ES', 'fr-FR', 'ja-JP');
    fake = await startBedrockFake(answersInTurn(converseAnswer([textBlock('Hi!')])));
    tutor = createBedrockTutor(
      readTutorConfig({
        ASTRO_MODEL: 'bedrock',
        BEDROCK_ENDPOINT: fake.url,
        MODEL_TIMEOUT_MS: '5000',
        MODEL_IDLE_TIMEOUT_MS: '1500',
      }),
    );
  });
  afterAll(() => fake.close());
  beforeEach(() => {
    fake.requests.length = 0;
  });
  const body = (index: number) => {
    const request = fake.requests[index];
    if (!request) throw new Error(`no request ${index}`);
    return jsonOf<ConverseBody>(request);
  };

  it('reports check_answer({correct}) from a Converse answer, whole and streamed alike', async () => {
    fake.respondWith(
      sameOutput(
        answersInTurn(
          converseAnswer(
            [
              textBlock('Not quite. Hint: look at the Sun. Try again?'),
              toolBlock('check_answer', { correct: false }),
            ],
            'tool_use',
          ),
        ),
        converseStreamAnswer(
          converseStreamEvents(['Not quite. Hint: look', ' at the Sun. Try again?'], {
            // The input arrives in pieces, as Bedrock streams it.
            tools: [{ toolUseId: 'tool-c', name: 'check_answer', input: ['{"corr', 'ect": fal', 'se}'] }],
          }),
        ),
      ),
    );

    const replied = await tutor.reply(answering);
    const streamed = await collect(tutor.stream(answering));

    expect(replied).toEqual({
      response: 'Not quite. Hint: look at the Sun. Try again?',
      check: { type: 'answer', correct: false },
    });
    expect(streamed.error).toBeUndefined();
    expect(doneReply(streamed.events)).toEqual(replied);
    // The reply had words: no follow-up call.
    expect(fake.requests).toHaveLength(2);
  });

  it('reports a check question from ask_check_question, beside a picture', async () => {
    fake.respondWith(
      sameOutput(
        answersInTurn(
          converseAnswer(
            [
              textBlock('Saturn has rings of ice. What are they made of?'),
              pictureBlock('Saturn and its rings', 'tool-p'),
              toolBlock('ask_check_question', {}, 'tool-q'),
            ],
            'tool_use',
          ),
        ),
        converseStreamAnswer(
          converseStreamEvents(['Saturn has rings of ice.', ' What are they made of?'], {
            tools: [
              { toolUseId: 'tool-p', name: 'show_picture', input: ['{"prompt":"Saturn and its rings"}'] },
              // No input at all: a tool without parameters.
              { toolUseId: 'tool-q', name: 'ask_check_question', input: [] },
            ],
          }),
        ),
      ),
    );
    const request: TutorRequest = { userMessage: 'Tell me about Saturn', language: 'en-US', history: [] };

    const replied = await tutor.reply(request);
    const streamed = await collect(tutor.stream(request));

    expect(replied).toEqual({
      response: 'Saturn has rings of ice. What are they made of?',
      imagePrompt: 'Saturn and its rings',
      check: { type: 'question' },
    });
    expect(doneReply(streamed.events)).toEqual(replied);
  });

  it('asks once more for words when the model only reports the check, and keeps the check', async () => {
    fake.respondWith(
      sameOutput(
        answersInTurn(
          converseAnswer([toolBlock('check_answer', { correct: true }, 'tool-9')], 'tool_use'),
          converseAnswer([textBlock('Yes, exactly! The Moon reflects sunlight.')]),
        ),
        routesInTurn(
          converseStreamAnswer(
            converseStreamEvents([], {
              tools: [{ toolUseId: 'tool-9', name: 'check_answer', input: ['{"correct":true}'] }],
            }),
          ),
          converseStreamAnswer(converseStreamEvents(['Yes, exactly!', ' The Moon reflects sunlight.'])),
        ),
      ),
    );

    const streamed = await collect(tutor.stream(answering));
    const replied = await tutor.reply(answering);

    expect(replied).toEqual({
      response: 'Yes, exactly! The Moon reflects sunlight.',
      check: { type: 'answer', correct: true },
    });
    expect(doneReply(streamed.events)).toEqual(replied);
    expect(streamed.text).toBe('Yes, exactly! The Moon reflects sunlight.');
    for (const followUp of [body(1), body(3)]) {
      expect(followUp.messages.at(-1)).toEqual({
        role: 'user',
        content: [
          { toolResult: { toolUseId: 'tool-9', content: [{ text: CHECK_NOTED }], status: 'success' } },
        ],
      });
    }
  });

  it('leaves the check out when the tool input is not {correct: boolean}, and still answers', async () => {
    fake.respondWith(
      sameOutput(
        answersInTurn(
          converseAnswer(
            [textBlock('Good thinking! It is sunlight.'), toolBlock('check_answer', { correct: 'yes' })],
            'tool_use',
          ),
        ),
        converseStreamAnswer(
          converseStreamEvents(['Good thinking! It is sunlight.'], {
            tools: [{ toolUseId: 'tool-c', name: 'check_answer', input: ['{"correct": tr'] }],
          }),
        ),
      ),
    );

    const replied = await tutor.reply(answering);
    const streamed = await collect(tutor.stream(answering));

    expect(replied).toEqual({ response: 'Good thinking! It is sunlight.' });
    expect(streamed.error).toBeUndefined();
    expect(doneReply(streamed.events)).toEqual({ response: 'Good thinking! It is sunlight.' });
  });

  it('tells a Young explorer and a Teen apart in the system prompt', async () => {
    fake.respondWith(answersInTurn(converseAnswer([textBlock('Hi!')])));

    await tutor.reply({ userMessage: 'Hello', language: 'en-US', history: [], level: 'child' });
    await tutor.reply({ userMessage: 'Hello', language: 'en-US', history: [], level: 'teen' });

    const [child, teen] = [body(0).system[0]?.text ?? '', body(1).system[0]?.text ?? ''];
    expect(child).toMatch(/young explorer aged 8 to 11/);
    expect(teen).toMatch(/teenager aged 12 to 15/);
    expect(child).not.toBe(teen);
  });

  it('gives the model the matching lesson as reference notes (What is a black hole?)', async () => {
    fake.respondWith(converseStreamAnswer(converseStreamEvents(['A black hole is very dense.'])));

    await collect(tutor.stream({ userMessage: 'What is a black hole?', language: 'en-US', history: [] }));

    const system = body(0).system[0]?.text ?? '';
    expect(system).toMatch(/Reference notes: .*Do not contradict them/);
    expect(system).toContain(`\n${lessonNote('en-US', 'black-holes', 'What is a black hole?')}`);
  });
});
