import type { PictureConfig } from '../config';
import { OpenAiRequestRejected, postJson, type OpenAiServer } from '../upstream/openai-http';
import { deadline, type Deadline } from '../upstream/deadline';
import { MalformedReply, upstreamFailed } from '../upstream/upstream-errors';
import { pictureFromBase64 } from './picture-bytes';
import type { PictureMaker, MadePicture } from './picture-maker';
import { styledPrompt } from './picture-style';

/** The one size every OpenAI image model and most compatible servers accept. */
const SIZE = '1024x1024';

/**
 * Pictures from an OpenAI-compatible images API (`POST {base}/images/generations`), asked for as base64
 * so the server never has to fetch a URL the model service hands back. gpt-image models always answer
 * in base64 and refuse `response_format`; such a refusal is remembered and the field left out.
 */
export function createOpenAiPictureMaker(config: PictureConfig): PictureMaker {
  const { baseUrl, apiKey, model } = config.openai;
  if (!baseUrl) throw new Error('OPENAI_BASE_URL is required');
  const server: OpenAiServer = { baseUrl, apiKey };
  let askForBase64 = true;
  async function draw(prompt: string, limit: Deadline): Promise<MadePicture> {
    for (;;) {
      const body = {
        ...(model ? { model } : {}),
        prompt: styledPrompt(prompt, 1000),
        n: 1,
        size: SIZE,
        ...(askForBase64 ? { response_format: 'b64_json' } : {}),
      };
      try {
        const json = await postJson(server, 'images/generations', body, limit);
        return readPicture(json);
      } catch (error) {
        if (error instanceof OpenAiRequestRejected && askForBase64 && /response_format/.test(error.detail)) {
          askForBase64 = false;
          continue;
        }
        if (error instanceof OpenAiRequestRejected || error instanceof MalformedReply) {
          throw upstreamFailed(error);
        }
        throw error;
      }
    }
  }
  return {
    provider: 'openai',
    async make(prompt, signal): Promise<MadePicture> {
      const limit = deadline(config.timeoutMs, signal);
      try {
        return await draw(prompt, limit);
      } finally {
        limit.dispose();
      }
    },
  };
}

function readPicture(json: unknown): MadePicture {
  const data = (json as { data?: unknown } | null)?.data;
  const first: unknown = Array.isArray(data) ? data[0] : undefined;
  return pictureFromBase64((first as { b64_json?: unknown } | undefined)?.b64_json);
}
