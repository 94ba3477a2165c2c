import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readTutorConfig } from '#lambdas/config';
import { initMessage } from '#contract/languages';
import { createBedrockTutor } from '#lambdas/tutor/bedrock-tutor';
import { referenceNotes } from '#lambdas/tutor/grounding';
import { initInstruction, PICTURE_SHOWN, systemPrompt } from '#lambdas/tutor/system-prompt';
import type { Tutor } from '#lambdas/tutor/tutor';
import {
  answersInTurn,
  awsError,
  bedrockCall,
  converseAnswer,
  jsonOf,
  notJson,
  pictureBlock,
  startBedrockFake,
  textBlock,
} from '#support/bedrock-fake';
import { hang, type FakeServer } from '#support/loopback';
import { readLessonsFirst } from '#support/lessons';

interface ConverseBody {
  system: { text: string }[];
  messages: { role: string; content: Record<string, unknown>[] }[];
  inferenceConfig: { maxTokens: number };
  toolConfig: { tools: { toolSpec: { name: string; inputSchema: { json: unknown } } }[] };
}

describe('the Bedrock tutor (real Converse client against a loopback fake)', () => {
  let fake: FakeServer;
  let tutor: Tutor;

  beforeAll(async () => {
    // Grounding reads a language's lessons on its first use: read before the models' short deadlines.
    await readLessonsFirst('en-US', 'es-ES', 'fr-FR', 'ja-JP');
    fake = await startBedrockFake(answersInTurn(converseAnswer([textBlock('Hello!')])));
    tutor = createBedrockTutor(
      readTutorConfig({
        ASTRO_MODEL: 'bedrock',
        BEDROCK_ENDPOINT: fake.url,
        // Far from a busy machine's pauses: the deadline's own test builds a tutor with 400 ms.
        MODEL_TIMEOUT_MS: '20000',
        MODEL_MAX_TOKENS: '300',
      }),
    );
  });
  afterAll(() => fake.close());
  beforeEach(() => {
    fake.requests.length = 0;
  });

  const ask = (userMessage: string, language: 'en-US' | 'fr-FR' = 'en-US', history = []) =>
    tutor.reply({ userMessage, language, history });
  const sent = (index = 0) => {
    const request = fake.requests[index];
    if (!request) throw new Error(`no request ${index}`);
    return request;
  };

  it('sends one Converse request to the configured model and returns the plain reply', async () => {
    fake.respondWith(
      answersInTurn(converseAnswer([textBlock('Saturne est une planète géante. Tu vois ses anneaux ?')])),
    );

    const reply = await ask('Parle-moi de Saturne', 'fr-FR');

    expect(reply).toEqual({ response: 'Saturne est une planète géante. Tu vois ses anneaux ?' });
    expect(fake.requests).toHaveLength(1);
    expect(sent().method).toBe('POST');
    expect(bedrockCall(sent())).toEqual({ modelId: 'us.amazon.nova-2-lite-v1:0', operation: 'converse' });
    // Signed with the fixed dummy credentials of an endpoint override, never a machine's real ones.
    expect(sent().headers.authorization).toContain('Credential=local/');
    const body = jsonOf<ConverseBody>(sent());
    // The French Saturn lesson grounds the reply (docs/behaviour.md §17.6); grounding.test.ts has the details.
    const notes = await referenceNotes('Parle-moi de Saturne', 'fr-FR', 'teen');
    expect(notes.map((note) => note.topic)).toContain('Saturne');
    expect(body.system).toEqual([{ text: systemPrompt('fr-FR', 'teen', notes) }]);
    expect(body.system[0]?.text).toContain('Always reply in French');
    expect(body.messages).toEqual([{ role: 'user', content: [{ text: 'Parle-moi de Saturne' }] }]);
    expect(body.inferenceConfig.maxTokens).toBe(300);
    expect(body.toolConfig.tools.map((tool) => tool.toolSpec.name)).toEqual([
      'show_picture',
      'check_answer',
      'ask_check_question',
    ]);
  });

  it('returns the show_picture prompt beside the text when the model calls the tool', async () => {
    fake.respondWith(
      answersInTurn(
        converseAnswer(
          [textBlock('Saturn has bright rings.'), pictureBlock('Saturn and its rings seen from above')],
          'tool_use',
        ),
      ),
    );

    const reply = await ask('Show me Saturn');

    expect(reply).toEqual({
      response: 'Saturn has bright rings.',
      imagePrompt: 'Saturn and its rings seen from above',
    });
    expect(fake.requests).toHaveLength(1);
  });

  it('asks once more for the spoken words when the model only calls the tool', async () => {
    fake.respondWith(
      answersInTurn(
        converseAnswer([pictureBlock('A spiral galaxy seen face-on', 'tool-7')], 'tool_use'),
        converseAnswer([textBlock('Here is a spiral galaxy. Can you spot its arms?')]),
      ),
    );

    const reply = await ask('What does a galaxy look like?');

    expect(reply).toEqual({
      response: 'Here is a spiral galaxy. Can you spot its arms?',
      imagePrompt: 'A spiral galaxy seen face-on',
    });
    expect(fake.requests).toHaveLength(2);
    expect(jsonOf<ConverseBody>(sent(1)).messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: [
          {
            toolUse: {
              toolUseId: 'tool-7',
              name: 'show_picture',
              input: { prompt: 'A spiral galaxy seen face-on' },
            },
          },
        ],
      },
      {
        role: 'user',
        content: [
          { toolResult: { toolUseId: 'tool-7', content: [{ text: PICTURE_SHOWN }], status: 'success' } },
        ],
      },
    ]);
  });

  it('normalises the history so it starts with the learner and alternates roles', async () => {
    await tutor.reply({
      userMessage: 'And its moons?',
      language: 'en-US',
      history: [
        { role: 'assistant', content: 'Hi, I am Astro! What shall we explore?' },
        { role: 'user', content: 'Jupiter' },
        { role: 'user', content: 'the big planet' },
        { role: 'assistant', content: 'Jupiter is the largest planet.' },
        { role: 'assistant', content: 'Shall I tell you about its storms?' },
        { role: 'user', content: '   ' },
      ],
    });

    expect(jsonOf<ConverseBody>(sent()).messages).toEqual([
      { role: 'user', content: [{ text: initInstruction('en-US') }] },
      { role: 'assistant', content: [{ text: 'Hi, I am Astro! What shall we explore?' }] },
      { role: 'user', content: [{ text: 'Jupiter\n\nthe big planet' }] },
      {
        role: 'assistant',
        content: [{ text: 'Jupiter is the largest planet.\n\nShall I tell you about its storms?' }],
      },
      { role: 'user', content: [{ text: 'And its moons?' }] },
    ]);
  });

  it('replaces the __INIT__ marker with the greeting instruction and never sends the marker', async () => {
    await ask(initMessage('fr-FR'), 'fr-FR');

    const raw = sent().body.toString('utf8');
    expect(raw).not.toContain('__INIT__');
    expect(jsonOf<ConverseBody>(sent()).messages).toEqual([
      { role: 'user', content: [{ text: initInstruction('fr-FR') }] },
    ]);
    expect(initInstruction('fr-FR')).toMatch(/introduce yourself as Astro/);
    expect(initInstruction('fr-FR')).toContain('French');
  });

  it('drops the thinking the model writes in <thinking> tags', async () => {
    fake.respondWith(
      answersInTurn(
        converseAnswer([
          textBlock('<thinking>The learner wants Mars.</thinking> Mars is red because of rust.'),
        ]),
      ),
    );

    expect(await ask('Why is Mars red?')).toStrictEqual({ response: 'Mars is red because of rust.' });
  });

  it.each([
    ['ThrottlingException', 429, 'rate_limited'],
    ['ServiceQuotaExceededException', 400, 'rate_limited'],
    ['InternalServerException', 500, 'upstream_error'],
    ['ServiceUnavailableException', 503, 'upstream_error'],
    ['AccessDeniedException', 403, 'upstream_error'],
    ['ResourceNotFoundException', 404, 'upstream_error'],
    ['ModelTimeoutException', 408, 'upstream_timeout'],
  ])('answers %s (HTTP %i) with %s', async (errorType, status, code) => {
    fake.respondWith(awsError(status, errorType, 'upstream detail that must stay private'));

    await expect(ask('Hello')).rejects.toMatchObject({ code });
  });

  it('answers a guardrail or content block with content_filtered', async () => {
    fake.respondWith(answersInTurn(converseAnswer([textBlock('Sorry.')], 'guardrail_intervened')));
    await expect(ask('Something unsafe')).rejects.toMatchObject({ code: 'content_filtered', status: 422 });

    fake.respondWith(answersInTurn(converseAnswer([], 'content_filtered')));
    await expect(ask('Something unsafe')).rejects.toMatchObject({ code: 'content_filtered', status: 422 });
  });

  it('gives up with upstream_timeout when the model hangs past the deadline', async () => {
    fake.respondWith(hang);
    const impatient = createBedrockTutor(
      readTutorConfig({ ASTRO_MODEL: 'bedrock', BEDROCK_ENDPOINT: fake.url, MODEL_TIMEOUT_MS: '400' }),
    );

    await expect(
      impatient.reply({ userMessage: 'Are you there?', language: 'en-US', history: [] }),
    ).rejects.toMatchObject({ code: 'upstream_timeout', status: 504 });
  });

  it('answers a reply that is not JSON with upstream_error', async () => {
    fake.respondWith(notJson());

    await expect(ask('Hello')).rejects.toMatchObject({ code: 'upstream_error', status: 502 });
  });

  it.each([
    ['no content blocks', converseAnswer([])],
    ['only blank text', converseAnswer([textBlock('   ')])],
    ['only thinking', converseAnswer([textBlock('<thinking>hmm</thinking>')])],
    ['no message at all', { stopReason: 'end_turn', usage: {} }],
    ['a malformed model output', converseAnswer([textBlock('Hi')], 'malformed_model_output')],
  ])('answers a reply with %s with upstream_error, never an empty bubble', async (_case, body) => {
    fake.respondWith(answersInTurn(body));

    await expect(ask('Hello')).rejects.toMatchObject({ code: 'upstream_error', status: 502 });
  });

  it('answers upstream_error when the model still says nothing after the tool result', async () => {
    fake.respondWith(answersInTurn(converseAnswer([pictureBlock('The Moon')], 'tool_use')));

    await expect(ask('Show me the Moon')).rejects.toMatchObject({ code: 'upstream_error' });
    expect(fake.requests).toHaveLength(2);
  });

  it('answers upstream_error when nothing listens at the endpoint', async () => {
    const closed = await startBedrockFake(hang);
    await closed.close();
    const unreachable = createBedrockTutor(
      readTutorConfig({ ASTRO_MODEL: 'bedrock', BEDROCK_ENDPOINT: closed.url }),
    );

    await expect(
      unreachable.reply({ userMessage: 'Hello', language: 'en-US', history: [] }),
    ).rejects.toMatchObject({ code: 'upstream_error' });
  });
});
