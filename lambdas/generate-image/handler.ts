import { readImageConfig, type Env } from '../config';
import { API_ROUTES } from '../contract/routes';
import { generateImageRequestSchema, type GenerateImageResponse } from '../contract/schemas';
import { ApiError } from '../http/api-error';
import { handlerAtColdStart } from '../http/cold-start';
import { defineEndpoint, type ApiHandler, type Reply } from '../http/endpoint';
import { createImageMaker } from '../images/create-image-maker';
import { createImageStore } from '../images/image-store';

/** Names the provider that drew the picture (offline pictures are sketches). */
export const IMAGE_MAKER_HEADER = 'X-Astro-Image-Maker';

/** POST /api/generateImage: an English picture prompt in, the same-origin URL of the stored picture out. */
export function createGenerateImageHandler(env: Env): ApiHandler {
  const config = readImageConfig(env);
  const maker = createImageMaker(config);
  const store = createImageStore(config);
  return defineEndpoint({
    route: API_ROUTES.generateImage,
    schema: generateImageRequestSchema,
    handle: async (input): Promise<Reply<GenerateImageResponse>> => {
      const prompt = input.prompt.trim();
      if (prompt.length === 0) throw new ApiError('invalid_request', 'prompt: must not be blank');
      // One deadline for drawing and storing together, so the answer comes within API Gateway's limit.
      const signal = AbortSignal.timeout(config.timeoutMs);
      const image = await maker.make(prompt, signal);
      const stored = await store.save(image, signal);
      return {
        status: 200,
        body: { imageUrl: stored.url },
        headers: { [IMAGE_MAKER_HEADER]: maker.provider },
      };
    },
  });
}

export const handler = handlerAtColdStart(API_ROUTES.generateImage, () =>
  createGenerateImageHandler(process.env),
);
