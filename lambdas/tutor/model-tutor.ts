/**
 * The one path of a tutor on a model service (Bedrock, an OpenAI-compatible server). A reply whole and
 * a reply streamed go through the same steps, and the reply is the stream's `done`: `reply()` runs the
 * stream of whole calls and keeps its end. The tool round-trip is written here once: a model that only
 * called tools (a picture, a check) hears they are done, once, and is asked again for its words
 * (docs/behaviour.md §11.6, §17.2). A provider brings its wire only: how the conversation is written,
 * one call to the model in either shape, and how its failures become the contract's errors.
 */
import type { Provider, TutorConfig } from '../config';
import type { ApiError } from '../lib/api-error';
import type { Check } from '../contract/teaching';
import { deadline, streamDeadline, type StreamDeadline } from '../upstream/deadline';
import type { UsageMeter } from '../upstream/token-usage';
import { MalformedReply, upstreamFailed } from '../upstream/upstream-errors';
import { CHECK_NOTED } from './check-tools';
import { PICTURE_SHOWN, SHOW_PICTURE_TOOL } from './system-prompt';
import { doneEvent, type Tutor, type TutorReply, type TutorRequest, type TutorStreamEvent } from './tutor';

/** A tool call the model made, to be answered with a tool result before a follow-up call. */
export interface ToolCallMade {
  readonly id: string;
  readonly name: string;
}

/** What one call to the model said, read the same way whether it came whole or streamed. */
export interface ModelAnswer {
  /** The spoken text (`spokenText` rules). */
  readonly text: string;
  readonly imagePrompt?: string;
  readonly check?: Check;
  /** The tool calls to answer before asking again, in order. */
  readonly toolCalls: readonly ToolCallMade[];
}

/** How one call is made: streamed or whole, under the reply's deadline, told to the spend meter. */
export interface ModelCall {
  readonly streaming: boolean;
  /** A whole call's deadline has no idle part: its `touch` does nothing. */
  readonly limit: StreamDeadline;
  /** True on the follow-up call when the first one already gave the picture. */
  readonly pictureShown: boolean;
  readonly meter: UsageMeter | undefined;
}

/** What a provider brings: its wire format, nothing of the conversation's flow. */
export interface ModelWire<Conversation, Answer extends ModelAnswer> {
  readonly provider: Provider;
  /** The request's conversation as the model reads it (system prompt and turns). */
  conversation(request: TutorRequest): Promise<Conversation>;
  /** The conversation after an answer that only called tools, each call answered (`toolResult`). */
  afterTools(conversation: Conversation, answer: Answer): Conversation;
  /**
   * One call to the model: yields the text as it settles and the picture once (unless `pictureShown`),
   * a whole answer as one piece; returns what the model said. Tells the meter the call's usage once.
   */
  ask(conversation: Conversation, call: ModelCall): AsyncGenerator<TutorStreamEvent, Answer>;
  /** A failure of the reply (never a MalformedReply: that is `upstream_error` already) as the contract's error. */
  failure(error: unknown, limit: StreamDeadline): ApiError;
}

/** A tutor on a model service: `stream()` and `reply()` both run `converse`. */
export function modelTutor<Conversation, Answer extends ModelAnswer>(
  config: TutorConfig,
  wire: ModelWire<Conversation, Answer>,
): Tutor {
  async function* converse(
    request: TutorRequest,
    streaming: boolean,
    signal: AbortSignal | undefined,
    meter: UsageMeter | undefined,
  ): AsyncGenerator<TutorStreamEvent, TutorReply> {
    // One deadline covers the whole reply, the follow-up call included; a stream also gives up on silence.
    const limit: StreamDeadline = streaming
      ? streamDeadline(config.timeoutMs, config.idleTimeoutMs, signal)
      : { ...deadline(config.timeoutMs, signal), touch: () => undefined };
    try {
      const conversation = await wire.conversation(request);
      // The idle deadline is the model's silence: reading a language's lessons is not part of it.
      limit.touch();
      const first = yield* wire.ask(conversation, { streaming, limit, pictureShown: false, meter });
      if (first.text.length > 0) return replyOf(first);
      if (first.toolCalls.length === 0) throw new MalformedReply('the model returned no text');
      // The model only called tools (a picture, a check): tell it they are done, once, and take its words.
      const second = yield* wire.ask(wire.afterTools(conversation, first), {
        streaming,
        limit,
        pictureShown: first.imagePrompt !== undefined,
        meter,
      });
      if (second.text.length === 0) throw new MalformedReply('the model returned no text after the tool');
      // What the first call reported (picture, check) comes first.
      return replyOf({
        text: second.text,
        imagePrompt: first.imagePrompt ?? second.imagePrompt,
        check: first.check ?? second.check,
      });
    } catch (error) {
      throw wire.failure(error instanceof MalformedReply ? upstreamFailed(error) : error, limit);
    } finally {
      limit.dispose();
    }
  }

  return {
    provider: wire.provider,
    async *stream(request, signal, meter): AsyncGenerator<TutorStreamEvent> {
      yield doneEvent(yield* converse(request, true, signal, meter));
    },
    async reply(request, signal, meter): Promise<TutorReply> {
      // The same steps with whole calls; their one-piece events are not needed, only the end.
      const events = converse(request, false, signal, meter);
      for (;;) {
        const next = await events.next();
        if (next.done) return next.value;
      }
    },
  };
}

/** What a tool call is answered with, so that the model goes on to speak. */
export function toolResult(name: string): string {
  return name === SHOW_PICTURE_TOOL.name ? PICTURE_SHOWN : CHECK_NOTED;
}

/** A whole answer as a stream of one piece: its text, then its picture unless already shown. */
export function* wholeAnswerEvents(answer: ModelAnswer, pictureShown: boolean): Generator<TutorStreamEvent> {
  if (answer.text.length > 0) yield { type: 'delta', text: answer.text };
  if (!pictureShown && answer.imagePrompt !== undefined) {
    yield { type: 'picture', imagePrompt: answer.imagePrompt };
  }
}

/** The `prompt` of a tool call's input; anything else means no picture. */
export function promptOf(input: unknown): unknown {
  return typeof input === 'object' && input !== null ? (input as { prompt?: unknown }).prompt : undefined;
}

function replyOf(answer: Pick<ModelAnswer, 'text' | 'imagePrompt' | 'check'>): TutorReply {
  return {
    response: answer.text,
    ...(answer.imagePrompt === undefined ? {} : { imagePrompt: answer.imagePrompt }),
    ...(answer.check === undefined ? {} : { check: answer.check }),
  };
}
