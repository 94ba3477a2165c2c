/** Speaking the OpenAI-compatible wire format (chat completions, images) on a loopback fake. */
import type { FakeRoute } from './loopback';
import { sendJson } from './loopback';

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
