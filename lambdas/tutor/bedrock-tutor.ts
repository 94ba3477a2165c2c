import {
  ConverseCommand,
  ConverseStreamCommand,
  type ContentBlock,
  type ConverseCommandInput,
  type ConverseCommandOutput,
  type ConverseStreamOutput,
  type Message,
  type StopReason,
  type ToolConfiguration,
} from '@aws-sdk/client-bedrock-runtime';
import type { TutorConfig } from '../config';
import { bedrockRuntimeClient } from '../upstream/bedrock-client';
import { deadline, streamDeadline, within, type StreamDeadline } from '../upstream/deadline';
import { contentFiltered, fromAwsError, MalformedReply, upstreamFailed } from '../upstream/upstream-errors';
import type { Check } from '../contract/teaching';
import { CHECK_NOTED, checkOf, parseToolInput, type ToolCallSeen } from './check-tools';
import { modelPrompt } from './conversation';
import { guardrailFields } from './guardrail';
import { picturePrompt, spokenText, spokenTextStream } from './model-text';
import { PICTURE_SHOWN, SHOW_PICTURE_TOOL, TUTOR_TOOLS } from './system-prompt';
import { doneEvent, type Tutor, type TutorReply, type TutorRequest, type TutorStreamEvent } from './tutor';
import { CallUsage, tokenUsage, type TokenUsage, type UsageMeter } from '../upstream/token-usage';

const TOOL_CONFIG: ToolConfiguration = {
  tools: TUTOR_TOOLS.map((tool) => ({
    toolSpec: { name: tool.name, description: tool.description, inputSchema: { json: tool.inputSchema } },
  })),
};

/** A tool use the model made, to be answered with a tool result before a follow-up call. */
interface ToolUseSeen {
  readonly toolUseId: string;
  readonly name: string;
}

interface Answer {
  readonly message: Message;
  readonly text: string;
  readonly imagePrompt?: string;
  readonly check?: Check;
  readonly toolUses: readonly ToolUseSeen[];
}

type StreamedBlock =
  | { readonly kind: 'text'; text: string }
  | { readonly kind: 'tool'; readonly toolUseId: string; readonly name: string; input: string };

/**
 * A ConverseStream answer put together from its events, read with the rules `readAnswer` applies to a
 * whole Converse answer: text blocks joined by a space and cleaned (`spokenText`, here as it streams),
 * the first usable `show_picture` prompt and the check reported (tool inputs arrive in pieces), the
 * stop reason checked.
 */
class StreamedAnswer {
  private readonly blocks = new Map<number, StreamedBlock>();
  private readonly spoken = spokenTextStream();
  private textBlocks = 0;
  private stopReason: StopReason | undefined;
  imagePrompt: string | undefined;
  /** What the `metadata` event said the call used. */
  usage: TokenUsage | undefined;

  /** Reads one event; returns the text it settled ('' when none). */
  read(event: ConverseStreamOutput): string {
    if (event.contentBlockStart) {
      const tool = event.contentBlockStart.start?.toolUse;
      if (tool) {
        this.blocks.set(event.contentBlockStart.contentBlockIndex ?? 0, {
          kind: 'tool',
          toolUseId: tool.toolUseId ?? '',
          name: tool.name ?? '',
          input: '',
        });
      }
    } else if (event.contentBlockDelta) {
      const index = event.contentBlockDelta.contentBlockIndex ?? 0;
      const delta = event.contentBlockDelta.delta;
      const block = this.blocks.get(index);
      if (typeof delta?.text === 'string') return this.addText(index, block, delta.text);
      if (delta?.toolUse && block?.kind === 'tool') block.input += delta.toolUse.input ?? '';
    } else if (event.contentBlockStop) {
      this.readPicture(this.blocks.get(event.contentBlockStop.contentBlockIndex ?? 0));
    } else if (event.messageStop) {
      this.stopReason = event.messageStop.stopReason ?? 'end_turn';
      checkStopReason(this.stopReason);
    } else if (event.metadata) {
      this.usage = usageOf(event.metadata.usage);
    }
    return '';
  }

  finish(): Answer & { readonly rest: string } {
    if (this.stopReason === undefined) throw new MalformedReply('the answer ended before its stop reason');
    const rest = this.spoken.finish();
    const ordered = [...this.blocks.entries()].sort(([a], [b]) => a - b).map(([, block]) => block);
    for (const block of ordered) this.readPicture(block);
    const content = ordered.map((block): ContentBlock =>
      block.kind === 'text'
        ? { text: block.text }
        : {
            toolUse: {
              toolUseId: block.toolUseId,
              name: block.name,
              input: toolInput(block.input) as Record<string, never>,
            },
          },
    );
    const tools = ordered.flatMap((block) => (block.kind === 'tool' ? [block] : []));
    return {
      message: { role: 'assistant', content },
      text: this.spoken.text,
      rest,
      imagePrompt: this.imagePrompt,
      check: checkOf(tools.map((tool) => ({ name: tool.name, input: parseToolInput(tool.input) }))),
      toolUses: tools.flatMap((tool) =>
        tool.toolUseId ? [{ toolUseId: tool.toolUseId, name: tool.name }] : [],
      ),
    };
  }

