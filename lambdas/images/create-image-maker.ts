import type { ImageConfig } from '../config';
import { createBedrockImageMaker } from './bedrock-image-maker';
import type { ImageMaker } from './image-maker';
import { createOfflineSketcher } from './offline-sketch';
import { createOpenAiImageMaker } from './openai-image-maker';

/** The picture maker that `ASTRO_IMAGE_MODEL` names (offline unless configured), built once per cold start. */
export function createImageMaker(config: ImageConfig): ImageMaker {
  switch (config.provider) {
    case 'bedrock':
      return createBedrockImageMaker(config);
    case 'openai':
      return createOpenAiImageMaker(config);
    case 'offline':
      return createOfflineSketcher();
  }
}
