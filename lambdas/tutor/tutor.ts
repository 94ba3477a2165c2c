import type { Provider } from '../config';
import type { Locale } from '../contract/languages';
import type { ChatTurn } from '../contract/schemas';

export interface TutorRequest {
  /** The learner's words, or `__INIT__ <start phrase>` to open the session. */
  readonly userMessage: string;
  readonly language: Locale;
  /** The conversation so far, oldest first, as the web app sends it. */
  readonly history: readonly ChatTurn[];
}

export interface TutorReply {
  readonly response: string;
  /** Set when a picture would help; the web app asks /api/generateImage for it. */
  readonly imagePrompt?: string;
}

/**
 * The tutor behind /api/chat. One interface, three providers (bedrock, openai, offline) chosen by config.
 * A streaming variant can be added beside `reply` as `stream(request): AsyncIterable<string>` (text deltas,
 * then the image prompt) without changing how callers use `reply`.
 */
export interface Tutor {
  readonly provider: Provider;
  reply(request: TutorRequest, signal?: AbortSignal): Promise<TutorReply>;
}
