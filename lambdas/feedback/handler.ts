import { readFeedbackConfig, type Env } from '../config';
import type { FeedbackResponse } from '../contract/schemas';
import { ENDPOINTS } from '../endpoints';
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
    route: ENDPOINTS.feedback.path,
    ...ENDPOINTS.feedback.request,
    origins: readOriginRule(env),
    handle: async (feedback): Promise<Reply<FeedbackResponse>> => {
      const result = await store.save(feedback);
      return { status: result.stored ? 201 : 200, body: result };
    },
  });
}

export const handler = handlerAtColdStart(ENDPOINTS.feedback.path, () => createFeedbackHandler(process.env));
