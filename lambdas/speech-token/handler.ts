import { readSpeechConfig, type Env } from '../config';
import type { SpeechTokenResponse } from '../contract/schemas';
import { SPEECH_TOKEN_IF_CONFIGURED } from '../contract/routes';
import { ENDPOINTS } from '../endpoints';
import { ApiError } from '../lib/api-error';
import { handlerAtColdStart } from '../http/cold-start';
import { readOriginRule } from '../http/origin';
import { defineEndpoint, type ApiHandler, type EmptyReply, type Reply } from '../http/endpoint';
import { createSpeechKeySource } from '../speech/speech-key';
import { SpeechTokenService } from '../speech/token-service';

/**
 * POST /api/speechToken: a short-lived Azure Speech token `{token, region, expiresAt}`; 503 without a key,
 * or 204 to a request that prefers `if-configured` (docs/behaviour.md §9.8).
 */
export function createSpeechTokenHandler(env: Env, now?: () => number): ApiHandler {
  const config = readSpeechConfig(env);
  const service = new SpeechTokenService(createSpeechKeySource(config, now), {
    stsBaseUrl: config.stsBaseUrl,
    timeoutMs: config.stsTimeoutMs,
    now,
  });
  return defineEndpoint({
    route: ENDPOINTS.speechToken.path,
    ...ENDPOINTS.speechToken.request,
    origins: readOriginRule(env),
    // The token is a credential: the shared `Cache-Control: no-store` keeps it out of every cache.
    handle: async (_input, { prefers }): Promise<Reply<SpeechTokenResponse> | EmptyReply> => {
      try {
        return { status: 200, body: await service.token() };
      } catch (error) {
        if (!(
          error instanceof ApiError &&
          error.code === 'not_configured' &&
          prefers(SPEECH_TOKEN_IF_CONFIGURED)
        ))
          throw error;
        return { status: 204, headers: { 'Preference-Applied': SPEECH_TOKEN_IF_CONFIGURED } };
      }
    },
  });
}

export const handler = handlerAtColdStart(ENDPOINTS.speechToken.path, () =>
  createSpeechTokenHandler(process.env),
);
