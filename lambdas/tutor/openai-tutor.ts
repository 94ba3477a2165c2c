import { z } from 'zod';
import type { TutorConfig } from '../config';
import { log } from '../http/log';
import { modelTurns } from './conversation';
import { picturePrompt, spokenText } from './model-text';
import { OpenAiRequestRejected, postJson, type OpenAiServer } from './openai-http';
import { PICTURE_SHOWN, SHOW_PICTURE_TOOL, systemPrompt } from './system-prompt';
import type { Tutor, TutorReply } from './tutor';
import { contentFiltered, deadline, type Deadline, MalformedReply, upstreamFailed } from './upstream';

const TOOLS = [
  {
    type: 'function',
    function: {
      name: SHOW_PICTURE_TOOL.name,
      description: SHOW_PICTURE_TOOL.description,
      parameters: SHOW_PICTURE_TOOL.inputSchema,
    },
  },
] as const;

/** The part of a chat completion the tutor reads; anything else the server adds is ignored. */
const completionSchema = z.object({
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
  const compatibility = { tools: true, tokenField: 'max_tokens' as 'max_tokens' | 'max_completion_tokens' };

  async function complete(messages: WireMessage[], limit: Deadline) {
    for (;;) {
      const body: Record<string, unknown> = {
        model,
        messages,
        [compatibility.tokenField]: config.maxTokens,
        ...(compatibility.tools ? { tools: TOOLS, tool_choice: 'auto' } : {}),
      };
      try {
        return readCompletion(await postJson(server, 'chat/completions', body, limit));
      } catch (error) {
        if (!(error instanceof OpenAiRequestRejected)) throw error;
        if (compatibility.tools && /\btools?\b|function/i.test(error.detail)) {
          compatibility.tools = false;
          log.warn('openai server refused tools; replying without pictures', { status: error.status });
        } else if (compatibility.tokenField === 'max_tokens' && /max_tokens/.test(error.detail)) {
          compatibility.tokenField = 'max_completion_tokens';
          log.info('openai server refused max_tokens; using max_completion_tokens', { status: error.status });
        } else {
          throw upstreamFailed(error);
        }
      }
    }
  }

  return {
    provider: 'openai',
    async reply(request, signal): Promise<TutorReply> {
      const limit = deadline(config.timeoutMs, signal);
      const messages: WireMessage[] = [
        { role: 'system', content: systemPrompt(request.language) },
        ...modelTurns(request).map((turn) => ({ role: turn.role, content: turn.text })),
      ];
      const first = await complete(messages, limit);
      if (first.text.length > 0) return reply(first.text, first.imagePrompt);
      if (first.toolCallIds.length === 0)
        throw upstreamFailed(new MalformedReply('the model returned no text'));
      // The model only asked for a picture: tell it the picture is shown, once, and take its words.
      const second = await complete(
        [
          ...messages,
          { role: 'assistant', content: null, tool_calls: first.toolCalls },
          ...first.toolCallIds.map((id) => ({
            role: 'tool' as const,
            tool_call_id: id,
            content: PICTURE_SHOWN,
          })),
        ],
        limit,
      );
      if (second.text.length === 0) {
        throw upstreamFailed(new MalformedReply('the model returned no text after the tool'));
      }
      return reply(second.text, first.imagePrompt ?? second.imagePrompt);
    },
  };
}

function reply(response: string, imagePrompt: string | undefined): TutorReply {
  return imagePrompt === undefined ? { response } : { response, imagePrompt };
}

function readCompletion(json: unknown): {
  text: string;
  imagePrompt?: string;
  toolCalls: unknown[];
  toolCallIds: string[];
} {
  const parsed = completionSchema.safeParse(json);
  if (!parsed.success) throw upstreamFailed(new MalformedReply('not a chat completion'));
  const choice = parsed.data.choices[0];
  if (!choice) throw upstreamFailed(new MalformedReply('no choice'));
  if (choice.finish_reason === 'content_filter') {
    throw contentFiltered(new Error('finish_reason content_filter'));
  }
  const calls = choice.message.tool_calls ?? [];
  const imagePrompt = calls
    .filter((call) => call.function?.name === SHOW_PICTURE_TOOL.name)
    .map((call) => picturePrompt(promptOf(call.function?.arguments)))
    .find((prompt) => prompt !== undefined);
  const answered = calls.flatMap((call) =>
    call.id && call.function ? [{ id: call.id, fn: call.function }] : [],
  );
  return {
    text: spokenText(choice.message.content ?? ''),
    imagePrompt,
    // Sent back as the server expects them before the tool results of a follow-up request.
    toolCalls: answered.map(({ id, fn }) => ({
      id,
      type: 'function',
      function: { name: fn.name, arguments: fn.arguments ?? '{}' },
    })),
    toolCallIds: answered.map(({ id }) => id),
  };
}

/** The `prompt` of a function call's JSON arguments; unreadable arguments simply mean no picture. */
function promptOf(args: string | null | undefined): unknown {
  if (!args) return undefined;
  try {
    const parsed: unknown = JSON.parse(args);
    return typeof parsed === 'object' && parsed !== null
      ? (parsed as { prompt?: unknown }).prompt
      : undefined;
  } catch {
    return undefined;
  }
}
