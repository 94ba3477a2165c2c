import { readTutorConfig, type Env } from '../config';
import { API_ROUTES } from '../contract/routes';
import { chatRequestSchema, isBlank, type ChatResponse } from '../contract/schemas';
import { ApiError } from '../http/api-error';
import { handlerAtColdStart } from '../http/cold-start';
import { readOriginRule } from '../http/origin';
import { defineEndpoint, type ApiHandler, type Reply } from '../http/endpoint';
import { createTrust } from '../trust/trust-config';
import { createTutor } from '../tutor/create-tutor';
import { toChatResponse } from './chat-response';
import { withinBudget } from './history-budget';

/** Names the provider that answered, so the web app can say quietly when the offline tutor is in use. */
export const TUTOR_HEADER = 'X-Astro-Tutor';

/** POST /api/chat: the learner's words (or the init message) and the history in, Astro's reply out. */
export function createChatHandler(env: Env, now?: () => number): ApiHandler {
  const tutor = createTutor(readTutorConfig(env));
  const trust = createTrust(env, now);
  return defineEndpoint({
    route: API_ROUTES.chat,
    origins: readOriginRule(env),
    schema: chatRequestSchema,
    handle: async (input): Promise<Reply<ChatResponse>> => {
      if (isBlank(input.userMessage)) {
        throw new ApiError('invalid_request', 'userMessage: must not be blank');
      }
      const reply = await tutor.reply({
        userMessage: input.userMessage,
        language: input.language,
        // Only what Astro really said (DESIGN §2 "Trust"), within the history budget.
        history: withinBudget(await trust.trustedHistory(input.chatHistory)),
      });
      const body = await trust.seal(toChatResponse(reply));
      return { status: 200, body, headers: { [TUTOR_HEADER]: tutor.provider } };
    },
  });
}

export const handler = handlerAtColdStart(API_ROUTES.chat, () => createChatHandler(process.env));
