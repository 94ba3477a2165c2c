/**
 * Reading an OpenAI-compatible chat completion, whole or streamed (server-sent events), into what the
 * tutor's one path reads (model-tutor.ts): the same rules for both, so that a streamed reply ends with
 * exactly what a whole one says.
 */
import { z } from 'zod';
import { within, type StreamDeadline } from '../upstream/deadline';
import { tokenUsage, type CallUsage, type TokenUsage } from '../upstream/token-usage';
import { contentFiltered, MalformedReply, upstreamFailed } from '../upstream/upstream-errors';
import { checkOf, parseToolInput } from './check-tools';
import { picturePrompt, spokenText, spokenTextStream } from './model-text';
import { promptOf, type ModelAnswer } from './model-tutor';
import { serverSentData } from './server-sent-events';
import { SHOW_PICTURE_TOOL } from './system-prompt';
import type { TutorStreamEvent } from './tutor';

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
export interface Completion extends ModelAnswer {
  /** The tool calls as the server expects them back before the tool results of a follow-up request. */
  readonly sentToolCalls: unknown[];
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

export function readCompletion(json: unknown): Completion {
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
    .map((call) => picturePrompt(promptOf(parseToolInput(call.function?.arguments))))
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
    sentToolCalls: answered.map(({ id, fn }) => ({
      id,
      type: 'function',
      function: { name: fn.name, arguments: fn.arguments || '{}' },
    })),
    toolCalls: answered.map(({ id, fn }) => ({ id, name: fn.name })),
  };
}

/** A whole completion where a stream was asked for, read under the same deadline. */
export async function readWholeCompletion(response: Response): Promise<Completion> {
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
export async function* readCompletionStream(
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
