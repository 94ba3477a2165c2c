import { InvokeModelCommand } from '@aws-sdk/client-bedrock-runtime';
import type { PictureConfig } from '../config';
import { bedrockRuntimeClient } from '../upstream/bedrock-client';
import { deadline } from '../upstream/deadline';
import {
  contentFiltered,
  fromAwsError,
  MalformedReply,
  mentionsContentFilter,
  upstreamFailed,
} from '../upstream/upstream-errors';
import { pictureFromBase64 } from './picture-bytes';
import type { PictureMaker, MadePicture } from './picture-maker';
import { NEGATIVE_TEXT, seedFor, styledPrompt } from './picture-style';

/** 512×512 is the smallest size both Nova Canvas and Titan Image Generator v2 accept, and plenty for a chat bubble. */
const SIZE = 512;

/** The text-to-image request shared by Amazon Nova Canvas and Titan Image Generator. */
export function textToImageBody(prompt: string) {
  return {
    taskType: 'TEXT_IMAGE',
    textToImageParams: { text: styledPrompt(prompt), negativeText: NEGATIVE_TEXT },
    imageGenerationConfig: {
      numberOfImages: 1,
      width: SIZE,
      height: SIZE,
      quality: 'standard',
      cfgScale: 7,
      seed: seedFor(prompt),
    },
  };
}

/** Pictures from Amazon Bedrock's InvokeModel (Nova Canvas by default), as PNG. */
export function createBedrockPictureMaker(config: PictureConfig): PictureMaker {
  const { modelId } = config.bedrock;
  const client = bedrockRuntimeClient(config.bedrock);
  return {
    provider: 'bedrock',
    async make(prompt, signal): Promise<MadePicture> {
      const limit = deadline(config.timeoutMs, signal);
      try {
        const output = await client.send(
          new InvokeModelCommand({
            modelId,
            contentType: 'application/json',
            accept: 'application/json',
            body: JSON.stringify(textToImageBody(prompt)),
          }),
          { abortSignal: limit.signal },
        );
        return readPicture(new TextDecoder().decode(output.body));
      } catch (error) {
        throw fromAwsError(error instanceof MalformedReply ? upstreamFailed(error) : error, limit);
      } finally {
        limit.dispose();
      }
    },
  };
}

function readPicture(text: string): MadePicture {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new MalformedReply('the picture answer is not JSON');
  }
  if (typeof parsed !== 'object' || parsed === null)
    throw new MalformedReply('the picture answer is not an object');
  const json = parsed as { images?: unknown; error?: unknown };
  if (typeof json.error === 'string' && json.error.length > 0) {
    throw mentionsContentFilter(json.error)
      ? contentFiltered(new Error(json.error))
      : upstreamFailed(new Error(json.error));
  }
  return pictureFromBase64(Array.isArray(json.images) ? json.images[0] : undefined);
}
