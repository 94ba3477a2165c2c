import { ERROR_STATUS, type ErrorCode } from '#contract/errors';
import { SIGNATURE_MAX_CHARS, TICKET_MAX_CHARS } from '#contract/limits';
import { API_ROUTES, CHAT_STREAM_MEDIA_TYPE } from '#contract/routes';
import type { ChatRequest, ChatResponse, ChatStreamLine } from '#contract/schemas';
import { SPEND_LIMIT_HEADER, SPEND_LIMITS, type SpendLimit } from '#contract/spend';
import type { Check } from '#contract/teaching';
import { settings } from '../lib/env';
import { ApiRequestError, errorCodeOf, objectBody } from './http';

export type { ChatRequest };

export interface ChatReply extends Omit<ChatResponse, 'check'> {
  /** The reply's check for understanding as the web reads it (docs/behaviour.md §17.2, §17.5). */
  readonly check?: Check;
  /** True when the server's built-in offline tutor answered (header `X-Astro-Tutor: offline`). */
  readonly offlineTutor: boolean;
  /** The spending limit that made the offline tutor answer (header `X-Astro-Spend-Limit`), if one did. */
  readonly spendLimit?: SpendLimit;
}

/** What a streamed reply tells its reader while it arrives. */
export interface ChatStreamHandlers {
  /** The next piece of Astro's reply; the pieces, in order, join to the reply. */
  onDelta(text: string): void;
  /** The picture Astro suggests, as soon as it is known (at most once per reply). */
  onPicture(imagePrompt: string, imageTicket?: string): void;
}

export interface ChatStreamDeadlines {
  /** From sending the request to the first line of the answer (or the whole answer, when it is JSON). */
  readonly firstByteMs: number;
  /** Between two lines of a streamed answer. */
  readonly idleMs: number;
}

/**
 * docs/behaviour.md §7.11, §9.9: 30 s to the first line, then 20 s between lines, and no cap on the whole.
 * Beyond the server's own (its model deadline is 20 s whole and 10 s between pieces, and API Gateway's
 * is 29 s), so the server's own error answer normally arrives first; these only catch a lost connection.
 */
export const CHAT_STREAM_DEADLINES: ChatStreamDeadlines = { firstByteMs: 30_000, idleMs: 20_000 };

/**
 * POST /api/chat asking for the streamed reply (docs/behaviour.md §11.8): `onDelta` gets each piece as it
 * arrives, `onPicture` the picture line; resolves to the whole reply. A server (or proxy, or test
 * double) that answers `application/json` instead is taken as the whole reply: one `onDelta` with all
 * of it. A non-OK answer, an `error` line, a malformed line, a stream that breaks off or a deadline
 * that runs out throw an ApiRequestError; what `onDelta` was given so far stays the caller's.
 */
