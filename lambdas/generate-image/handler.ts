import { readPictureConfig, type Env } from '../config';
import { isBlank, type GenerateImageResponse } from '../contract/schemas';
import { ENDPOINTS } from '../endpoints';
import { ApiError } from '../lib/api-error';
import { handlerAtColdStart } from '../http/cold-start';
import { readOriginRule } from '../http/origin';
import { defineEndpoint, type ApiHandler, type Reply } from '../http/endpoint';
import { createPictureMaker } from '../pictures/create-picture-maker';
import { createPictureStore } from '../pictures/picture-store';
import { pictureKey } from '../pictures/picture-key';
import { createTrust } from '../trust/trust-config';

/** Names the provider that drew the picture (offline pictures are sketches). */
export const PICTURE_MAKER_HEADER = 'X-Astro-Image-Maker';

/** POST /api/generateImage: an English picture prompt in, the same-origin URL of the stored picture out. */
export function createGenerateImageHandler(env: Env, now?: () => number): ApiHandler {
  const config = readPictureConfig(env);
  const trust = createTrust(env, now);
  const maker = createPictureMaker(config);
  const store = createPictureStore(config);
  return defineEndpoint({
    route: ENDPOINTS.generateImage.path,
    ...ENDPOINTS.generateImage.request,
    origins: readOriginRule(env),
    handle: async (input): Promise<Reply<GenerateImageResponse>> => {
      if (isBlank(input.prompt)) throw new ApiError('invalid_request', 'prompt: must not be blank');
      // Only a prompt Astro wrote, with its unexpired ticket, is drawn (docs/behaviour.md §12.4).
      await trust.requireTicket(input.prompt, input.ticket);
      const prompt = input.prompt.trim();
      // One deadline for drawing and storing together, so the answer comes within API Gateway's limit.
      const signal = AbortSignal.timeout(config.timeoutMs);
      // The same picture is drawn once: a repeat prompt is served from storage (docs/behaviour.md §12.9).
      const key = pictureKey(prompt, config);
      const stored =
        (await store.find(key, signal)) ?? (await store.save(key, await maker.make(prompt, signal), signal));
      return {
        status: 200,
        body: { imageUrl: stored.url },
        headers: { [PICTURE_MAKER_HEADER]: maker.provider },
      };
    },
  });
}

export const handler = handlerAtColdStart(ENDPOINTS.generateImage.path, () =>
  createGenerateImageHandler(process.env),
);
