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

/** A chat completion body. */
export function completion(options: {
  content?: string | null;
  toolCalls?: FakeToolCall[];
  finishReason?: string;
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
    usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
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

/** The SSE chunks of a whole streamed answer: the text in the given pieces, then the stop. */
export function streamedCompletion(pieces: readonly string[], finishReason = 'stop'): string[] {
  return [
    ...pieces.map((content) => sseData(completionChunk({ content }))),
    sseData(completionChunk({ finishReason })),
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
