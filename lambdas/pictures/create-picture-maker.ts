import type { PictureConfig } from '../config';
import { createBedrockPictureMaker } from './bedrock-picture-maker';
import type { PictureMaker } from './picture-maker';
import { createOfflineSketcher } from './offline-sketch';
import { createOpenAiPictureMaker } from './openai-picture-maker';

/** The picture maker that `ASTRO_IMAGE_MODEL` names (offline unless configured), built once per cold start. */
export function createPictureMaker(config: PictureConfig): PictureMaker {
  switch (config.provider) {
    case 'bedrock':
      return createBedrockPictureMaker(config);
    case 'openai':
      return createOpenAiPictureMaker(config);
    case 'offline':
      return createOfflineSketcher();
  }
}
