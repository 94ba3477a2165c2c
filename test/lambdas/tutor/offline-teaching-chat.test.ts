/**
 * The offline tutor's teaching through POST /api/chat (docs/behaviour.md §17.2–§17.3), as the web app
 * drives it: each reply goes back in the history with its signature, as JSON and as NDJSON.
 */
import { describe, expect, it } from 'vitest';
import { createChatHandler } from '#lambdas/chat/handler';
import type { Locale } from '#contract/languages';
import { API_ROUTES } from '#contract/routes';
import { chatResponseSchema, type ChatRequest, type ChatTurn } from '#contract/schemas';
import type { Check } from '#contract/teaching';
import type { StreamingApiHandler } from '#lambdas/http/endpoint';
import { loadKnowledge } from '#lambdas/tutor/offline/knowledge';
import { apiEvent, bodyOf, buffered } from '#support/events';
import { readLines, textOf } from '#support/ndjson';
import { TEST_CONVERSATION_ID } from '#support/trust';

const knowledge = loadKnowledge();
const topicIds = knowledge.index.topics.map((topic) => topic.id);

const ACCEPTANCE = [
  ['en-US', 'quiz me', "I don't know"],
  ['fr-FR', 'Fais-moi un quiz sur les planètes', 'Je ne sais pas'],
  ['ja-JP', 'クイズを出して', 'わかりません'],
] as const satisfies readonly (readonly [Locale, string, string])[];

interface Answer {
  readonly response: string;
  readonly signature?: string;
  readonly check?: Check;
}

/** A request as a test writes it: the conversation is always the test's own. */
type Transport = (
  handler: StreamingApiHandler,
  request: Omit<ChatRequest, 'conversationId'>,
) => Promise<Answer>;

const inConversation = (request: Omit<ChatRequest, 'conversationId'>): ChatRequest => ({
  ...request,
  conversationId: TEST_CONVERSATION_ID,
});

const json: Transport = async (handler, request) => {
  const result = buffered(
    await handler(apiEvent({ method: 'POST', path: API_ROUTES.chat, body: inConversation(request) })),
  );
  expect(result.statusCode).toBe(200);
  return chatResponseSchema.parse(bodyOf(result));
};

const ndjson: Transport = async (handler, request) => {
  const lines = await readLines(
    await handler(
      apiEvent({
        method: 'POST',
        path: API_ROUTES.chat,
        headers: { Accept: 'application/x-ndjson' },
        body: inConversation(request),
      }),
    ),
  );
  const done = lines[lines.length - 1];
  if (done?.type !== 'done') throw new Error(`the stream did not end with done: ${JSON.stringify(done)}`);
  expect(textOf(lines)).toBe(done.response);
  return done;
};

/** The topic whose check question ends a reply. */
function askedAbout(language: Locale, response: string): string | undefined {
  return topicIds.find((id) =>
    response
      .trimEnd()
      .endsWith(knowledge.locales[language].topics[id]?.levels.teen.check.question ?? '\u0000'),
  );
}

/** A conversation through the handler; Astro's turns go back with their signatures. */
function conversation(handler: StreamingApiHandler, transport: Transport, language: Locale) {
  const chatHistory: ChatTurn[] = [];
  return {
    chatHistory,
    async say(userMessage: string, sign = true): Promise<Answer> {
      const answer = await transport(handler, { userMessage, language, chatHistory: [...chatHistory] });
      expect(answer.signature).toMatch(/^v2\./);
      chatHistory.push(
        { role: 'user', content: userMessage },
        {
          role: 'assistant',
          content: answer.response,
          ...(sign && answer.signature ? { signature: answer.signature } : {}),
        },
      );
      return answer;
    },
  };
}

describe.each([
  ['JSON', json],
  ['NDJSON', ndjson],
] as const)('the offline tutor through /api/chat (%s)', (_name, transport) => {
  const handler = createChatHandler({});

  it.each(ACCEPTANCE)(
    'in %s: "%s" asks a question, "%s" gets the hint, the right answer is counted',
    async (language, quizMe, dontKnow) => {
      const talk = conversation(handler, transport, language);

      const question = await talk.say(quizMe);
      expect(question.check).toEqual({ type: 'question' });
      const topic = askedAbout(language, question.response);
      const check = knowledge.locales[language].topics[topic ?? '']?.levels.teen.check;
      if (!check) throw new Error(`no check question in ${question.response}`);

      // Each judgement of a quiz answer also asks a question: the hint's, then the next one (§17.5).
      const hint = await talk.say(dontKnow);
      expect(hint.check).toEqual({ type: 'answer', correct: false, openQuestion: true });
      expect(hint.response).toContain(check.hint);

      const right = await talk.say(check.answers[0] ?? '');
      expect(right.check).toEqual({ type: 'answer', correct: true, openQuestion: true });
      expect(right.response.startsWith(knowledge.locales[language].checkCorrect)).toBe(true);
    },
  );

  it('judges only what Astro really said: an unsigned question in the history is not open', async () => {
    const talk = conversation(handler, transport, 'en-US');
    await talk.say('quiz me', false);
    const reply = await talk.say("I don't know");
    expect(reply.check).toBeUndefined();
  });

  it('teaches a Young explorer the shorter lesson', async () => {
    const saturn = knowledge.locales['en-US'].topics.saturn;
    const child = await transport(handler, {
      userMessage: 'Saturn',
      language: 'en-US',
      chatHistory: [],
      level: 'child',
    });
    // What Saturn is, said for a child, then the rest of the child's lesson and the child's own check.
    const whatIs = saturn?.facts.find((fact) => fact.shape === 'what-is' && !fact.keywords);
    expect(child.response.startsWith(whatIs?.child ?? '\u0000')).toBe(true);
    expect(child.response.endsWith(saturn?.levels.child.check.question ?? '\u0000')).toBe(true);
    expect(child.response).toContain('some are as big as a house');
    expect(child.check).toEqual({ type: 'question' });
  });
});
