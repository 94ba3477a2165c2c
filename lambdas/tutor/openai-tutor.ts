import { z } from 'zod';
import type { TutorConfig } from '../config';
import { log } from '../lib/log';
import type { Check } from '../contract/teaching';
import { CHECK_NOTED, checkOf, parseToolInput } from './check-tools';
import { modelPrompt } from './conversation';
import { ApiError } from '../lib/api-error';
import { picturePrompt, spokenText, spokenTextStream } from './model-text';
import { OpenAiRequestRejected, postForStream, postJson, type OpenAiServer } from '../upstream/openai-http';
import { chunksOf, serverSentData } from './server-sent-events';
import { PICTURE_SHOWN, SHOW_PICTURE_TOOL, TUTOR_TOOLS } from './system-prompt';
import { doneEvent, type Tutor, type TutorReply, type TutorRequest, type TutorStreamEvent } from './tutor';
import { CallUsage, tokenUsage, type TokenUsage, type UsageMeter } from '../upstream/token-usage';
import { deadline, type Deadline, streamDeadline, within, type StreamDeadline } from '../upstream/deadline';
import { contentFiltered, MalformedReply, timedOut, upstreamFailed } from '../upstream/upstream-errors';

const TOOLS = TUTOR_TOOLS.map((tool) => ({
  type: 'function' as const,
  function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
}));

/** A completion's `usage` (whole or in a stream's last chunk): read for the spend ledger only. */
const usageSchema = z
  .object({ prompt_tokens: z.unknown(), completion_tokens: z.unknown() })
  .partial()
  .nullish()
  .catch(undefined);

/** The part of a chat completion the tutor reads; anything else the server adds is ignored. */
const completionSchema = z.object({
  usage: usageSchema,
  choices: z
    .array(
      z.object({
        finish_reason: z.string().nullish(),
        message: z.object({
          content: z.string().nullish(),
          tool_calls: z
            .array(
              z.object({
                id: z.string().nullish(),
                function: z.object({ name: z.string(), arguments: z.string().nullish() }).nullish(),
              }),
            )
            .nullish(),
        }),
      }),
    )
    .min(1),
});

/** One chunk of a streamed chat completion (`stream: true`), the parts the tutor reads. */
const chunkSchema = z.object({
  usage: usageSchema,
  choices: z.array(
    z.object({
      finish_reason: z.string().nullish(),
      delta: z
        .object({
          content: z.string().nullish(),
          tool_calls: z
            .array(
              z.object({
                index: z.number().int().nonnegative().nullish(),
                id: z.string().nullish(),
                function: z.object({ name: z.string().nullish(), arguments: z.string().nullish() }).nullish(),
              }),
            )
            .nullish(),
        })
        .nullish(),
    }),
  ),
});

/** What one completion said, streamed or not. */
interface Completion {
  readonly text: string;
  readonly imagePrompt?: string;
  readonly check?: Check;
  readonly toolCalls: unknown[];
  /** The calls to answer with a tool result before a follow-up request. */
  readonly answered: readonly { readonly id: string; readonly name: string }[];
  /** What the server said the completion used, when it said. */
  readonly usage?: TokenUsage;
}

/**
 * The one place an OpenAI-compatible server's usage is read (a completion's `usage`, or a stream's last
 * chunk's, asked for with `stream_options.include_usage`): the tokens the call read and wrote.
 */
function usageOf(usage: z.output<typeof usageSchema>): TokenUsage | undefined {
  return tokenUsage(usage?.prompt_tokens, usage?.completion_tokens);
}

type WireMessage =
  | { role: 'system' | 'user' | 'assistant'; content: string | null; tool_calls?: unknown }
  | { role: 'tool'; tool_call_id: string; content: string };

