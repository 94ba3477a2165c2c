import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readTutorConfig, type Env } from '#lambdas/config';
import { initMessage } from '#contract/languages';
import { referenceNotes } from '#lambdas/tutor/grounding';
import { createOpenAiTutor } from '#lambdas/tutor/openai-tutor';
import { initInstruction, PICTURE_SHOWN, systemPrompt } from '#lambdas/tutor/system-prompt';
import type { Tutor } from '#lambdas/tutor/tutor';
import { answersInTurn, jsonOf, notJson } from '#support/bedrock-fake';
import { hang, startFakeServer, type FakeServer } from '#support/loopback';
import { completion, openAiError, pictureCall } from '#support/openai-fake';
import { readLessonsFirst } from '#support/lessons';

interface CompletionBody {
  model: string;
  messages: { role: string; content: string | null; tool_calls?: unknown; tool_call_id?: string }[];
  max_tokens?: number;
  max_completion_tokens?: number;
  tools?: { type: string; function: { name: string } }[];
  tool_choice?: string;
}

describe('the OpenAI-compatible tutor (platform fetch against a loopback fake)', () => {
  let fake: FakeServer;
  const tutorWith = (env: Env = {}): Tutor =>
    createOpenAiTutor(
      readTutorConfig({
        ASTRO_MODEL: 'openai',
        OPENAI_BASE_URL: `${fake.url}/v1/`,
        OPENAI_MODEL: 'llama3.2',
        MODEL_TIMEOUT_MS: '1500',
        ...env,
      }),
    );
  const ask = (tutor: Tutor, userMessage = 'Hello', language: 'en-US' | 'es-ES' = 'en-US') =>
    tutor.reply({ userMessage, language, history: [] });
  const body = (index = 0) => {
    const request = fake.requests[index];
    if (!request) throw new Error(`no request ${index}`);
    return jsonOf<CompletionBody>(request);
  };

  beforeAll(async () => {
    // Grounding reads a language's lessons on its first use: read before the models' short deadlines.
    await readLessonsFirst('en-US', 'es-ES', 'fr-FR', 'ja-JP');
    fake = await startFakeServer(answersInTurn(completion({ content: 'Hi!' })));
  });
  afterAll(() => fake.close());
  beforeEach(() => {
    fake.requests.length = 0;
  });

  it('posts one chat completion with the system prompt and the tool, and returns the plain reply', async () => {
    fake.respondWith(
      answersInTurn(completion({ content: 'La Luna gira alrededor de la Tierra. ¿Lo sabías?' })),
    );

    const reply = await ask(tutorWith(), '¿Qué es la Luna?', 'es-ES');

    expect(reply).toEqual({ response: 'La Luna gira alrededor de la Tierra. ¿Lo sabías?' });
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]?.method).toBe('POST');
    expect(fake.requests[0]?.url).toBe('/v1/chat/completions');
    expect(fake.requests[0]?.headers.authorization).toBeUndefined();
    expect(body()).toEqual({
      model: 'llama3.2',
      messages: [
        {
          role: 'system',
          content: systemPrompt('es-ES', 'teen', await referenceNotes('¿Qué es la Luna?', 'es-ES', 'teen')),
        },
        { role: 'user', content: '¿Qué es la Luna?' },
      ],
      max_tokens: 400,
      tools: ['show_picture', 'check_answer', 'ask_check_question'].map((name) =>
        expect.objectContaining({ type: 'function', function: expect.objectContaining({ name }) }),
      ),
      tool_choice: 'auto',
    });
  });

  it('drops the thinking a local reasoning model writes in <think> tags', async () => {
    fake.respondWith(
      answersInTurn(
        completion({ content: '<think>\nThe learner asks about Venus.\n</think>\n\nVenus is very hot.' }),
      ),
    );

    expect(await ask(tutorWith())).toEqual({ response: 'Venus is very hot.' });
  });

  it('sends the API key as a bearer token only when one is configured', async () => {
    await ask(tutorWith({ OPENAI_API_KEY: 'sk-test-key' }));

    expect(fake.requests[0]?.headers.authorization).toBe('Bearer sk-test-key');
  });

  it('returns the show_picture prompt beside the text when the model calls the function', async () => {
    fake.respondWith(
      answersInTurn(
        completion({
          content: 'Comets have long tails.',
          toolCalls: [pictureCall('A comet with a glowing tail')],
        }),
      ),
    );

    expect(await ask(tutorWith())).toEqual({
      response: 'Comets have long tails.',
      imagePrompt: 'A comet with a glowing tail',
    });
  });

  it('asks once more for the spoken words when the model only calls the function', async () => {
    fake.respondWith(
      answersInTurn(
        completion({ toolCalls: [pictureCall('The Sun with solar flares', 'call_9')] }),
        completion({ content: 'Here is our Sun. Do you know how hot it is?' }),
      ),
    );

    expect(await ask(tutorWith())).toEqual({
      response: 'Here is our Sun. Do you know how hot it is?',
      imagePrompt: 'The Sun with solar flares',
    });
    expect(body(1).messages.slice(2)).toEqual([
      { role: 'assistant', content: null, tool_calls: [pictureCall('The Sun with solar flares', 'call_9')] },
      { role: 'tool', tool_call_id: 'call_9', content: PICTURE_SHOWN },
    ]);
  });

  it('normalises the history and replaces the __INIT__ marker', async () => {
    await tutorWith().reply({
      userMessage: 'Tell me more',
      language: 'en-US',
      history: [
        { role: 'assistant', content: 'Hello, I am Astro.' },
        { role: 'assistant', content: 'What shall we explore?' },
        { role: 'user', content: initMessage('en-US') },
        { role: 'user', content: 'Black holes' },
      ],
    });

    expect(fake.requests[0]?.body.toString('utf8')).not.toContain('__INIT__');
    expect(body().messages.slice(1)).toEqual([
      { role: 'user', content: initInstruction('en-US') },
      { role: 'assistant', content: 'Hello, I am Astro.\n\nWhat shall we explore?' },
      { role: 'user', content: `${initInstruction('en-US')}\n\nBlack holes\n\nTell me more` },
    ]);
  });

  it.each([
    'llama3.2:1b does not support tools',
    'This model does not support tool use',
    'function calling is not enabled for this model',
  ])('retries without tools when the server refuses them (%s), and remembers it', async (refusal) => {
    let calls = 0;
    fake.respondWith((request, response) => {
      calls += 1;
      const sent = jsonOf<CompletionBody>(request);
      if (sent.tools) return openAiError(400, refusal)(request, response);
      return answersInTurn(completion({ content: `Plain answer ${calls}.` }))(request, response);
    });
    const tutor = tutorWith();

    // Exactly the reply: no picture and no check keys beside it.
    expect(await ask(tutor)).toStrictEqual({ response: 'Plain answer 2.' });
    expect(await ask(tutor)).toStrictEqual({ response: 'Plain answer 3.' });
    expect(fake.requests.map((request) => 'tools' in jsonOf(request))).toEqual([true, false, false]);
    // A whole reply is never asked for as a stream.
    expect(fake.requests.map((request) => 'stream' in jsonOf(request))).toEqual([false, false, false]);
  });

  it('gives up when the server goes on refusing max_tokens after the switch, or refuses a stream it was not asked for', async () => {
    fake.respondWith(openAiError(400, "Unsupported parameter: 'max_tokens'."));
    await expect(ask(tutorWith())).rejects.toMatchObject({ code: 'upstream_error' });
    expect(fake.requests).toHaveLength(2);

    fake.respondWith(openAiError(400, 'stream_options is not supported'));
    await expect(ask(tutorWith())).rejects.toMatchObject({ code: 'upstream_error' });
    expect(fake.requests).toHaveLength(3);
  });

  it('switches to max_completion_tokens when the server refuses max_tokens', async () => {
    fake.respondWith((request, response) => {
      const sent = jsonOf<CompletionBody>(request);
      if (sent.max_tokens !== undefined) {
        return openAiError(400, "Unsupported parameter: 'max_tokens'. Use 'max_completion_tokens'.")(
          request,
          response,
        );
      }
      return answersInTurn(completion({ content: 'Fine.' }))(request, response);
    });

    expect(await ask(tutorWith())).toEqual({ response: 'Fine.' });
    expect(body(1).max_completion_tokens).toBe(400);
    expect(body(1).tools).toBeDefined();
  });

  it.each([
    [429, 'Rate limit reached', 'rate_limited'],
    [500, 'internal failure', 'upstream_error'],
    [503, 'overloaded', 'upstream_error'],
    [401, 'Incorrect API key provided', 'upstream_error'],
    [404, 'model not found', 'upstream_error'],
    [400, 'something else is wrong', 'upstream_error'],
  ])('answers HTTP %i (%s) with %s', async (status, message, code) => {
    fake.respondWith(openAiError(status, message));

    await expect(ask(tutorWith())).rejects.toMatchObject({ code });
  });

  it('answers a content_filter finish or a content-filter refusal with content_filtered', async () => {
    fake.respondWith(answersInTurn(completion({ content: '', finishReason: 'content_filter' })));
    await expect(ask(tutorWith())).rejects.toMatchObject({ code: 'content_filtered', status: 422 });

    fake.respondWith(openAiError(400, 'The response was filtered by the content filter.', 'content_filter'));
    await expect(ask(tutorWith())).rejects.toMatchObject({ code: 'content_filtered', status: 422 });
  });

  it('gives up with upstream_timeout when the server hangs past the deadline', async () => {
    fake.respondWith(hang);

    await expect(ask(tutorWith())).rejects.toMatchObject({ code: 'upstream_timeout', status: 504 });
  });

  it.each([
    ['not JSON', notJson(), /^not JSON/],
    ['no choices', answersInTurn({ choices: [] }), /^not a chat completion/],
    ['an empty reply', answersInTurn(completion({ content: '' })), /^the model returned no text$/],
    ['a blank reply', answersInTurn(completion({ content: ' \n ' })), /^the model returned no text$/],
    [
      'no text after the function call',
      answersInTurn(completion({ toolCalls: [pictureCall('Mars')] })),
      /^the model returned no text after the tool$/,
    ],
  ])('answers %s with upstream_error, never an empty bubble', async (_case, route, why) => {
    fake.respondWith(route);

    const failure = await ask(tutorWith()).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toMatchObject({ code: 'upstream_error', status: 502 });
    // The log (the error's cause) says why.
    expect(String((failure as { cause?: { message?: unknown } }).cause?.message)).toMatch(why);
  });

  it('answers upstream_error when nothing listens at the base URL', async () => {
    const closed = await startFakeServer(hang);
    await closed.close();
    const tutor = createOpenAiTutor(
      readTutorConfig({ ASTRO_MODEL: 'openai', OPENAI_BASE_URL: closed.url, OPENAI_MODEL: 'm' }),
    );

    await expect(ask(tutor)).rejects.toMatchObject({ code: 'upstream_error' });
  });
});
