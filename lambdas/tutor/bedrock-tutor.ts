import {
  BedrockRuntimeClient,
  ConverseCommand,
  type ContentBlock,
  type ConverseCommandInput,
  type ConverseCommandOutput,
  type Message,
  type ToolConfiguration,
} from '@aws-sdk/client-bedrock-runtime';
import type { TutorConfig } from '../config';
import { modelTurns } from './conversation';
import { guardrailFields } from './guardrail';
import { picturePrompt, spokenText } from './model-text';
import { PICTURE_SHOWN, SHOW_PICTURE_TOOL, systemPrompt } from './system-prompt';
import type { Tutor, TutorReply } from './tutor';
import { contentFiltered, deadline, fromAwsError, MalformedReply, upstreamFailed } from './upstream';

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

/**
 * The tutor on Amazon Bedrock's Converse API. One deadline covers the whole reply. The SDK's retries
 * are off: the learner is waiting, a retried throttled call only deepens the throttling, and the web app
 * returns to listening on failure so the learner can simply ask again.
 */
export function createBedrockTutor(config: TutorConfig): Tutor {
  const { modelId, region, endpoint, credentials } = config.bedrock;
  const client = new BedrockRuntimeClient({ region, endpoint, credentials, maxAttempts: 1 });

  return {
    provider: 'bedrock',
    async reply(request, signal): Promise<TutorReply> {
      const limit = deadline(config.timeoutMs, signal);
      const base: Omit<ConverseCommandInput, 'messages'> = {
        modelId,
        system: [{ text: systemPrompt(request.language) }],
        inferenceConfig: { maxTokens: config.maxTokens, temperature: 0.5 },
        toolConfig: TOOL_CONFIG,
        ...guardrailFields(config),
      };
      const messages: Message[] = modelTurns(request).map((turn) => ({
        role: turn.role,
        content: [{ text: turn.text }],
      }));
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
  if (output.stopReason === 'content_filtered' || output.stopReason === 'guardrail_intervened') {
    throw contentFiltered(new Error(`stopReason ${output.stopReason}`));
  }
  if (output.stopReason === 'malformed_model_output' || output.stopReason === 'malformed_tool_use') {
    throw new MalformedReply(`stopReason ${output.stopReason}`);
  }
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
