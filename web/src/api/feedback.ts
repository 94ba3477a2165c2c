import type { FeedbackRequest } from '#contract/schemas';
import { API_ROUTES } from '#contract/routes';
import { FEEDBACK_MAX_BODY_BYTES } from '#contract/limits';
import { postJson } from './http';

export type { FeedbackRequest };

/**
 * POST /api/feedback. The answer is not read (docs/behaviour.md §7.9): success or a thrown ApiRequestError.
 */
export async function sendFeedback(request: FeedbackRequest, signal?: AbortSignal): Promise<void> {
  if (new Blob([JSON.stringify(request)]).size > FEEDBACK_MAX_BODY_BYTES) {
    throw new Error('Feedback is larger than the API accepts');
  }
  await postJson(API_ROUTES.feedback, request, signal);
}