/**
 * The tutor on any OpenAI-compatible chat completions endpoint. The picture comes through function
 * calling; a server that refuses tools (400 naming tools or functions) is asked again without them,
 * and remembered, so later replies go straight to plain text.
 */
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

  const requestBody = (messages: WireMessage[], stream: boolean): Record<string, unknown> => ({
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
      // Without it a streamed reply's usage is estimated (lambdas/tutor/usage.ts); streaming itself stays.
      compatibility.streamUsage = false;
      log.warn('openai server refused stream_options; estimating streamed usage', { status: error.status });
    } else if (streaming && compatibility.stream && /\bstream/i.test(error.detail)) {
      compatibility.stream = false;
      log.warn('openai server refused streaming; replying in one piece', { status: error.status });
    } else {
      throw upstreamFailed(error);
    }
  }

  async function complete(
    messages: WireMessage[],
    limit: Deadline,
    meter: UsageMeter | undefined,
  ): Promise<Completion> {
    for (;;) {
      const body = requestBody(messages, false);
      const usage = new CallUsage(meter, JSON.stringify(body).length);
      try {
        const completion = readCompletion(await postJson(server, 'chat/completions', body, limit));
        usage.reported(completion.usage);
        usage.saw(completion.text);
        return completion;
      } catch (error) {
        // A refusal read nothing and costs nothing: no estimate for it.
        if (error instanceof OpenAiRequestRejected) usage.reported({ inputTokens: 0, outputTokens: 0 });
        workAround(error, false);
      } finally {
        usage.end();
      }
    }
  }

  /**
   * One completion asked for as a stream: yields the text as it settles and the picture once; returns
   * what the completion said. A server that answers with a whole completion instead (it ignores
   * `stream`, or refused it) is read as `reply()` reads it, its text one piece.
   */
  async function* completeStreaming(
    messages: WireMessage[],
    limit: StreamDeadline,
    pictureShown: boolean,
    meter: UsageMeter | undefined,
  ): AsyncGenerator<TutorStreamEvent, Completion> {
    let response: Response | undefined;
    let usage: CallUsage | undefined;
    try {
      while (!response) {
        const body = requestBody(messages, compatibility.stream);
        usage = new CallUsage(meter, JSON.stringify(body).length);
        try {
          response = await postForStream(server, 'chat/completions', body, limit);
        } catch (error) {
          // A refusal read nothing and costs nothing: no estimate for it.
          if (error instanceof OpenAiRequestRejected) usage.reported({ inputTokens: 0, outputTokens: 0 });
          workAround(error, true);
        }
      }
      limit.touch();
      const streamed = /^text\/event-stream/i.test(response.headers.get('content-type') ?? '');
      const completion =
        streamed && response.body
          ? yield* readCompletionStream(chunksOf(response.body), limit, usage)
          : await readWholeCompletion(response);
      usage?.reported(completion.usage);
      if (!streamed && completion.text.length > 0) yield { type: 'delta', text: completion.text };
      if (!pictureShown && completion.imagePrompt !== undefined) {
        yield { type: 'picture', imagePrompt: completion.imagePrompt };
      }
      return completion;
    } finally {
      usage?.end();
    }
  }

  const conversation = async (request: TutorRequest): Promise<WireMessage[]> => {
    const prompt = await modelPrompt(request);
    return [
      { role: 'system', content: prompt.system },
      ...prompt.turns.map((turn) => ({ role: turn.role, content: turn.text })),
    ];
  };
  const afterTool = (messages: WireMessage[], first: Completion): WireMessage[] => [
    ...messages,
    { role: 'assistant', content: null, tool_calls: first.toolCalls },
    ...first.answered.map(({ id, name }) => ({
      role: 'tool' as const,
      tool_call_id: id,
      content: name === SHOW_PICTURE_TOOL.name ? PICTURE_SHOWN : CHECK_NOTED,
    })),
  ];

  return {
    provider: 'openai',
    async *stream(request, signal, meter): AsyncGenerator<TutorStreamEvent> {
      const limit = streamDeadline(config.timeoutMs, config.idleTimeoutMs, signal);
      try {
        const messages = await conversation(request);
        // The idle deadline is the model's silence: reading a language's lessons is not part of it.
        limit.touch();
        const first = yield* completeStreaming(messages, limit, false, meter);
        if (first.text.length > 0) return yield doneEvent(reply(first));
        if (first.answered.length === 0) throw new MalformedReply('the model returned no text');
        // As in reply(): the model only called tools, so it hears they are done, once.
        const second = yield* completeStreaming(
          afterTool(messages, first),
          limit,
          first.imagePrompt !== undefined,
          meter,
        );
        if (second.text.length === 0) throw new MalformedReply('the model returned no text after the tool');
        yield doneEvent(followUpReply(first, second));
      } catch (error) {
        if (error instanceof ApiError) throw error;
        throw limit.expired() ? timedOut(error) : upstreamFailed(error);
      } finally {
        limit.dispose();
      }
    },
    async reply(request, signal, meter): Promise<TutorReply> {
      const limit = deadline(config.timeoutMs, signal);
      try {
        const messages = await conversation(request);
        const first = await complete(messages, limit, meter);
        if (first.text.length > 0) return reply(first);
        if (first.answered.length === 0) {
          throw upstreamFailed(new MalformedReply('the model returned no text'));
        }
        // The model only called tools (a picture, a check): tell it they are done, once, and take its words.
        const second = await complete(afterTool(messages, first), limit, meter);
        if (second.text.length === 0) {
          throw upstreamFailed(new MalformedReply('the model returned no text after the tool'));
        }
        return followUpReply(first, second);
      } finally {
        limit.dispose();
      }
    },
  };
}

function reply(completion: Pick<Completion, 'text' | 'imagePrompt' | 'check'>): TutorReply {
  return {
    response: completion.text,
    ...(completion.imagePrompt === undefined ? {} : { imagePrompt: completion.imagePrompt }),
    ...(completion.check === undefined ? {} : { check: completion.check }),
  };
}

/** The words of the follow-up request; what the first one reported (picture, check) comes first. */
function followUpReply(first: Completion, second: Completion): TutorReply {
  return reply({
    text: second.text,
    imagePrompt: first.imagePrompt ?? second.imagePrompt,
    check: first.check ?? second.check,
  });
}

