import { readSpeechConfig, type Env } from '../config';
import type { SpeechTokenResponse } from '../contract/schemas';
import { ENDPOINTS } from '../endpoints';
import { handlerAtColdStart } from '../http/cold-start';
import { readOriginRule } from '../http/origin';
import { defineEndpoint, type ApiHandler, type Reply } from '../http/endpoint';
import { createSpeechKeySource } from '../speech/speech-key';
import { SpeechTokenService } from '../speech/token-service';

/** POST /api/speechToken: a short-lived Azure Speech token `{token, region, expiresAt}`; 503 without a key. */
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
    handle: async (): Promise<Reply<SpeechTokenResponse>> => ({ status: 200, body: await service.token() }),
  });
}

export const handler = handlerAtColdStart(ENDPOINTS.speechToken.path, () =>
  createSpeechTokenHandler(process.env),
);
