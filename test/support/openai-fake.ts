/** Speaking the OpenAI-compatible wire format (chat completions, images) on a loopback fake. */
import type { FakeRoute } from '#support/loopback';
import { sendJson } from '#support/loopback';

export interface FakeToolCall {
  readonly id: string;
  readonly type: 'function';
  readonly function: { readonly name: string; readonly arguments: string };
}

export const pictureCall = (prompt: string, id = 'call_1'): FakeToolCall => ({
  id,
  type: 'function',
  function: { name: 'show_picture', arguments: JSON.stringify({ prompt }) },
});

/** What a fake server reports a completion used, as OpenAI's `usage` carries it. */
export interface FakeCompletionUsage {
  readonly promptTokens: number;
  readonly completionTokens: number;
}

/** The usage the fake reports unless a test names its own. */
export const DEFAULT_COMPLETION_USAGE: FakeCompletionUsage = { promptTokens: 10, completionTokens: 10 };

const usageBody = (usage: FakeCompletionUsage) => ({
  prompt_tokens: usage.promptTokens,
  completion_tokens: usage.completionTokens,
  total_tokens: usage.promptTokens + usage.completionTokens,
});

/** A chat completion body; `usage: null` leaves the usage out, as some local servers do. */
export function completion(options: {
  content?: string | null;
  toolCalls?: FakeToolCall[];
  finishReason?: string;
  usage?: FakeCompletionUsage | null;
}) {
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: 'fake-model',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: options.content ?? null,
          ...(options.toolCalls ? { tool_calls: options.toolCalls } : {}),
        },
        finish_reason: options.finishReason ?? (options.toolCalls ? 'tool_calls' : 'stop'),
      },
    ],
    ...(options.usage === null ? {} : { usage: usageBody(options.usage ?? DEFAULT_COMPLETION_USAGE) }),
  };
}

/** An images API body carrying `bytes` as base64. */
export function imagesAnswer(bytes: Uint8Array) {
  return { created: 1_700_000_000, data: [{ b64_json: Buffer.from(bytes).toString('base64') }] };
}

/** An OpenAI-style error body. */
export function openAiError(status: number, message: string, code: string | null = null): FakeRoute {
  return (_request, response) =>
    sendJson(response, status, { error: { message, type: 'invalid_request_error', param: null, code } });
}

/** One chunk of a streamed chat completion (`stream: true`). */
export function completionChunk(delta: {
  content?: string;
  toolCalls?: { index: number; id?: string; name?: string; arguments?: string }[];
  finishReason?: string;
}) {
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model: 'fake-model',
    choices: [
      {
        index: 0,
        delta: {
          ...(delta.content !== undefined ? { content: delta.content } : {}),
          ...(delta.toolCalls
            ? {
                tool_calls: delta.toolCalls.map((call) => ({
                  index: call.index,
                  ...(call.id ? { id: call.id, type: 'function' } : {}),
                  function: {
                    ...(call.name ? { name: call.name } : {}),
                    ...(call.arguments !== undefined ? { arguments: call.arguments } : {}),
                  },
                })),
              }
            : {}),
        },
        finish_reason: delta.finishReason ?? null,
      },
    ],
  };
}

/**
 * The chunk `stream_options.include_usage` asks for: after the last choice, no choices and the whole
 * completion's usage.
 */
export function usageChunk(usage: FakeCompletionUsage = DEFAULT_COMPLETION_USAGE) {
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model: 'fake-model',
    choices: [],
    usage: usageBody(usage),
  };
}

/**
 * The SSE chunks of a whole streamed answer: the text in the given pieces, the stop, then (as a server
 * asked for `include_usage` sends it) the usage chunk, unless `usage` is null.
 */
export function streamedCompletion(
  pieces: readonly string[],
  finishReason = 'stop',
  usage: FakeCompletionUsage | null = DEFAULT_COMPLETION_USAGE,
): string[] {
  return [
    ...pieces.map((content) => sseData(completionChunk({ content }))),
    sseData(completionChunk({ finishReason })),
    ...(usage === null ? [] : [sseData(usageChunk(usage))]),
    'data: [DONE]\n\n',
  ];
}

/** One server-sent event carrying JSON. */
export const sseData = (body: unknown): string => `data: ${JSON.stringify(body)}\n\n`;

/** A step of a streamed answer: text to send, or a wait (for a test's signal) before the next. */
export type SseStep = string | Buffer | (() => Promise<void>);

/**
 * Answers with `text/event-stream`, writing each step as it comes (waiting where a step is a function);
 * `end: false` leaves the stream open, as a model that stalls mid-reply does.
 */
export function sseAnswer(steps: readonly SseStep[], options: { end?: boolean } = {}): FakeRoute {
  return async (_request, response) => {
    response.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache',
    });
    response.flushHeaders();
    for (const step of steps) {
      if (typeof step === 'function') await step();
      else response.write(step);
    }
    if (options.end !== false) response.end();
  };
}
