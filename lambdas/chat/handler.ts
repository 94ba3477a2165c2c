import { readTutorConfig, type Env } from '../config';
import { CHAT_STREAM_MEDIA_TYPE } from '../contract/routes';
import { isBlank, type ChatResponse } from '../contract/schemas';
import { ENDPOINTS } from '../endpoints';
import { ApiError } from '../lib/api-error';
import { handlerAtColdStart } from '../http/cold-start';
import { defineEndpoint, type Reply, type StreamedReply, type StreamingApiHandler } from '../http/endpoint';
import { streamingLambda } from '../http/lambda-stream';
import { readOriginRule } from '../http/origin';
import { createTrust } from '../trust/trust-config';
import { createTutor } from '../tutor/create-tutor';
import type { TutorRequest } from '../tutor/tutor';
import { toChatResponse } from './chat-response';
import { chatStreamLines, ndjsonLine } from './chat-stream';
import { withinBudget } from './history-budget';

/** Names the provider that answered, so the web app can say quietly when the offline tutor is in use. */
export const TUTOR_HEADER = 'X-Astro-Tutor';

/**
 * POST /api/chat: the learner's words (or the init message) and the history in, Astro's reply out: as
 * one JSON object, or streamed as NDJSON lines when the request accepts `application/x-ndjson`
 * (docs/behaviour.md §11). Either way the reply is sealed (docs/behaviour.md §12.2).
 */
export function createChatHandler(env: Env, now?: () => number): StreamingApiHandler {
  const tutor = createTutor(readTutorConfig(env));
  const trust = createTrust(env, now);
  return defineEndpoint({
    route: ENDPOINTS.chat.path,
    ...ENDPOINTS.chat.request,
    origins: readOriginRule(env),
    handle: async (input, context): Promise<Reply<ChatResponse> | StreamedReply> => {
      if (isBlank(input.userMessage)) {
        throw new ApiError('invalid_request', 'userMessage: must not be blank');
      }
      const request: TutorRequest = {
        userMessage: input.userMessage,
        language: input.language,
        // Only what Astro really said (docs/behaviour.md §12.3), within the history budget (§12.7).
        history: withinBudget(await trust.trustedHistory(input.chatHistory)),
        ...(input.level === undefined ? {} : { level: input.level }),
      };
      const headers = { [TUTOR_HEADER]: tutor.provider };
      if (context.accepts(CHAT_STREAM_MEDIA_TYPE)) {
        return {
          status: 200,
          contentType: CHAT_STREAM_MEDIA_TYPE,
          headers,
          chunks: chatStreamLines(tutor.stream(request, context.signal), trust),
          failure: (error) => ndjsonLine({ type: 'error', error }),
        };
      }
      const reply = await tutor.reply(request);
      return { status: 200, body: await trust.seal(toChatResponse(reply)), headers };
    },
  });
}

/** Deployed behind API Gateway's STREAM response transfer mode (the registry row's `streaming`). */
export const handler = streamingLambda(
  handlerAtColdStart(ENDPOINTS.chat.path, () => createChatHandler(process.env)),
);
