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
import { modelTurns } from './conversation';
import { guardrailFields } from './guardrail';
import { picturePrompt, spokenText, spokenTextStream } from './model-text';
import { PICTURE_SHOWN, SHOW_PICTURE_TOOL, systemPrompt } from './system-prompt';
import { doneEvent, type Tutor, type TutorReply, type TutorRequest, type TutorStreamEvent } from './tutor';

const TOOL_CONFIG: ToolConfiguration = {
  tools: [
    {
      toolSpec: {
        name: SHOW_PICTURE_TOOL.name,
        description: SHOW_PICTURE_TOOL.description,
        inputSchema: { json: SHOW_PICTURE_TOOL.inputSchema },
      },
    },
  ],
};

interface Answer {
  readonly message: Message;
  readonly text: string;
  readonly imagePrompt?: string;
  readonly toolUseIds: readonly string[];
}

type StreamedBlock =
  | { readonly kind: 'text'; text: string }
  | { readonly kind: 'tool'; readonly toolUseId: string; readonly name: string; input: string };

/**
 * A ConverseStream answer put together from its events, read with the rules `readAnswer` applies to a
 * whole Converse answer: text blocks joined by a space and cleaned (`spokenText`, here as it streams),
 * the first usable `show_picture` prompt (its JSON input arrives in pieces), the stop reason checked.
 */
class StreamedAnswer {
  private readonly blocks = new Map<number, StreamedBlock>();
  private readonly spoken = spokenTextStream();
  private textBlocks = 0;
  private stopReason: StopReason | undefined;
  imagePrompt: string | undefined;

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
    const toolUseIds = ordered.flatMap((block) =>
      block.kind === 'tool' && block.toolUseId ? [block.toolUseId] : [],
    );
    return {
      message: { role: 'assistant', content },
      text: this.spoken.text,
      rest,
      imagePrompt: this.imagePrompt,
      toolUseIds,
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

/** A tool's JSON input as streamed; unreadable input simply means no picture. */
function toolInput(json: string): unknown {
  if (json.trim() === '') return {};
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return {};
  }
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

  const request = (tutorRequest: TutorRequest) => ({
    base: {
      modelId,
      system: [{ text: systemPrompt(tutorRequest.language) }],
      inferenceConfig: { maxTokens: config.maxTokens, temperature: 0.5 },
      toolConfig: TOOL_CONFIG,
      ...guardrailFields(config),
    } satisfies Omit<ConverseCommandInput, 'messages'>,
    messages: modelTurns(tutorRequest).map((turn): Message => ({
      role: turn.role,
      content: [{ text: turn.text }],
    })),
  });

  /** One ConverseStream call: yields the text as it settles and the picture once; returns the answer. */
  async function* converseStream(
    input: ConverseCommandInput,
    limit: StreamDeadline,
    pictureShown: boolean,
  ): AsyncGenerator<TutorStreamEvent, Answer & { readonly rest: string }> {
    const output = await client.send(new ConverseStreamCommand(input), { abortSignal: limit.signal });
    limit.touch();
    if (!output.stream) throw new MalformedReply('no event stream in the answer');
    const answer = new StreamedAnswer();
    for await (const event of within(output.stream, limit)) {
      const text = answer.read(event);
      if (text.length > 0) yield { type: 'delta', text };
      if (!pictureShown && answer.imagePrompt !== undefined) {
        pictureShown = true;
        yield { type: 'picture', imagePrompt: answer.imagePrompt };
      }
    }
    return answer.finish();
  }

  return {
    provider: 'bedrock',
    async *stream(tutorRequest, signal): AsyncGenerator<TutorStreamEvent> {
      const limit = streamDeadline(config.timeoutMs, config.idleTimeoutMs, signal);
      const { base, messages } = request(tutorRequest);
      try {
        const first = yield* converseStream({ ...base, messages }, limit, false);
        if (first.rest.length > 0) yield { type: 'delta', text: first.rest };
        if (first.text.length > 0) return yield doneEvent(reply(first.text, first.imagePrompt));
        if (first.toolUseIds.length === 0) throw new MalformedReply('the model returned no text');
        // As in reply(): the model only asked for a picture, so it hears the picture is shown, once.
        const second = yield* converseStream(
          { ...base, messages: [...messages, first.message, toolResults(first.toolUseIds)] },
          limit,
          first.imagePrompt !== undefined,
        );
        if (second.rest.length > 0) yield { type: 'delta', text: second.rest };
        if (second.text.length === 0) throw new MalformedReply('the model returned no text after the tool');
        yield doneEvent(reply(second.text, first.imagePrompt ?? second.imagePrompt));
      } catch (error) {
        throw fromAwsError(error instanceof MalformedReply ? upstreamFailed(error) : error, limit);
      } finally {
        limit.dispose();
      }
    },
    async reply(tutorRequest, signal): Promise<TutorReply> {
      const limit = deadline(config.timeoutMs, signal);
      const { base, messages } = request(tutorRequest);
      const converse = async (conversation: Message[]) =>
        readAnswer(
          await client.send(new ConverseCommand({ ...base, messages: conversation }), {
            abortSignal: limit.signal,
          }),
        );
      try {
        const first = await converse(messages);
        if (first.text.length > 0) return reply(first.text, first.imagePrompt);
        if (first.toolUseIds.length === 0) throw new MalformedReply('the model returned no text');
        // The model only asked for a picture: tell it the picture is shown, once, and take its words.
        const second = await converse([...messages, first.message, toolResults(first.toolUseIds)]);
        if (second.text.length === 0) throw new MalformedReply('the model returned no text after the tool');
        return reply(second.text, first.imagePrompt ?? second.imagePrompt);
      } catch (error) {
        throw fromAwsError(error instanceof MalformedReply ? upstreamFailed(error) : error, limit);
      }
    },
  };
}

function reply(response: string, imagePrompt: string | undefined): TutorReply {
  return imagePrompt === undefined ? { response } : { response, imagePrompt };
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
  const toolUseIds = toolUses.flatMap((use) => (use.toolUseId ? [use.toolUseId] : []));
  return { message, text, imagePrompt, toolUseIds };
}

function promptOf(input: unknown): unknown {
  return typeof input === 'object' && input !== null ? (input as { prompt?: unknown }).prompt : undefined;
}

function toolResults(toolUseIds: readonly string[]): Message {
  return {
    role: 'user',
    content: toolUseIds.map((toolUseId) => ({
      toolResult: { toolUseId, content: [{ text: PICTURE_SHOWN }], status: 'success' },
    })),
  };
}
