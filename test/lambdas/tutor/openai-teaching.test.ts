/**
 * Teaching on OpenAI-compatible servers (docs/behaviour.md §17.2, §17.6, §17.9): the check tools read
 * from `tool_calls` in a JSON completion and from streamed arguments in SSE chunks, the level and the
 * reference notes in the system prompt. Platform fetch against the loopback fake.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readTutorConfig } from '#lambdas/config';
import type { Locale } from '#contract/languages';
import { CHECK_NOTED } from '#lambdas/tutor/check-tools';
import { createOpenAiTutor } from '#lambdas/tutor/openai-tutor';
import type { Tutor, TutorRequest } from '#lambdas/tutor/tutor';
import { answersInTurn, jsonOf, routesInTurn } from '#support/bedrock-fake';
import { lessonNote, readLessonsFirst } from '#support/lessons';
import { startFakeServer, type FakeRoute, type FakeServer } from '#support/loopback';
import {
  completion,
  completionChunk,
  sseAnswer,
  sseData,
  streamedCompletion,
  type FakeToolCall,
} from '#support/openai-fake';
import { collect, doneReply } from '#support/tutor-stream';

interface CompletionBody {
  stream?: boolean;
  messages: { role: string; content: string | null; tool_calls?: unknown; tool_call_id?: string }[];
}

const call = (name: string, args: string, id = 'call_c'): FakeToolCall => ({
  id,
  type: 'function',
  function: { name, arguments: args },
});

/** The learner answers Astro's check question. */
const answering: TutorRequest = {
  userMessage: 'Eight?',
  language: 'en-US',
  history: [
    { role: 'user', content: 'Tell me about the planets' },
    { role: 'assistant', content: 'The planets all circle the Sun. How many planets are there?' },
  ],
};

/** The same model output as a whole completion (for reply()) and as SSE chunks (for stream()). */
function sameOutput(whole: FakeRoute, streamed: FakeRoute): FakeRoute {
  return (request, response) =>
    jsonOf<CompletionBody>(request).stream === true ? streamed(request, response) : whole(request, response);
}

