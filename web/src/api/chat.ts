import type { ChatRequest, ChatResponse } from '../../../lambdas/contract/schemas';
import { API_ROUTES } from '../../../lambdas/contract/routes';
import { ApiRequestError, objectBody, postJson } from './http';

export type { ChatRequest };

export interface ChatReply extends ChatResponse {
  /** True when the server's built-in offline tutor answered (header `X-Astro-Tutor: offline`). */
  readonly offlineTutor: boolean;
}

/** POST /api/chat: the learner's words (or the init message) and the history → Astro's reply. */
export async function sendChat(request: ChatRequest, signal?: AbortSignal): Promise<ChatReply> {
  const { body, headers } = await postJson(API_ROUTES.chat, request, signal);
  const data = objectBody(body, API_ROUTES.chat);
  if (typeof data.response !== 'string' || data.response.trim() === '') {
    throw new ApiRequestError(`Malformed answer from ${API_ROUTES.chat}`, 200, undefined);
  }
  const imagePrompt =
    typeof data.imagePrompt === 'string' && data.imagePrompt.trim() !== '' ? data.imagePrompt : undefined;
  return {
    response: data.response,
    ...(imagePrompt === undefined ? {} : { imagePrompt }),
    offlineTutor: headers.get('X-Astro-Tutor')?.toLowerCase() === 'offline',
  };
}