  private addText(index: number, block: StreamedBlock | undefined, text: string): string {
    if (block?.kind === 'tool') return '';
    let piece = '';
    if (!block) {
      // readAnswer joins the text blocks with a space.
      if (this.textBlocks > 0) piece += this.spoken.push(' ');
      this.textBlocks += 1;
      this.blocks.set(index, { kind: 'text', text });
    } else block.text += text;
    return piece + this.spoken.push(text);
  }

  private readPicture(block: StreamedBlock | undefined): void {
    if (this.imagePrompt !== undefined || block?.kind !== 'tool' || block.name !== SHOW_PICTURE_TOOL.name)
      return;
    this.imagePrompt = picturePrompt(promptOf(toolInput(block.input)));
  }
}

/**
 * The one place Bedrock's usage is read (a Converse answer's `usage`, a ConverseStream `metadata` event's):
 * the tokens the call read and wrote, for the spend ledger.
 */
function usageOf(usage: { inputTokens?: number; outputTokens?: number } | undefined): TokenUsage | undefined {
  return tokenUsage(usage?.inputTokens, usage?.outputTokens);
}

/** A Converse call's usage meter: what it sends is what an estimate counts (lambdas/tutor/usage.ts). */
function callUsage(meter: UsageMeter | undefined, input: ConverseCommandInput): CallUsage {
  return new CallUsage(meter, JSON.stringify(input).length);
}

/** A tool's JSON input as streamed, as the Converse message holds it; unreadable input becomes `{}`. */
function toolInput(json: string): unknown {
  return parseToolInput(json) ?? {};
}

function checkStopReason(stopReason: string | undefined): void {
  if (stopReason === 'content_filtered' || stopReason === 'guardrail_intervened') {
    throw contentFiltered(new Error(`stopReason ${stopReason}`));
  }
  if (stopReason === 'malformed_model_output' || stopReason === 'malformed_tool_use') {
    throw new MalformedReply(`stopReason ${stopReason}`);
  }
}

/**
 * The tutor on Amazon Bedrock's Converse API. One deadline covers the whole reply; the client makes one
 * attempt per call (why: upstream/bedrock-client.ts).
 */
