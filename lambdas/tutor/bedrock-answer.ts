/**
 * Reading a Bedrock Converse answer, whole (`ConverseCommand`) or as ConverseStream events, into what
 * the tutor's one path reads (model-tutor.ts): the same rules for both, so that a streamed reply ends with
 * exactly what a whole one says.
 */
import type {
  ContentBlock,
  ConverseCommandOutput,
  ConverseStreamOutput,
  Message,
  StopReason,
} from '@aws-sdk/client-bedrock-runtime';
import { tokenUsage, type TokenUsage } from '../upstream/token-usage';
import { contentFiltered, MalformedReply } from '../upstream/upstream-errors';
import { checkOf, parseToolInput, type ToolCallSeen } from './check-tools';
import { picturePrompt, spokenText, spokenTextStream } from './model-text';
import { promptOf, type ModelAnswer } from './model-tutor';
import { SHOW_PICTURE_TOOL } from './system-prompt';

/** What one Converse call said, with its message to send back before a follow-up call. */
export interface BedrockAnswer extends ModelAnswer {
  readonly message: Message;
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
export class StreamedAnswer {
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

  /** The stream is over: what the answer said, and the text still held back (`rest`). */
  finish(): BedrockAnswer & { readonly rest: string } {
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
      toolCalls: tools.flatMap((tool) => (tool.toolUseId ? [{ id: tool.toolUseId, name: tool.name }] : [])),
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

/** A whole Converse answer. */
export function readAnswer(output: ConverseCommandOutput): BedrockAnswer {
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
    toolCalls: toolUses.flatMap((use) =>
      use.toolUseId ? [{ id: use.toolUseId, name: use.name ?? '' }] : [],
    ),
  };
}

/**
 * The one place Bedrock's usage is read (a Converse answer's `usage`, a ConverseStream `metadata` event's):
 * the tokens the call read and wrote, for the spend ledger.
 */
export function usageOf(
  usage: { inputTokens?: number; outputTokens?: number } | undefined,
): TokenUsage | undefined {
  return tokenUsage(usage?.inputTokens, usage?.outputTokens);
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
