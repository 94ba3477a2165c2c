import { chatRequestSchema, type ChatResponse } from '../contract/schemas';
import { API_ROUTES } from '../contract/routes';
import type { Env } from '../config';
import { ApiError } from '../http/api-error';
import { handlerAtColdStart } from '../http/cold-start';
import { defineEndpoint, type ApiHandler } from '../http/endpoint';

/** POST /api/chat. The tutor behind it arrives with the tutor work; until then it answers 503. */
export function createChatHandler(_env: Env): ApiHandler {
  return defineEndpoint({
    route: API_ROUTES.chat,
    schema: chatRequestSchema,
    handle: async (): Promise<{ status: number; body: ChatResponse }> => {
      throw new ApiError('not_configured', 'The tutor is not configured on the server.');
    },
  });
}

export const handler = handlerAtColdStart(API_ROUTES.chat, () => createChatHandler(process.env));
