import type { SpeechTokenResponse } from '#contract/schemas';
import { API_ROUTES } from '#contract/routes';
import { ApiRequestError, objectBody, postJson } from './http';

export type { SpeechTokenResponse };

/** The token is on Start's path: past this the conversation goes on with the browser's own speech. */
export const SPEECH_TOKEN_DEADLINE_MS = 10_000;

/**
 * POST /api/speechToken: a short-lived Azure Speech token. Resolves to null when the server has no speech
 * key (503 not_configured) or has reached the day's spending cap (503 over_budget, docs/behaviour.md
 * §12.19): either way the app uses the browser's own speech engine.
 */
export async function fetchSpeechToken(signal?: AbortSignal): Promise<SpeechTokenResponse | null> {
  try {
    const { body } = await postJson(API_ROUTES.speechToken, undefined, signal, SPEECH_TOKEN_DEADLINE_MS);
    const data = objectBody(body, API_ROUTES.speechToken);
    const { token, region, expiresAt } = data;
    if (typeof token !== 'string' || typeof region !== 'string' || typeof expiresAt !== 'string') {
      throw new ApiRequestError(`Malformed answer from ${API_ROUTES.speechToken}`, 200, undefined);
    }
    return { token, region, expiresAt };
  } catch (error) {
    if (
      error instanceof ApiRequestError &&
      (error.code === 'not_configured' || error.code === 'over_budget')
    ) {
      return null;
    }
    throw error;
  }
}