export async function streamChat(
  request: ChatRequest,
  handlers: ChatStreamHandlers,
  signal?: AbortSignal,
  deadlines: ChatStreamDeadlines = CHAT_STREAM_DEADLINES,
): Promise<ChatReply> {
  const watch = new StreamWatch(deadlines, signal);
  try {
    let response: Response;
    try {
      response = await watch.within(
        fetch(`${settings.apiBase}${API_ROUTES.chat}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Accept: CHAT_STREAM_MEDIA_TYPE },
          body: JSON.stringify(request),
          signal: watch.signal,
        }),
      );
    } catch (error) {
      throw watch.failure(error, new ApiRequestError('API call failed: no connection', 0, undefined));
    }
    if (!response.ok) {
      throw new ApiRequestError(
        `API call failed: ${response.status}`,
        response.status,
        await watch.within(errorCodeOf(response)).catch(() => undefined),
      );
    }
    const mediaType = response.headers.get('Content-Type')?.split(';')[0]?.trim().toLowerCase();
    if (mediaType !== CHAT_STREAM_MEDIA_TYPE || !response.body) {
      let body: unknown;
      try {
        body = await watch.within(response.json() as Promise<unknown>);
      } catch (error) {
        throw watch.failure(error, malformed());
      }
      const reply = readReply(objectBody(body, API_ROUTES.chat), response.headers);
      handlers.onDelta(reply.response);
      if (reply.imagePrompt !== undefined) handlers.onPicture(reply.imagePrompt, reply.imageTicket);
      return reply;
    }
    return await readStream(response.body.getReader(), response.headers, handlers, watch);
  } finally {
    watch.dispose();
  }
}

async function readStream(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  headers: Headers,
  handlers: ChatStreamHandlers,
  watch: StreamWatch,
): Promise<ChatReply> {
  const decoder = new TextDecoder('utf-8');
  let buffer = '';
  let pictureShown = false;
  const take = (text: string): ChatReply | undefined => {
    if (text.trim() === '') return undefined;
    const line = parseLine(text);
    watch.lineArrived();
    switch (line.type) {
      case 'delta':
        handlers.onDelta(line.text);
        return undefined;
      case 'picture':
        if (!pictureShown) handlers.onPicture(line.imagePrompt, line.imageTicket);
        pictureShown = true;
        return undefined;
      case 'error':
        throw new ApiRequestError(
          `API call failed: ${ERROR_STATUS[line.error.code]}`,
          ERROR_STATUS[line.error.code],
          line.error.code,
        );
      case 'done': {
        const reply = readReply(line, headers);
        if (reply.imagePrompt !== undefined && !pictureShown)
          handlers.onPicture(reply.imagePrompt, reply.imageTicket);
        return reply;
      }
    }
  };
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await watch.within(reader.read());
      } catch (error) {
        throw watch.failure(error, brokenOff());
      }
      buffer += chunk.done ? decoder.decode() : decoder.decode(chunk.value, { stream: true });
      const lines = buffer.split('\n');
      // The last part is a line still arriving, unless the stream ended (a last line needs no newline).
      buffer = chunk.done ? '' : (lines.pop() ?? '');
      for (const line of lines) {
        const reply = take(line);
        if (reply) return reply;
      }
      if (chunk.done) throw brokenOff();
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
}

/** One NDJSON line checked against the contract's line shapes (docs/behaviour.md §11.2). */
function parseLine(text: string): ChatStreamLine {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw malformed();
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw malformed();
  const line = value as Record<string, unknown>;
  switch (line.type) {
    case 'delta':
      if (typeof line.text === 'string' && line.text.length > 0) return { type: 'delta', text: line.text };
      break;
    case 'picture':
      if (typeof line.imagePrompt === 'string' && line.imagePrompt.trim() !== '') {
        const imageTicket = tokenOf(line.imageTicket, TICKET_MAX_CHARS);
        return { type: 'picture', imagePrompt: line.imagePrompt, ...(imageTicket ? { imageTicket } : {}) };
      }
      break;
    case 'done':
      if (typeof line.response === 'string' && line.response.trim() !== '') {
        return { type: 'done', ...replyFields({ ...line, response: line.response }) };
      }
      break;
    case 'error': {
      const error = line.error as { code?: unknown; message?: unknown } | null | undefined;
      if (
        typeof error?.code === 'string' &&
        error.code in ERROR_STATUS &&
        typeof error.message === 'string'
      ) {
        return { type: 'error', error: { code: error.code as ErrorCode, message: error.message } };
      }
      break;
    }
  }
  throw malformed();
}

function readReply(data: Record<string, unknown>, headers: Headers): ChatReply {
  if (typeof data.response !== 'string' || data.response.trim() === '') throw malformed();
  const limit = headers.get(SPEND_LIMIT_HEADER)?.toLowerCase();
  const spendLimit = SPEND_LIMITS.find((known) => known === limit);
  return {
    ...replyFields(data as { response: string }),
    offlineTutor: headers.get('X-Astro-Tutor')?.toLowerCase() === 'offline',
    ...(spendLimit === undefined ? {} : { spendLimit }),
  };
}

/** The reply's fields, each kept only when well formed (a reader tolerant of an older server). */
function replyFields(data: { response: string } & Record<string, unknown>): Omit<ChatReply, 'offlineTutor'> {
  const imagePrompt =
    typeof data.imagePrompt === 'string' && data.imagePrompt.trim() !== '' ? data.imagePrompt : undefined;
  const signature = tokenOf(data.signature, SIGNATURE_MAX_CHARS);
  const imageTicket = imagePrompt === undefined ? undefined : tokenOf(data.imageTicket, TICKET_MAX_CHARS);
  const check = checkOf(data.check);
  return {
    response: data.response,
    ...(imagePrompt === undefined ? {} : { imagePrompt }),
    ...(imageTicket === undefined ? {} : { imageTicket }),
    ...(signature === undefined ? {} : { signature }),
    ...(check === undefined ? {} : { check }),
  };
}

/**
 * A reply's check for understanding (docs/behaviour.md §17.2) as the contract shapes it, or undefined: a
 * malformed one is ignored rather than failing a reply whose words are fine (no star, no think time).
 * A judgement keeps `openQuestion` only when it is exactly `true` (§17.5: anything else means the reply
 * asks nothing more); unknown fields are dropped.
 */
function checkOf(value: unknown): Check | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const check = value as { type?: unknown; correct?: unknown; openQuestion?: unknown };
  if (check.type === 'question') return { type: 'question' };
  if (check.type === 'answer' && typeof check.correct === 'boolean') {
    return check.openQuestion === true
      ? { type: 'answer', correct: check.correct, openQuestion: true }
      : { type: 'answer', correct: check.correct };
  }
  return undefined;
}

/** A server-issued token (signature, ticket) as the contract shapes it, or undefined. */
function tokenOf(value: unknown, maxChars: number): string | undefined {
  return typeof value === 'string' && value.length <= maxChars && /^[A-Za-z0-9._-]+$/.test(value)
    ? value
    : undefined;
}

const malformed = () => new ApiRequestError(`Malformed answer from ${API_ROUTES.chat}`, 200, undefined);
const brokenOff = () => new ApiRequestError('API call failed: the reply broke off', 0, undefined);

/**
 * The deadlines of one streamed call: the first byte, then the silence between two lines. Whatever the
 * network or the body does (or fails to do), a wait inside `within` ends when a deadline runs out or the
 * caller aborts.
 */
class StreamWatch {
  private readonly controller = new AbortController();
  private readonly aborted: Promise<never>;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private timedOut = false;
  private readonly onCallerAbort = () => this.controller.abort(this.caller?.reason);

  constructor(
    private readonly deadlines: ChatStreamDeadlines,
    private readonly caller: AbortSignal | undefined,
  ) {
    this.aborted = new Promise<never>((_resolve, reject) => {
      this.controller.signal.addEventListener('abort', () => reject(this.controller.signal.reason), {
        once: true,
      });
    });
    this.aborted.catch(() => undefined);
    if (caller?.aborted) this.onCallerAbort();
    else caller?.addEventListener('abort', this.onCallerAbort, { once: true });
    this.arm(deadlines.firstByteMs);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  within<T>(work: Promise<T>): Promise<T> {
    return Promise.race([work, this.aborted]);
  }

  lineArrived(): void {
    this.arm(this.deadlines.idleMs);
  }

  /** What a failed wait becomes: the caller's own abort as is, a deadline or `otherwise` as ApiRequestErrors. */
  failure(error: unknown, otherwise = brokenOff()): unknown {
    if (this.timedOut) return new ApiRequestError('API call failed: the reply timed out', 0, undefined);
    if (this.caller?.aborted) return this.caller.reason ?? error;
    return error instanceof ApiRequestError ? error : otherwise;
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.caller?.removeEventListener('abort', this.onCallerAbort);
    // Ends the request if it is still open (a failure mid-stream): nothing is left downloading.
    if (!this.controller.signal.aborted) this.controller.abort();
  }

  private arm(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.controller.abort(new Error(`no answer within ${ms} ms`));
    }, ms);
  }
}
