/**
 * The tutor on Amazon Bedrock's Converse API: the Bedrock wire of the tutor's one path (model-tutor.ts,
 * which holds the flow of a reply and the tool round-trip for every provider). A streamed reply calls
 * ConverseStream, a whole one Converse; both answers are read by the same rules (bedrock-answer.ts).
 * One deadline covers the whole reply; the client makes one attempt per call (why:
 * upstream/bedrock-client.ts).
 */
import {
  ConverseCommand,
  ConverseStreamCommand,
  type ConverseCommandInput,
  type Message,
  type ToolConfiguration,
} from '@aws-sdk/client-bedrock-runtime';
import type { TutorConfig } from '../config';
import { bedrockRuntimeClient } from '../upstream/bedrock-client';
import { within } from '../upstream/deadline';
import { CallUsage } from '../upstream/token-usage';
import { fromAwsError, MalformedReply } from '../upstream/upstream-errors';
import { readAnswer, StreamedAnswer, usageOf, type BedrockAnswer } from './bedrock-answer';
import { modelPrompt } from './conversation';
import { guardrailFields } from './guardrail';
import { modelTutor, toolResult, wholeAnswerEvents, type ModelCall } from './model-tutor';
import { TUTOR_TOOLS } from './system-prompt';
import type { Tutor, TutorStreamEvent } from './tutor';

const TOOL_CONFIG: ToolConfiguration = {
  tools: TUTOR_TOOLS.map((tool) => ({
    toolSpec: { name: tool.name, description: tool.description, inputSchema: { json: tool.inputSchema } },
  })),
};

/** A Converse request but its messages, and the messages. */
interface Conversation {
  readonly base: Omit<ConverseCommandInput, 'messages'>;
  readonly messages: readonly Message[];
}

export function createBedrockTutor(config: TutorConfig): Tutor {
  const { modelId } = config.bedrock;
  const client = bedrockRuntimeClient(config.bedrock);

  /** One Converse call: its answer as one piece. */
  async function* converseWhole(
    input: ConverseCommandInput,
    { limit, pictureShown, meter }: ModelCall,
  ): AsyncGenerator<TutorStreamEvent, BedrockAnswer> {
    const usage = new CallUsage(meter, JSON.stringify(input).length);
    let answer: BedrockAnswer;
    try {
      const output = await client.send(new ConverseCommand(input), { abortSignal: limit.signal });
      usage.reported(usageOf(output.usage));
      answer = readAnswer(output);
    } finally {
      usage.end();
    }
    yield* wholeAnswerEvents(answer, pictureShown);
    return answer;
  }

  /** One ConverseStream call: yields the text as it settles and the picture once; returns the answer. */
  async function* converseStream(
    input: ConverseCommandInput,
    { limit, meter, ...call }: ModelCall,
  ): AsyncGenerator<TutorStreamEvent, BedrockAnswer> {
    let pictureShown = call.pictureShown;
    // What it sends is what an estimate counts (lambdas/upstream/token-usage.ts).
    const usage = new CallUsage(meter, JSON.stringify(input).length);
    const answer = new StreamedAnswer();
    let whole: ReturnType<StreamedAnswer['finish']>;
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
      whole = answer.finish();
    } finally {
      usage.reported(answer.usage);
      usage.end();
    }
    if (whole.rest.length > 0) yield { type: 'delta', text: whole.rest };
    return whole;
  }

  return modelTutor<Conversation, BedrockAnswer>(config, {
    provider: 'bedrock',
    async conversation(request) {
      const prompt = await modelPrompt(request);
      return {
        base: {
          modelId,
          system: [{ text: prompt.system }],
          inferenceConfig: { maxTokens: config.maxTokens, temperature: 0.5 },
          toolConfig: TOOL_CONFIG,
          ...guardrailFields(config),
        },
        messages: prompt.turns.map((turn): Message => ({ role: turn.role, content: [{ text: turn.text }] })),
      };
    },
    // Converse requires every tool use answered before the conversation goes on.
    afterTools: ({ base, messages }, answer) => ({
      base,
      messages: [
        ...messages,
        answer.message,
        {
          role: 'user',
          content: answer.toolCalls.map(({ id, name }) => ({
            toolResult: { toolUseId: id, content: [{ text: toolResult(name) }], status: 'success' },
          })),
        },
      ],
    }),
    ask: ({ base, messages }, call) =>
      (call.streaming ? converseStream : converseWhole)({ ...base, messages: [...messages] }, call),
    failure: fromAwsError,
  });
}