describe('the OpenAI-compatible tutor teaching (platform fetch, loopback fake)', () => {
  let fake: FakeServer;
  let tutor: Tutor;

  beforeAll(async () => {
    // Grounding reads a language's lessons on its first use: read before the models' short deadlines.
    await readLessonsFirst('en-US', 'es-ES', 'fr-FR', 'ja-JP');
    fake = await startFakeServer(answersInTurn(completion({ content: 'Hi!' })));
    tutor = createOpenAiTutor(
      readTutorConfig({
        ASTRO_MODEL: 'openai',
        OPENAI_BASE_URL: `${fake.url}/v1`,
        OPENAI_MODEL: 'llama3.2',
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
    return jsonOf<CompletionBody>(request);
  };
  const systemOf = (index: number) => body(index).messages[0]?.content ?? '';

  it('reports check_answer({correct}) from tool_calls, JSON and streamed arguments alike', async () => {
    fake.respondWith(
      sameOutput(
        answersInTurn(
          completion({
            content: 'Yes, eight planets! Well done.',
            toolCalls: [call('check_answer', '{"correct": true}')],
          }),
        ),
        sseAnswer([
          sseData(completionChunk({ content: 'Yes, eight planets!' })),
          sseData(
            completionChunk({ toolCalls: [{ index: 0, id: 'call_c', name: 'check_answer', arguments: '' }] }),
          ),
          sseData(completionChunk({ toolCalls: [{ index: 0, arguments: '{"corr' }] })),
          sseData(completionChunk({ toolCalls: [{ index: 0, arguments: 'ect": true}' }] })),
          sseData(completionChunk({ content: ' Well done.' })),
          sseData(completionChunk({ finishReason: 'tool_calls' })),
          'data: [DONE]\n\n',
        ]),
      ),
    );

    const replied = await tutor.reply(answering);
    const streamed = await collect(tutor.stream(answering));

    expect(replied).toEqual({
      response: 'Yes, eight planets! Well done.',
      check: { type: 'answer', correct: true },
    });
    expect(streamed.error).toBeUndefined();
    expect(doneReply(streamed.events)).toEqual(replied);
    expect(fake.requests).toHaveLength(2);
  });

  it('reports a check question from ask_check_question called with empty arguments', async () => {
    const request: TutorRequest = { userMessage: 'What is a comet?', language: 'en-US', history: [] };
    fake.respondWith(
      sameOutput(
        answersInTurn(
          completion({
            content: 'A comet is a ball of ice and dust. What grows when it nears the Sun?',
            toolCalls: [call('ask_check_question', '')],
          }),
        ),
        sseAnswer([
          sseData(completionChunk({ content: 'A comet is a ball of ice and dust.' })),
          sseData(completionChunk({ content: ' What grows when it nears the Sun?' })),
          sseData(completionChunk({ toolCalls: [{ index: 0, id: 'call_q', name: 'ask_check_question' }] })),
          sseData(completionChunk({ finishReason: 'tool_calls' })),
          'data: [DONE]\n\n',
        ]),
      ),
    );

    const replied = await tutor.reply(request);
    const streamed = await collect(tutor.stream(request));

    expect(replied).toEqual({
      response: 'A comet is a ball of ice and dust. What grows when it nears the Sun?',
      check: { type: 'question' },
    });
    expect(doneReply(streamed.events)).toEqual(replied);
  });

  it('asks once more for words when the model only reports the check, and keeps the check', async () => {
    fake.respondWith(
      sameOutput(
        answersInTurn(
          completion({ toolCalls: [call('check_answer', '{"correct":false}', 'call_7')] }),
          completion({ content: 'Not quite. Hint: count from Mercury to Neptune. Try again?' }),
        ),
        routesInTurn(
          sseAnswer([
            sseData(
              completionChunk({
                toolCalls: [{ index: 0, id: 'call_7', name: 'check_answer', arguments: '{"correct":false}' }],
              }),
            ),
            sseData(completionChunk({ finishReason: 'tool_calls' })),
            'data: [DONE]\n\n',
          ]),
          sseAnswer(streamedCompletion(['Not quite. Hint: count from', ' Mercury to Neptune. Try again?'])),
        ),
      ),
    );

    const replied = await tutor.reply(answering);
    const streamed = await collect(tutor.stream(answering));

    expect(replied).toEqual({
      response: 'Not quite. Hint: count from Mercury to Neptune. Try again?',
      check: { type: 'answer', correct: false },
    });
    expect(doneReply(streamed.events)).toEqual(replied);
    for (const followUp of [body(1), body(3)]) {
      expect(followUp.messages.at(-1)).toEqual({
        role: 'tool',
        tool_call_id: 'call_7',
        content: CHECK_NOTED,
      });
    }
  });

  it('leaves the check out when the arguments are not {correct: boolean}, and still answers', async () => {
    fake.respondWith(
      sameOutput(
        answersInTurn(
          completion({
            content: 'Good try! There are eight.',
            toolCalls: [call('check_answer', '{"correct":"maybe"}')],
          }),
        ),
        sseAnswer([
          sseData(completionChunk({ content: 'Good try! There are eight.' })),
          sseData(
            completionChunk({
              toolCalls: [{ index: 0, id: 'call_c', name: 'check_answer', arguments: '{"corr' }],
            }),
          ),
          sseData(completionChunk({ finishReason: 'tool_calls' })),
          'data: [DONE]\n\n',
        ]),
      ),
    );

    const replied = await tutor.reply(answering);
    const streamed = await collect(tutor.stream(answering));

    expect(replied).toEqual({ response: 'Good try! There are eight.' });
    expect(streamed.error).toBeUndefined();
    expect(doneReply(streamed.events)).toEqual({ response: 'Good try! There are eight.' });
  });

  it('tells a Young explorer and a Teen apart in the system prompt', async () => {
    fake.respondWith(answersInTurn(completion({ content: 'Hi!' })));

    await tutor.reply({ userMessage: 'Hello', language: 'en-US', history: [], level: 'child' });
    await collect(tutor.stream({ userMessage: 'Hello', language: 'en-US', history: [], level: 'teen' }));

    expect(systemOf(0)).toMatch(/young explorer aged 8 to 11/);
    expect(systemOf(1)).toMatch(/teenager aged 12 to 15/);
    expect(systemOf(0)).not.toBe(systemOf(1));
  });

  describe('grounded facts (docs/behaviour.md §17.6)', () => {
    const cases: readonly (readonly [Locale, string, string, string])[] = [
      ['en-US', 'What is a black hole?', 'black-holes', 'Can you sing me a song about cats?'],
      ['fr-FR', "Qu'est-ce qu'un trou noir ?", 'black-holes', 'Quelle est ta recette de gâteau préférée ?'],
      ['es-ES', '¿Qué es un agujero negro?', 'black-holes', '¿Cuál es tu comida favorita?'],
      ['ja-JP', 'ブラックホールって何？', 'black-holes', '好きな食べ物は何ですか？'],
    ];

    it.each(cases)(
      'in %s, gives the model the matching lesson for "%s"',
      async (language, question, topic) => {
        fake.respondWith(answersInTurn(completion({ content: 'Hi!' })));

        await tutor.reply({ userMessage: question, language, history: [] });
        await collect(tutor.stream({ userMessage: question, language, history: [] }));

        for (const index of [0, 1]) {
          expect(systemOf(index)).toMatch(/Reference notes: .*Do not contradict them/);
          expect(systemOf(index)).toContain(`\n${lessonNote(language, topic, question)}`);
        }
      },
    );

    it.each(cases)(
      'in %s, gives no notes for an unrelated message',
      async (language, _question, _topic, other) => {
        fake.respondWith(answersInTurn(completion({ content: 'Hi!' })));

        await tutor.reply({ userMessage: other, language, history: [] });

        expect(systemOf(0)).not.toContain('Reference notes');
      },
    );
  });
});
