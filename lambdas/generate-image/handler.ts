import { generateImageRequestSchema, type GenerateImageResponse } from '../contract/schemas';
import { API_ROUTES } from '../contract/routes';
import type { Env } from '../config';
import { ApiError } from '../http/api-error';
import { handlerAtColdStart } from '../http/cold-start';
import { defineEndpoint, type ApiHandler } from '../http/endpoint';

/** POST /api/generateImage. The picture maker arrives with the tutor work; until then it answers 503. */
export function createGenerateImageHandler(_env: Env): ApiHandler {
  return defineEndpoint({
    route: API_ROUTES.generateImage,
    schema: generateImageRequestSchema,
    handle: async (): Promise<{ status: number; body: GenerateImageResponse }> => {
      throw new ApiError('not_configured', 'The picture maker is not configured on the server.');
    },
  });
}

export const handler = handlerAtColdStart(API_ROUTES.generateImage, () =>
  createGenerateImageHandler(process.env),
);
