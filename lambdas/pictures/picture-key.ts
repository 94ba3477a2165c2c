import { createHash } from 'node:crypto';
import type { PictureConfig } from '../config';
import { NEGATIVE_TEXT, STYLE_PREFIX } from './picture-style';

/** The file extensions a stored picture can have, in the order a lookup tries them. */
export const PICTURE_EXTENSIONS = ['png', 'jpg', 'svg'] as const;

/** The model that draws for the configured provider: part of a picture's identity. */
function modelOf(config: PictureConfig): string {
  switch (config.provider) {
    case 'bedrock':
      return `bedrock:${config.bedrock.modelId}`;
    case 'openai':
      return `openai:${config.openai.baseUrl ?? ''}:${config.openai.model ?? 'default'}`;
    case 'offline':
      return 'offline:sketch';
  }
}

/**
 * A picture's name: a hash of the prompt with the model and the style that draw it. The same prompt,
 * model and style draw the same picture (the seed also derives from the prompt), so a repeat is served
 * from storage without calling the model again; a new model or style draws afresh. 32 hex characters
 * (128 bits) keep names unguessable from anything but the prompt itself.
 */
export function pictureKey(prompt: string, config: PictureConfig): string {
  return createHash('sha256')
    .update(['astro-picture-v1', modelOf(config), STYLE_PREFIX, NEGATIVE_TEXT, prompt.trim()].join('\n'))
    .digest('hex')
    .slice(0, 32);
}
