/**
 * The registry's handler column (lambdas/endpoints.ts): how each endpoint's handler is built from an
 * environment. The local server and the tests build handlers from here; a Lambda builds only its own, in
 * its `handler.ts`. Kept apart from the registry's plain data so the CDK app and each Lambda bundle never
 * load every service.
 */
import { createChatHandler } from './chat/handler';
import type { Env } from './config';
import type { EndpointName } from './endpoints';
import { createFeedbackHandler } from './feedback/handler';
import { createGenerateImageHandler } from './generate-image/handler';
import type { StreamingApiHandler } from './http/endpoint';
import { createSpeechTokenHandler } from './speech-token/handler';

export type HandlerFactory = (env: Env) => StreamingApiHandler;

/** One factory per registry row: an endpoint without one does not compile. */
export const ENDPOINT_HANDLERS: Readonly<Record<EndpointName, HandlerFactory>> = {
  chat: (env) => createChatHandler(env),
  generateImage: (env) => createGenerateImageHandler(env),
  feedback: (env) => createFeedbackHandler(env),
  speechToken: (env) => createSpeechTokenHandler(env),
};
