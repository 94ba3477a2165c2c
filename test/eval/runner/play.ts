/**
 * Plays one scripted dialogue through the real `/api/chat` handler, as the web app would, in a conversation
 * of its own: each `astro:` turn is put in the history signed as the server signs a reply, for this
 * conversation and its place in it (docs/behaviour.md §12.2), each `learner:` turn is sent with that history
 * and the conversation's id, streamed (`Accept: application/x-ndjson`, the app's way), and the reply's
 * `done` line becomes Astro's next turn, with the signature it came with.
 */
import type { Locale } from '#contract/languages';
import { API_ROUTES, CHAT_STREAM_MEDIA_TYPE } from '#contract/routes';
import type { ChatTurn } from '#contract/schemas';
import type { Level } from '#contract/teaching';
import type { StreamingApiHandler } from '#lambdas/http/endpoint';
import { signReply } from '#lambdas/trust/seals';
import { apiEvent } from '#support/events';
import { readLines } from '#support/ndjson';
import { testTrustKeys } from '#support/trust';
import { isLearnerTurn, type Dialogue, type LearnerTurn } from './cases';
import type { Reply } from './score';

export interface PlayedTurn {
  readonly turn: LearnerTurn;
  /** Astro's reply; on a failed request, empty with `error` set. */
  readonly reply: Reply & { readonly imagePrompt?: string };
  /** What Astro said last before the learner spoke (the question being answered, usually). */
  readonly previousAstro?: string;
  readonly error?: string;
}

/**
 * An assistant turn as the web app sends it back: with a signature made by the server's own code, for its
 * conversation and its position there (the index it takes in the history).
 */
export function signedAstroTurn(content: string, conversationId: string, position: number): ChatTurn {
  return {
    role: 'assistant',
    content,
    signature: signReply(testTrustKeys, { conversationId, position }, content, Date.now()),
  };
}

/** Sends one learner message and reads the streamed reply to its end. */
async function ask(
  handler: StreamingApiHandler,
  body: {
    userMessage: string;
    language: Locale;
    chatHistory: ChatTurn[];
    conversationId: string;
    level?: Level;
  },
): Promise<{ reply: PlayedTurn['reply']; signature?: string; error?: string }> {
  const result = await handler(
    apiEvent({ path: API_ROUTES.chat, headers: { Accept: CHAT_STREAM_MEDIA_TYPE }, body }),
  );
  if (typeof result.body === 'string')
    return { reply: { text: '' }, error: `${result.statusCode} ${result.body.slice(0, 200)}` };
  const lines = await readLines(result);
  const done = lines.find((line) => line.type === 'done');
  const failed = lines.find((line) => line.type === 'error');
  if (!done || done.type !== 'done')
    return {
      reply: { text: '' },
      error: failed?.type === 'error' ? `${failed.error.code}: ${failed.error.message}` : 'no reply',
    };
  return {
    reply: {
      text: done.response,
      ...(done.check === undefined ? {} : { check: done.check }),
      ...(done.imagePrompt === undefined ? {} : { imagePrompt: done.imagePrompt }),
    },
    ...(done.signature === undefined ? {} : { signature: done.signature }),
  };
}

/** Plays every turn of the dialogue in order; a failed request is recorded and the dialogue goes on. */
export async function playDialogue(
  handler: StreamingApiHandler,
  dialogue: Dialogue,
  language: Locale,
): Promise<PlayedTurn[]> {
  const history: ChatTurn[] = [];
  const played: PlayedTurn[] = [];
  const conversationId = crypto.randomUUID();
  let previousAstro: string | undefined;
  for (const turn of dialogue.turns) {
    if (!isLearnerTurn(turn)) {
      history.push(signedAstroTurn(turn.astro, conversationId, history.length));
      previousAstro = turn.astro;
      continue;
    }
    const answer = await ask(handler, {
      userMessage: turn.learner,
      language,
      chatHistory: [...history],
      conversationId,
      ...(dialogue.level === undefined ? {} : { level: dialogue.level }),
    });
    played.push({
      turn,
      reply: answer.reply,
      ...(previousAstro === undefined ? {} : { previousAstro }),
      ...(answer.error === undefined ? {} : { error: answer.error }),
    });
    history.push({ role: 'user', content: turn.learner });
    if (answer.reply.text.length > 0) {
      history.push({
        role: 'assistant',
        content: answer.reply.text,
        ...(answer.signature === undefined ? {} : { signature: answer.signature }),
      });
      previousAstro = answer.reply.text;
    }
  }
  return played;
}