export function createBedrockTutor(config: TutorConfig): Tutor {
  const { modelId } = config.bedrock;
  const client = bedrockRuntimeClient(config.bedrock);

  const request = async (tutorRequest: TutorRequest) => {
    const prompt = await modelPrompt(tutorRequest);
    return {
      base: {
        modelId,
        system: [{ text: prompt.system }],
        inferenceConfig: { maxTokens: config.maxTokens, temperature: 0.5 },
        toolConfig: TOOL_CONFIG,
        ...guardrailFields(config),
      } satisfies Omit<ConverseCommandInput, 'messages'>,
      messages: prompt.turns.map((turn): Message => ({ role: turn.role, content: [{ text: turn.text }] })),
    };
  };

  /** One ConverseStream call: yields the text as it settles and the picture once; returns the answer. */
  async function* converseStream(
    input: ConverseCommandInput,
    limit: StreamDeadline,
    pictureShown: boolean,
    meter: UsageMeter | undefined,
  ): AsyncGenerator<TutorStreamEvent, Answer & { readonly rest: string }> {
    const usage = callUsage(meter, input);
    const answer = new StreamedAnswer();
    try {
      const output = await client.send(new ConverseStreamCommand(input), { abortSignal: limit.signal });
      limit.touch();
      if (!output.stream) throw new MalformedReply('no event stream in the answer');
      for await (const event of within(output.stream, limit)) {
        const text = answer.read(event);
        usage.saw(text);
        if (text.length > 0) yield { type: 'delta', text };
        if (!pictureShown && answer.imagePrompt !== undefined) {
          pictureShown = true;
          yield { type: 'picture', imagePrompt: answer.imagePrompt };
        }
      }
      return answer.finish();
    } finally {
      usage.reported(answer.usage);
      usage.end();
    }
  }

  return {
    provider: 'bedrock',
    async *stream(tutorRequest, signal, meter): AsyncGenerator<TutorStreamEvent> {
      const limit = streamDeadline(config.timeoutMs, config.idleTimeoutMs, signal);
      try {
        const { base, messages } = await request(tutorRequest);
        // The idle deadline is the model's silence: reading a language's lessons is not part of it.
        limit.touch();
        const first = yield* converseStream({ ...base, messages }, limit, false, meter);
        if (first.rest.length > 0) yield { type: 'delta', text: first.rest };
        if (first.text.length > 0) return yield doneEvent(reply(first));
        if (first.toolUses.length === 0) throw new MalformedReply('the model returned no text');
        // As in reply(): the model only called tools, so it hears they are done, once.
        const second = yield* converseStream(
          { ...base, messages: [...messages, first.message, toolResults(first.toolUses)] },
          limit,
          first.imagePrompt !== undefined,
          meter,
        );
        if (second.rest.length > 0) yield { type: 'delta', text: second.rest };
        if (second.text.length === 0) throw new MalformedReply('the model returned no text after the tool');
        yield doneEvent(followUpReply(first, second));
      } catch (error) {
        throw fromAwsError(error instanceof MalformedReply ? upstreamFailed(error) : error, limit);
      } finally {
        limit.dispose();
      }
    },
    async reply(tutorRequest, signal, meter): Promise<TutorReply> {
      const limit = deadline(config.timeoutMs, signal);
      try {
        const { base, messages } = await request(tutorRequest);
        const converse = async (conversation: Message[]) => {
          const input: ConverseCommandInput = { ...base, messages: conversation };
          const usage = callUsage(meter, input);
          try {
            const output = await client.send(new ConverseCommand(input), { abortSignal: limit.signal });
            usage.reported(usageOf(output.usage));
            return readAnswer(output);
          } finally {
            usage.end();
          }
        };
        const first = await converse(messages);
        if (first.text.length > 0) return reply(first);
        if (first.toolUses.length === 0) throw new MalformedReply('the model returned no text');
        // The model only called tools (a picture, a check): tell it they are done, once, and take its words.
        const second = await converse([...messages, first.message, toolResults(first.toolUses)]);
        if (second.text.length === 0) throw new MalformedReply('the model returned no text after the tool');
        return followUpReply(first, second);
      } catch (error) {
        throw fromAwsError(error instanceof MalformedReply ? upstreamFailed(error) : error, limit);
      } finally {
        limit.dispose();
      }
    },
  };
}

function reply(answer: Pick<Answer, 'text' | 'imagePrompt' | 'check'>): TutorReply {
  return {
    response: answer.text,
    ...(answer.imagePrompt === undefined ? {} : { imagePrompt: answer.imagePrompt }),
    ...(answer.check === undefined ? {} : { check: answer.check }),
  };
}

/** The words of the follow-up call; what the first call reported (picture, check) comes first. */
function followUpReply(first: Omit<Answer, 'message'>, second: Omit<Answer, 'message'>): TutorReply {
  return reply({
    text: second.text,
    imagePrompt: first.imagePrompt ?? second.imagePrompt,
    check: first.check ?? second.check,
  });
}

function readAnswer(output: ConverseCommandOutput): Answer {
  checkStopReason(output.stopReason);
  const message = output.output?.message;
  if (!message || !Array.isArray(message.content)) throw new MalformedReply('no message in the answer');
  const content: ContentBlock[] = message.content;
  const text = spokenText(
    content
      .map((block) => block.text)
      .filter((text): text is string => typeof text === 'string')
      .join(' '),
  );
  const toolUses = content.flatMap((block) => (block.toolUse ? [block.toolUse] : []));
  const pictures = toolUses.filter((use) => use.name === SHOW_PICTURE_TOOL.name);
  const imagePrompt = pictures
    .map((use) => picturePrompt(promptOf(use.input)))
    .find((prompt) => prompt !== undefined);
  const seen: ToolCallSeen[] = toolUses.map((use) => ({ name: use.name ?? '', input: use.input }));
  return {
    message,
    text,
    imagePrompt,
    check: checkOf(seen),
    toolUses: toolUses.flatMap((use) =>
      use.toolUseId ? [{ toolUseId: use.toolUseId, name: use.name ?? '' }] : [],
    ),
  };
}

function promptOf(input: unknown): unknown {
  return typeof input === 'object' && input !== null ? (input as { prompt?: unknown }).prompt : undefined;
}

/** Answers every tool use, as Converse requires before the conversation goes on. */
function toolResults(toolUses: readonly ToolUseSeen[]): Message {
  return {
    role: 'user',
    content: toolUses.map(({ toolUseId, name }) => ({
      toolResult: {
        toolUseId,
        content: [{ text: name === SHOW_PICTURE_TOOL.name ? PICTURE_SHOWN : CHECK_NOTED }],
        status: 'success',
      },
    })),
  };
}
