/**
 * The tutor on any OpenAI-compatible chat completions endpoint: the OpenAI wire of the tutor's one path
 * (model-tutor.ts, which holds the flow of a reply and the tool round-trip for every provider). A
 * streamed reply asks with `stream: true`, a whole one without; both completions are read by the same
 * rules (openai-completion.ts). The picture and the checks come through function calling; a server
 * that refuses an option (tools, streaming, `stream_options`, `max_tokens`) is asked again without it,
 * and remembered, so later replies go straight to what it accepts.
 */
import type { TutorConfig } from '../config';
import { ApiError } from '../lib/api-error';
import { log } from '../lib/log';
import { OpenAiRequestRejected, postForAnswer, type OpenAiServer } from '../upstream/openai-http';
import { CallUsage } from '../upstream/token-usage';
import { timedOut, upstreamFailed } from '../upstream/upstream-errors';
import { modelPrompt } from './conversation';
import { readCompletionStream, readWholeCompletion, type Completion } from './openai-completion';
import { modelTutor, toolResult, wholeAnswerEvents, type ModelCall } from './model-tutor';
import { chunksOf } from './server-sent-events';
import { TUTOR_TOOLS } from './system-prompt';
import type { Tutor, TutorStreamEvent } from './tutor';

const TOOLS = TUTOR_TOOLS.map((tool) => ({
  type: 'function' as const,
  function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
}));

type WireMessage =
  | { role: 'system' | 'user' | 'assistant'; content: string | null; tool_calls?: unknown }
  | { role: 'tool'; tool_call_id: string; content: string };

export function createOpenAiTutor(config: TutorConfig): Tutor {
  const { baseUrl, apiKey, model } = config.openai;
  if (!baseUrl || !model) throw new Error('OPENAI_BASE_URL and OPENAI_MODEL are required');
  const server: OpenAiServer = { baseUrl, apiKey };
  const compatibility = {
    tools: true,
    stream: true,
    /** `stream_options.include_usage`: the usage of a streamed completion, in its last chunk. */
    streamUsage: true,
    tokenField: 'max_tokens' as 'max_tokens' | 'max_completion_tokens',
  };

  const requestBody = (messages: readonly WireMessage[], stream: boolean): Record<string, unknown> => ({
    model,
    messages,
    [compatibility.tokenField]: config.maxTokens,
    ...(compatibility.tools ? { tools: TOOLS, tool_choice: 'auto' } : {}),
    ...(stream ? { stream: true } : {}),
    ...(stream && compatibility.streamUsage ? { stream_options: { include_usage: true } } : {}),
  });

  /** Drops what the server refused (tools, streaming, `max_tokens`), so the caller asks again; else throws. */
  function workAround(error: unknown, streaming: boolean): void {
    if (!(error instanceof OpenAiRequestRejected)) throw error;
    if (compatibility.tools && /\btools?\b|function/i.test(error.detail)) {
      compatibility.tools = false;
      log.warn('openai server refused tools; replying without pictures', { status: error.status });
    } else if (compatibility.tokenField === 'max_tokens' && /max_tokens/.test(error.detail)) {
      compatibility.tokenField = 'max_completion_tokens';
      log.info('openai server refused max_tokens; using max_completion_tokens', { status: error.status });
    } else if (streaming && compatibility.streamUsage && /stream_options|include_usage/.test(error.detail)) {
      // Without it a streamed reply's usage is estimated (lambdas/upstream/token-usage.ts); streaming itself stays.
      compatibility.streamUsage = false;
      log.warn('openai server refused stream_options; estimating streamed usage', { status: error.status });
    } else if (streaming && compatibility.stream && /\bstream/i.test(error.detail)) {
      compatibility.stream = false;
      log.warn('openai server refused streaming; replying in one piece', { status: error.status });
    } else {
      throw upstreamFailed(error);
    }
  }

  /**
   * One completion, asked for as a stream when the reply streams: yields the text as it settles and the
   * picture once; returns what the completion said. A whole completion (a whole reply, or a server that
   * ignores `stream` or refused it) is read by the same rules, its text one piece.
   */
  async function* complete(
    messages: readonly WireMessage[],
    { streaming, limit, pictureShown, meter }: ModelCall,
  ): AsyncGenerator<TutorStreamEvent, Completion> {
    let response: Response | undefined;
    let usage: CallUsage | undefined;
    try {
      while (!response) {
        const stream = streaming && compatibility.stream;
        const body = requestBody(messages, stream);
        usage = new CallUsage(meter, JSON.stringify(body).length);
        try {
          response = await postForAnswer(server, 'chat/completions', body, limit, stream);
        } catch (error) {
          // A refusal read nothing and costs nothing: no estimate for it.
          if (error instanceof OpenAiRequestRejected) usage.reported({ inputTokens: 0, outputTokens: 0 });
          workAround(error, streaming);
        }
      }
      limit.touch();
      const streamed = /^text\/event-stream/i.test(response.headers.get('content-type') ?? '');
      if (streamed && response.body) {
        const completion = yield* readCompletionStream(chunksOf(response.body), limit, usage);
        usage?.reported(completion.usage);
        if (!pictureShown && completion.imagePrompt !== undefined) {
          yield { type: 'picture', imagePrompt: completion.imagePrompt };
        }
        return completion;
      }
      const completion = await readWholeCompletion(response);
      usage?.reported(completion.usage);
      usage?.saw(completion.text);
      yield* wholeAnswerEvents(completion, pictureShown);
      return completion;
    } finally {
      usage?.end();
    }
  }

  return modelTutor<readonly WireMessage[], Completion>(config, {
    provider: 'openai',
    async conversation(request) {
      const prompt = await modelPrompt(request);
      return [
        { role: 'system', content: prompt.system },
        ...prompt.turns.map((turn) => ({ role: turn.role, content: turn.text })),
      ];
    },
    afterTools: (messages, answer) => [
      ...messages,
      { role: 'assistant', content: null, tool_calls: answer.sentToolCalls },
      ...answer.toolCalls.map(({ id, name }) => ({
        role: 'tool' as const,
        tool_call_id: id,
        content: toolResult(name),
      })),
    ],
    ask: complete,
    failure: (error, limit) => {
      if (error instanceof ApiError) return error;
      return limit.expired() ? timedOut(error) : upstreamFailed(error);
    },
  });
}
