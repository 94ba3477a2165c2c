import type { ChatResponse, ChatTurn } from '../contract/schemas';
import { ApiError } from '../lib/api-error';
import { log } from '../lib/log';
import { checkTicket, isReplySignature, issueTicket, signReply } from './seals';
import type { TrustKeySource } from './trust-keys';

/** A chat reply before it is signed: what the tutor said, and the picture it suggests. */
export type UnsignedReply = Omit<ChatResponse, 'signature' | 'imageTicket'>;

/** The fields trust adds to a reply: its `signature`, and an `imageTicket` when it suggests a picture. */
export interface ReplySeal {
  readonly signature: string;
  readonly imageTicket?: string;
}

/**
 * What the server does not take the client's word for (docs/behaviour.md §12): which assistant turns Astro
 * really wrote, and which pictures Astro suggested.
 */
export class Trust {
  constructor(
    private readonly keys: TrustKeySource,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The reply with its `signature` (and `imageTicket` with `imagePrompt`). The one place replies are
   * sealed: the JSON answer and the streamed `done` line both come from here.
   */
  async seal<R extends UnsignedReply>(reply: R): Promise<R & ReplySeal> {
    const keys = await this.keys.get();
    const signature = signReply(keys, reply.response);
    if (reply.imagePrompt === undefined) return { ...reply, signature };
    return { ...reply, signature, imageTicket: issueTicket(keys, reply.imagePrompt, this.now()) };
  }

  /** The ticket for a picture prompt alone (the streamed `picture` line, before the reply is complete). */
  async ticket(imagePrompt: string): Promise<string> {
    return issueTicket(await this.keys.get(), imagePrompt, this.now());
  }

  /**
   * The history the model may see: user turns as sent, assistant turns only with a valid signature
   * (a forged "Astro said…" turn is the classic way to prime a model), without the signatures.
   */
  async trustedHistory(history: readonly ChatTurn[]): Promise<ChatTurn[]> {
    const keys = await this.keys.get();
    let dropped = 0;
    const kept: ChatTurn[] = [];
    for (const turn of history) {
      if (turn.role === 'assistant' && !isReplySignature(keys, turn.content, turn.signature)) {
        dropped += 1;
        continue;
      }
      kept.push({ role: turn.role, content: turn.content });
    }
    if (dropped > 0) log.warn('unsigned assistant turns dropped', { dropped, turns: history.length });
    return kept;
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
