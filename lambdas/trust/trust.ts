import type { ChatResponse, ChatTurn } from '../contract/schemas';
import { ApiError } from '../lib/api-error';
import { log } from '../lib/log';
import { CHAT_HISTORY_MAX_TURNS } from '../contract/limits';
import { checkReplySignature, checkTicket, issueTicket, signReply, type ReplyPlace } from './seals';
import type { TrustKeySource } from './trust-keys';

/** A chat reply before it is signed: what the tutor said, and the picture it suggests. */
export type UnsignedReply = Omit<ChatResponse, 'signature' | 'imageTicket'>;

/** The fields trust adds to a reply: its `signature`, and an `imageTicket` when it suggests a picture. */
export interface ReplySeal {
  readonly signature: string;
  readonly imageTicket?: string;
}

/**
 * The history the model may see, and where the reply to it stands (docs/behaviour.md §12.3): the turns
 * (user turns as sent, assistant turns only with a valid signature for this conversation and their
 * position, without the signatures), and the position of the learner's new message.
 */
export interface TrustedHistory {
  readonly turns: ChatTurn[];
  /** The position of the message the history leads up to (its reply is the one after it). */
  readonly nextPosition: number;
}

/**
 * Where the history's first turn stands. The web app sends its whole conversation up to the contract's
 * 50 turns, so a shorter history starts at 0. A full one may have been cut at its start: its place is
 * read from its signed turns, and the one most of them agree on wins (the newest on a tie); turns that
 * disagree with it are moved, and dropped.
 */
function firstPositionOf(signed: readonly { index: number; position: number }[], length: number): number {
  if (length < CHAT_HISTORY_MAX_TURNS) return 0;
  const votes = new Map<number, number>();
  let best: { offset: number; votes: number } | undefined;
  for (const { index, position } of signed) {
    const offset = position - index;
    if (offset < 0) continue;
    const count = (votes.get(offset) ?? 0) + 1;
    votes.set(offset, count);
    if (!best || count >= best.votes) best = { offset, votes: count };
  }
  return best?.offset ?? 0;
}

/**
 * What the server does not take the client's word for (docs/behaviour.md §12): which assistant turns Astro
 * really wrote, in this conversation and at that place, and which pictures Astro suggested.
 */
export class Trust {
  constructor(
    private readonly keys: TrustKeySource,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The reply with its `signature` for its place in the conversation (and `imageTicket` with
   * `imagePrompt`). The one place replies are sealed: the JSON answer and the streamed `done` line both
   * come from here.
   */
  async seal<R extends UnsignedReply>(reply: R, place: ReplyPlace): Promise<R & ReplySeal> {
    const keys = await this.keys.get();
    const now = this.now();
    const signature = signReply(keys, place, reply.response, now);
    if (reply.imagePrompt === undefined) return { ...reply, signature };
    return { ...reply, signature, imageTicket: issueTicket(keys, reply.imagePrompt, now) };
  }

  /** The ticket for a picture prompt alone (the streamed `picture` line, before the reply is complete). */
  async ticket(imagePrompt: string): Promise<string> {
    return issueTicket(await this.keys.get(), imagePrompt, this.now());
  }

  /**
   * The history the model may see: user turns as sent, assistant turns only with a valid, unexpired
   * signature for this conversation and their position (a forged "Astro said…" turn is the classic way
   * to prime a model; a real one from another conversation, or moved, is replayed out of its context),
   * without the signatures. What was dropped, and why, is logged as counts.
   */
  async trustedHistory(conversationId: string, history: readonly ChatTurn[]): Promise<TrustedHistory> {
    const keys = await this.keys.get();
    const now = this.now();
    const checks = history.map((turn) =>
      turn.role === 'assistant'
        ? checkReplySignature(keys, conversationId, turn.content, turn.signature, now)
        : undefined,
    );
    const signed = checks.flatMap((check, index) =>
      check?.verdict === 'valid' ? [{ index, position: check.position }] : [],
    );
    const first = firstPositionOf(signed, history.length);
    const dropped: Record<string, number> = {};
    const turns: ChatTurn[] = [];
    history.forEach((turn, index) => {
      const check = checks[index];
      let verdict = check?.verdict;
      if (check?.verdict === 'valid' && check.position !== first + index) verdict = 'moved';
      if (verdict !== undefined && verdict !== 'valid') {
        dropped[verdict] = (dropped[verdict] ?? 0) + 1;
        return;
      }
      turns.push({ role: turn.role, content: turn.content });
    });
    const count = Object.values(dropped).reduce((sum, n) => sum + n, 0);
    if (count > 0) {
      log.warn('unsigned assistant turns dropped', { dropped: count, turns: history.length, ...dropped });
    }
    return { turns, nextPosition: first + history.length };
  }

  /** Throws 403 `forbidden` unless `ticket` was issued, unexpired, for exactly `prompt`. */
  async requireTicket(prompt: string, ticket: string | undefined): Promise<void> {
    const verdict = checkTicket(await this.keys.get(), prompt, ticket, this.now());
    if (verdict === 'valid') return;
    log.warn('picture refused', { ticket: verdict });
    throw new ApiError(
      'forbidden',
      verdict === 'expired'
        ? 'This picture offer has expired. Ask Astro again.'
        : 'Astro draws only the pictures it suggested.',
    );
  }
}
