import { readSpendConfig, readTutorConfig, type Env } from '../config';
import { INIT_MARKER } from '../contract/languages';
import { CHAT_STREAM_MEDIA_TYPE } from '../contract/routes';
import { isBlank, type ChatResponse } from '../contract/schemas';
import { SPEND_LIMIT_HEADER, SPEND_LIMITS, type SpendLimit } from '../contract/spend';
import { ENDPOINTS } from '../endpoints';
import { ApiError } from '../lib/api-error';
import { handlerAtColdStart } from '../http/cold-start';
import { defineEndpoint, type Reply, type StreamedReply, type StreamingApiHandler } from '../http/endpoint';
import { streamingLambda } from '../http/lambda-stream';
import { readOriginRule } from '../http/origin';
import { callerOf } from '../spend/client-address';
import { tokenCost, tutorPrices } from '../spend/prices';
import { createSpendGuard, type Spending, type SpendVerdict } from '../spend/spend-guard';
import { createTrust } from '../trust/trust-config';
import { createTutor } from '../tutor/create-tutor';
import type { Tutor, TutorRequest, UsageMeter } from '../tutor/tutor';
import { toChatResponse } from './chat-response';
import { chatStreamLines, ndjsonLine } from './chat-stream';
import { withinBudget } from './history-budget';
import { createPictureCheck } from './picture-check';

/** Names the provider that answered, so the web app can say quietly when the offline tutor is in use. */
export const TUTOR_HEADER = 'X-Astro-Tutor';

const ALLOWED: SpendVerdict = { allowed: true };

/** The spend-limit header of a reply the offline tutor gave because a limit was reached. */
function limitHeaders(verdict: SpendVerdict): Record<string, string> {
  if (verdict.allowed || !(SPEND_LIMITS as readonly string[]).includes(verdict.limit)) return {};
  return { [SPEND_LIMIT_HEADER]: verdict.limit as SpendLimit };
}

/** The stream's lines, then the ledger's writes settled before the stream ends (docs/behaviour.md §12.18). */
async function* settledAfter(lines: AsyncIterable<string>, spending: Spending): AsyncGenerator<string> {
  try {
    yield* lines;
  } finally {
    await spending.settle();
  }
}

/**
 * POST /api/chat: the learner's words (or the init message) and the history in, Astro's reply out: as
 * one JSON object, or streamed as NDJSON lines when the request accepts `application/x-ndjson`
 * (docs/behaviour.md §11). Either way the reply is sealed for its place in its conversation
 * (docs/behaviour.md §12.2), its picture prompt checked (§14.9), and what the model cost recorded; once a
 * spending limit is reached, the offline tutor answers at no cost (§12.19).
 */
export function createChatHandler(env: Env, now?: () => number): StreamingApiHandler {
  const config = readTutorConfig(env);
  const spendConfig = readSpendConfig(env);
  const prices = tutorPrices(spendConfig, config);
  const guarded = config.provider === 'bedrock' && config.guardrail !== undefined;
  const tutor = createTutor(config);
  const trust = createTrust(env, now);
  const guard = createSpendGuard(spendConfig, ENDPOINTS.chat.path, now);
  const checkPicture = createPictureCheck(config);
  let offline: Tutor | undefined;
  // The lessons load only the first time a limit sends a reply to them.
  const offlineTutor = () => (offline ??= createTutor({ ...config, provider: 'offline' }));

  return defineEndpoint({
    route: ENDPOINTS.chat.path,
    ...ENDPOINTS.chat.request,
    origins: readOriginRule(env),
    handle: async (input, context): Promise<Reply<ChatResponse> | StreamedReply> => {
      if (isBlank(input.userMessage)) {
        throw new ApiError('invalid_request', 'userMessage: must not be blank');
      }
      // Only what Astro really said, here and there (docs/behaviour.md §12.3), within the history budget (§12.7).
      const history = await trust.trustedHistory(input.conversationId, input.chatHistory);
      const opening = input.userMessage.trimStart().startsWith(INIT_MARKER);
      // The opening message is not part of the conversation the web app keeps: its reply comes first.
      const place = {
        conversationId: input.conversationId,
        position: history.nextPosition + (opening ? 0 : 1),
      };
      const request: TutorRequest = {
        userMessage: input.userMessage,
        language: input.language,
        history: withinBudget(history.turns),
        ...(input.level === undefined ? {} : { level: input.level }),
      };
      const spender = {
        client: callerOf(context, spendConfig.clientAddressHeader),
        conversationId: input.conversationId,
      };
      const verdict = tutor.provider === 'offline' ? ALLOWED : await guard.check(spender);
      const answering = verdict.allowed ? tutor : offlineTutor();
      const spending = guard.open(spender);
      const meter: UsageMeter | undefined =
        answering === tutor
          ? (usage) => spending.charge('chat', tokenCost(usage, prices, guarded))
          : undefined;
      const pictureAllowed = (prompt: string): boolean | Promise<boolean> => {
        const verdict = checkPicture(prompt, { guardrail: answering.provider === 'bedrock', spending });
        return 'then' in verdict ? verdict.then((settled) => settled.allowed) : verdict.allowed;
      };
      const headers = { [TUTOR_HEADER]: answering.provider, ...limitHeaders(verdict) };
      if (context.accepts(CHAT_STREAM_MEDIA_TYPE)) {
        const lines = chatStreamLines(answering.stream(request, context.signal, meter), trust, {
          place,
          checkPicture: pictureAllowed,
        });
        return {
          status: 200,
          contentType: CHAT_STREAM_MEDIA_TYPE,
          headers,
          chunks: settledAfter(lines, spending),
          failure: (error) => ndjsonLine({ type: 'error', error }),
        };
      }
      try {
        const { imagePrompt, ...words } = toChatResponse(
          await answering.reply(request, context.signal, meter),
        );
        const checked =
          imagePrompt !== undefined && (await pictureAllowed(imagePrompt))
            ? { ...words, imagePrompt }
            : words;
        return { status: 200, body: await trust.seal(checked, place), headers };
      } finally {
        await spending.settle();
      }
    },
  });
}

/** Deployed behind API Gateway's STREAM response transfer mode (the registry row's `streaming`). */
export const handler = streamingLambda(
  handlerAtColdStart(ENDPOINTS.chat.path, () => createChatHandler(process.env)),
);
