import type { Provider } from '../config';
import type { Locale } from '../contract/languages';
import type { ChatTurn } from '../contract/schemas';
import type { Check, Level } from '../contract/teaching';
import type { UsageMeter } from '../upstream/token-usage';

export type { TokenUsage, UsageMeter } from '../upstream/token-usage';

export interface TutorRequest {
  /** The learner's words, or `__INIT__ <start phrase>` to open the session. */
  readonly userMessage: string;
  readonly language: Locale;
  /** The conversation so far, oldest first, as the web app sends it. */
  readonly history: readonly ChatTurn[];
  /** The learner's level; absent means DEFAULT_LEVEL. */
  readonly level?: Level;
}

export interface TutorReply {
  readonly response: string;
  /** Set when a picture would help; the web app asks /api/generateImage for it. */
  readonly imagePrompt?: string;
  /** Set when the reply ends with a check question, or judges the learner's answer to the last one. */
  readonly check?: Check;
}

/**
 * A streamed reply, in order: `delta`s (they concatenate to the reply's text), at most one `picture`
 * (as soon as the model asked for it), then `done` with the whole reply, exactly what `reply()` returns
 * for the same model output. A failure ends the stream by throwing an ApiError.
 */
export type TutorStreamEvent =
  | { readonly type: 'delta'; readonly text: string }
  | { readonly type: 'picture'; readonly imagePrompt: string }
  | ({ readonly type: 'done' } & TutorReply);

/** The tutor behind /api/chat. One interface, three providers (bedrock, openai, offline) chosen by config. */
export interface Tutor {
  readonly provider: Provider;
  reply(request: TutorRequest, signal?: AbortSignal, meter?: UsageMeter): Promise<TutorReply>;
  /** The same reply as it is written (docs/behaviour.md §11.6). */
  stream(request: TutorRequest, signal?: AbortSignal, meter?: UsageMeter): AsyncIterable<TutorStreamEvent>;
}

/** The `done` event of a reply. */
export function doneEvent(reply: TutorReply): TutorStreamEvent {
  return {
    type: 'done',
    response: reply.response,
    ...(reply.imagePrompt === undefined ? {} : { imagePrompt: reply.imagePrompt }),
    ...(reply.check === undefined ? {} : { check: reply.check }),
  };
}
