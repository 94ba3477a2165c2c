import type { Provider } from '../config';

export interface MadePicture {
  readonly bytes: Uint8Array;
  readonly contentType: 'image/png' | 'image/jpeg' | 'image/svg+xml';
  readonly extension: 'png' | 'jpg' | 'svg';
}

/** Draws a picture for a prompt. Providers: bedrock (Nova Canvas / Titan), openai (images API), offline (SVG). */
export interface PictureMaker {
  readonly provider: Provider;
  make(prompt: string, signal?: AbortSignal): Promise<MadePicture>;
}
