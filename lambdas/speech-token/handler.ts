import { readSpeechConfig, readSpendConfig, type Env } from '../config';
import type { SpeechTokenResponse } from '../contract/schemas';
import { ENDPOINTS } from '../endpoints';
import { ApiError } from '../lib/api-error';
import { handlerAtColdStart } from '../http/cold-start';
import { readOriginRule } from '../http/origin';
import { defineEndpoint, type ApiHandler, type Reply } from '../http/endpoint';
import { callerOf } from '../spend/client-address';
import { speechTokenPrice } from '../spend/prices';
import { createSpendGuard } from '../spend/spend-guard';
import { createSpeechKeySource } from '../speech/speech-key';
import { SpeechTokenService } from '../speech/token-service';

/**
 * POST /api/speechToken: a short-lived Azure Speech token `{token, region, expiresAt}`; 503 without a key,
 * and 503 `over_budget` once a spending limit is reached (docs/behaviour.md §12.19): either way the web app
 * uses the browser's own speech.
 */
export function createSpeechTokenHandler(env: Env, now?: () => number): ApiHandler {
  const config = readSpeechConfig(env);
  const spendConfig = readSpendConfig(env);
  const service = new SpeechTokenService(createSpeechKeySource(config, now), {
    stsBaseUrl: config.stsBaseUrl,
    timeoutMs: config.stsTimeoutMs,
    now,
  });
  const guard = createSpendGuard(spendConfig, ENDPOINTS.speechToken.path, now);
  return defineEndpoint({
    route: ENDPOINTS.speechToken.path,
    ...ENDPOINTS.speechToken.request,
    origins: readOriginRule(env),
    // The token is a credential: the shared `Cache-Control: no-store` keeps it out of every cache.
    handle: async (_input, context): Promise<Reply<SpeechTokenResponse>> => {
      const spender = { client: callerOf(context, spendConfig.clientAddressHeader) };
      const verdict = await guard.check(spender);
      if (!verdict.allowed) {
        throw new ApiError(
          'over_budget',
          "Cloud speech has reached today's budget: the browser's speech is used.",
        );
      }
      const { token, minted } = await service.tokenAndMint();
      if (minted) {
        const spending = guard.open(spender);
        spending.charge('speech', speechTokenPrice(spendConfig));
        await spending.settle();
      }
      return { status: 200, body: token };
    },
  });
}

export const handler = handlerAtColdStart(ENDPOINTS.speechToken.path, () =>
  createSpeechTokenHandler(process.env),
);
