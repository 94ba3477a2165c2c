import type { GenerateImageRequest, GenerateImageResponse } from '#contract/schemas';
import { API_ROUTES } from '#contract/routes';
import { objectBody, postJson } from './http';

export type { GenerateImageRequest };

/** docs/behaviour.md §8.7: the one message a picture failure is logged with (its words are the rule's). */
export const PICTURE_FAILED_MESSAGE = 'Image generation failed';

/**
 * POST /api/generateImage: a picture prompt and the `imageTicket` of the reply that suggested it → the
 * URL of the picture (docs/behaviour.md §12.4: without the ticket the server draws nothing).
 */
export async function generateImage(
  request: GenerateImageRequest,
  signal?: AbortSignal,
): Promise<GenerateImageResponse> {
  const sent: GenerateImageRequest =
    request.ticket === undefined
      ? { prompt: request.prompt }
      : { prompt: request.prompt, ticket: request.ticket };
  try {
    const { body } = await postJson(API_ROUTES.generateImage, sent, signal);
    const data = objectBody(body, API_ROUTES.generateImage);
    if (typeof data.imageUrl !== 'string' || !isSafePictureUrl(data.imageUrl))
      throw new Error('bad imageUrl');
    return { imageUrl: data.imageUrl };
  } catch (cause) {
    throw new Error(PICTURE_FAILED_MESSAGE, { cause });
  }
}

/** Only same-site paths, https and inline raster/SVG data go into an <img src>. */
function isSafePictureUrl(url: string): boolean {
  return (
    /^\/(?!\/)/.test(url) ||
    /^https:\/\//i.test(url) ||
    /^data:image\/(png|jpeg|webp|svg\+xml)[;,]/i.test(url)
  );
}
