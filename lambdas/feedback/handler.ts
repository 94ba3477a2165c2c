import { readFeedbackConfig, type Env } from '../config';
import { FEEDBACK_MAX_BODY_BYTES } from '../contract/limits';
import { API_ROUTES } from '../contract/routes';
import { feedbackRequestSchema, type FeedbackResponse } from '../contract/schemas';
import { handlerAtColdStart } from '../http/cold-start';
import { readOriginRule } from '../http/origin';
import { defineEndpoint, type ApiHandler, type Reply } from '../http/endpoint';
import { createDynamoClient, FeedbackStore } from '../store/feedback-store';

/** POST /api/feedback: 201 `{stored:true}` the first time for a conversation, 200 `{stored:false}` after. */
export function createFeedbackHandler(env: Env): ApiHandler {
  const config = readFeedbackConfig(env);
  const store = new FeedbackStore(createDynamoClient(config), config.tableName, {
    retentionDays: config.retentionDays,
  });
  return defineEndpoint({
    route: API_ROUTES.feedback,
    origins: readOriginRule(env),
    schema: feedbackRequestSchema,
    maxBodyBytes: FEEDBACK_MAX_BODY_BYTES,
    handle: async (feedback): Promise<Reply<FeedbackResponse>> => {
      const result = await store.save(feedback);
      return { status: result.stored ? 201 : 200, body: result };
    },
  });
}

export const handler = handlerAtColdStart(API_ROUTES.feedback, () => createFeedbackHandler(process.env));