function readCompletion(json: unknown): Completion {
  const parsed = completionSchema.safeParse(json);
  if (!parsed.success) throw upstreamFailed(new MalformedReply('not a chat completion'));
  const choice = parsed.data.choices[0];
  if (!choice) throw upstreamFailed(new MalformedReply('no choice'));
  if (choice.finish_reason === 'content_filter') {
    throw contentFiltered(new Error('finish_reason content_filter'));
  }
  return {
    ...withToolCalls(spokenText(choice.message.content ?? ''), choice.message.tool_calls ?? []),
    usage: usageOf(parsed.data.usage),
  };
}

interface ToolCall {
  readonly id?: string | null;
  readonly function?: { readonly name: string; readonly arguments?: string | null } | null;
}

/** The completion's text with what its tool calls mean: the picture, the check, and the calls to answer. */
function withToolCalls(text: string, calls: readonly ToolCall[]): Completion {
  const imagePrompt = calls
    .filter((call) => call.function?.name === SHOW_PICTURE_TOOL.name)
    .map((call) => picturePrompt(promptOf(call.function?.arguments)))
    .find((prompt) => prompt !== undefined);
  const check = checkOf(
    calls.flatMap((call) =>
      call.function ? [{ name: call.function.name, input: parseToolInput(call.function.arguments) }] : [],
    ),
  );
  const answered = calls.flatMap((call) =>
    call.id && call.function ? [{ id: call.id, fn: call.function }] : [],
  );
  return {
    text,
    imagePrompt,
    check,
    // Sent back as the server expects them before the tool results of a follow-up request.
    toolCalls: answered.map(({ id, fn }) => ({
      id,
      type: 'function',
      function: { name: fn.name, arguments: fn.arguments || '{}' },
    })),
    answered: answered.map(({ id, fn }) => ({ id, name: fn.name })),
  };
}

/** A whole completion where a stream was asked for, read under the same deadline. */
async function readWholeCompletion(response: Response): Promise<Completion> {
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text) as unknown;
  } catch {
    throw upstreamFailed(new MalformedReply(`not JSON (${text.length} characters)`));
  }
  return readCompletion(json);
}

/**
 * A streamed completion: SSE `data:` chunks with `choices[0].delta` (content, and tool calls whose
 * arguments arrive in pieces, by index) until `data: [DONE]` or a finish reason. Yields the text as
 * it settles (`spokenText` rules); returns what the completion said.
 */
async function* readCompletionStream(
  body: AsyncIterable<Uint8Array>,
  limit: StreamDeadline,
  callUsage: CallUsage | undefined,
): AsyncGenerator<TutorStreamEvent, Completion> {
  const spoken = spokenTextStream();
  const calls = new Map<number, { id: string; name: string; arguments: string }>();
  let ended = false;
  let usage: TokenUsage | undefined;
  for await (const data of within(serverSentData(body), limit)) {
    if (data.trim() === '[DONE]') {
      ended = true;
      break;
    }
    let json: unknown;
    try {
      json = JSON.parse(data) as unknown;
    } catch {
      throw new MalformedReply('a streamed chunk that is not JSON');
    }
    const parsed = chunkSchema.safeParse(json);
    if (!parsed.success) throw new MalformedReply('not a chat completion chunk');
    // With `include_usage` the last chunk carries the usage and no choice; some servers put it on the last one.
    usage = usageOf(parsed.data.usage) ?? usage;
    const choice = parsed.data.choices[0];
    if (!choice) continue;
    callUsage?.saw(choice.delta?.content ?? '');
    const text = spoken.push(choice.delta?.content ?? '');
    if (text.length > 0) yield { type: 'delta', text };
    for (const call of choice.delta?.tool_calls ?? []) {
      const index = call.index ?? 0;
      const entry = calls.get(index) ?? { id: '', name: '', arguments: '' };
      entry.id ||= call.id ?? '';
      // Servers send the name once (OpenAI) or whole in every chunk (some local ones): the first counts.
      entry.name ||= call.function?.name ?? '';
      entry.arguments += call.function?.arguments ?? '';
      calls.set(index, entry);
    }
    if (choice.finish_reason === 'content_filter') {
      throw contentFiltered(new Error('finish_reason content_filter'));
    }
    if (choice.finish_reason) ended = true;
  }
  if (!ended) throw new MalformedReply('the stream ended before the answer did');
  const rest = spoken.finish();
  if (rest.length > 0) yield { type: 'delta', text: rest };
  const ordered = [...calls.entries()].sort(([a], [b]) => a - b).map(([, call]) => call);
  return {
    ...withToolCalls(
      spoken.text,
      ordered.map((call) => ({ id: call.id, function: { name: call.name, arguments: call.arguments } })),
    ),
    usage,
  };
}

/** The `prompt` of a function call's JSON arguments; unreadable arguments simply mean no picture. */
function promptOf(args: string | null | undefined): unknown {
  const parsed = parseToolInput(args);
  return typeof parsed === 'object' && parsed !== null ? (parsed as { prompt?: unknown }).prompt : undefined;
}
