/**
 * The HTTP contract's shapes (docs/behaviour.md §7): one zod schema per request and response, and the types
 * inferred from them. The web app imports only the types from here (`import type`), never the schemas, so zod
 * stays out of the browser bundle; the infrastructure derives API Gateway request models from the same
 * schemas.
 */
import { z } from 'zod';
import { ERROR_CODES, type ErrorCode } from './errors';
import { LOCALES } from './languages';
import { LEVELS } from './teaching';
import {
  CHAT_HISTORY_MAX_TURNS,
  CHAT_TURN_MAX_CHARS,
  CHAT_USER_MESSAGE_MAX_CHARS,
  FEEDBACK_HISTORY_MAX_MESSAGES,
  FEEDBACK_IMAGE_URL_MAX_CHARS,
  FEEDBACK_MESSAGE_MAX_CHARS,
  FEEDBACK_SUGGESTION_MAX_CHARS,
  IMAGE_PROMPT_MAX_CHARS,
  MESSAGE_ID_MAX_CHARS,
  RATING_MAX,
  RATING_MIN,
  SIGNATURE_MAX_CHARS,
  TICKET_MAX_CHARS,
} from './limits';

export const localeSchema = z.enum(LOCALES);
export const levelSchema = z.enum(LEVELS);

/**
 * A reply's check for understanding (docs/behaviour.md §17.2): a question asked, or an answer judged, with
 * `openQuestion: true` when the judging reply also ends with a check question.
 */
export const checkSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('question') }),
  z.object({ type: z.literal('answer'), correct: z.boolean(), openQuestion: z.literal(true).optional() }),
]);

/**
 * Characters that show nothing: zero-width spaces and joiners, the word joiner, the byte-order mark.
 * `String.prototype.trim` keeps most of them, so a message of only these would pass a trim check.
 */
const INVISIBLE = /[\s\u200b-\u200d\u2060\ufeff\u180e\u00ad]/gu;

/** True when the text has nothing a person could read or hear (blank, or only invisible characters). */
export function isBlank(text: string): boolean {
  return text.replace(INVISIBLE, '').length === 0;
}

/** A server-issued token (reply signature, picture ticket): printable, no spaces. */
const token = (max: number) =>
  z
    .string()
    .regex(/^[A-Za-z0-9._-]+$/)
    .max(max);

/** One turn of the history sent to the tutor. */
export const chatTurnSchema = z.object({
  role: z.enum(['user', 'assistant']),
  content: z.string().min(1).max(CHAT_TURN_MAX_CHARS),
  /**
   * The `signature` that came with this reply (assistant turns). An assistant turn without a valid one
   * never reaches the model (docs/behaviour.md §12.3).
   */
  signature: token(SIGNATURE_MAX_CHARS).optional(),
});

export const chatRequestSchema = z.object({
  /** The learner's words, or `__INIT__ <localized start phrase>` to open the session. */
  userMessage: z.string().min(1).max(CHAT_USER_MESSAGE_MAX_CHARS),
  language: localeSchema,
  chatHistory: z.array(chatTurnSchema).max(CHAT_HISTORY_MAX_TURNS),
  /** The learner's level; the tutor's default when absent (docs/behaviour.md §17.1). */
  level: levelSchema.optional(),
  /**
   * The conversation (the UUID the web app makes at Start, the same one feedback carries). Reply signatures
   * are bound to it (docs/behaviour.md §12.2) and its spend is capped (§12.19).
   */
  conversationId: z.uuid(),
});

export const chatResponseSchema = z.object({
  response: z.string().min(1),
  /** Present when Astro suggests a picture; the web app then calls /api/generateImage with it. */
  imagePrompt: z.string().min(1).max(IMAGE_PROMPT_MAX_CHARS).optional(),
  /** With `imagePrompt`: the ticket /api/generateImage needs to draw exactly that prompt, for minutes. */
  imageTicket: token(TICKET_MAX_CHARS).optional(),
  /**
   * Proves the server wrote `response`; sent back on the assistant turn in later `chatHistory`. The
   * server always sends it; a reader takes a reply without one (its turn just never reaches the model).
   */
  signature: token(SIGNATURE_MAX_CHARS).optional(),
  /** Set when the reply ends with a check question, or judges the answer to the previous one. */
  check: checkSchema.optional(),
});

/**
 * One line of a streamed chat reply (`Accept: application/x-ndjson`, docs/behaviour.md §11.2): `delta`s that
 * join to the reply, at most one `picture`, then `done` with the whole reply, or `error` when it failed
 * mid-way.
 */
export const chatStreamLineSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('delta'), text: z.string().min(1) }),
  z.object({
    type: z.literal('picture'),
    imagePrompt: z.string().min(1).max(IMAGE_PROMPT_MAX_CHARS),
    /** Always sent by the server; without it the picture cannot be drawn (403). */
    imageTicket: token(TICKET_MAX_CHARS).optional(),
  }),
  chatResponseSchema.extend({ type: z.literal('done') }),
  z.object({
    type: z.literal('error'),
    error: z.object({ code: z.enum(ERROR_CODES as [ErrorCode, ...ErrorCode[]]), message: z.string() }),
  }),
]);

export const generateImageRequestSchema = z.object({
  prompt: z.string().min(1).max(IMAGE_PROMPT_MAX_CHARS),
  /**
   * The `imageTicket` of the reply that suggested this picture. Optional in the shape only: without a
   * valid one the answer is 403 `forbidden` (a missing ticket is a refusal, not a malformed request).
   */
  ticket: token(TICKET_MAX_CHARS).optional(),
});

export const generateImageResponseSchema = z.object({
  /** Same-origin `/images/<uuid>.<ext>`. */
  imageUrl: z.string().min(1),
});

/** A transcript message as the web app keeps it (docs/behaviour.md §3.1). */
export const chatMessageSchema = z.object({
  /** A timestamp, or a string starting with `loading-` for an image placeholder. */
  id: z.union([z.number().int().nonnegative(), z.string().min(1).max(MESSAGE_ID_MAX_CHARS)]),
  text: z.string().max(FEEDBACK_MESSAGE_MAX_CHARS),
  sender: z.enum(['user', 'astro']),
  isLoading: z.boolean().optional(),
  /** A same-origin path (`/images/…`) or an https URL: never `javascript:`, `data:` or `//host`. */
  imageUrl: z
    .string()
    .max(FEEDBACK_IMAGE_URL_MAX_CHARS)
    .regex(/^(\/(?![/\\])[^\s\\]*|https:\/\/[^\s\\]+)$/, 'a same-origin path or an https URL')
    .optional(),
});

const ratingSchema = z.number().int().min(RATING_MIN).max(RATING_MAX);

export const feedbackRequestSchema = z.object({
  helpfulness: ratingSchema,
  clarity: ratingSchema,
  suggestion: z.string().max(FEEDBACK_SUGGESTION_MAX_CHARS),
  conversationId: z.uuid(),
  language: localeSchema,
  chatHistory: z.array(chatMessageSchema).max(FEEDBACK_HISTORY_MAX_MESSAGES),
  /** Correct answers to check questions in the conversation (docs/behaviour.md §17.4). */
  starsEarned: z.number().int().min(0).max(FEEDBACK_HISTORY_MAX_MESSAGES).optional(),
});

export const feedbackResponseSchema = z.object({
  /** false when feedback for this conversation was already stored; the first is kept unchanged. */
  stored: z.boolean(),
});

/** /api/speechToken takes an empty body (or `{}`). */
export const speechTokenRequestSchema = z.object({}).optional();

export const speechTokenResponseSchema = z.object({
  token: z.string().min(1),
  region: z.string().min(1),
  /** ISO 8601 time after which the token must not be used. */
  expiresAt: z.iso.datetime(),
});

export type ChatTurn = z.infer<typeof chatTurnSchema>;
export type ChatRequest = z.infer<typeof chatRequestSchema>;
export type ChatResponse = z.infer<typeof chatResponseSchema>;
export type ChatStreamLine = z.infer<typeof chatStreamLineSchema>;
export type GenerateImageRequest = z.infer<typeof generateImageRequestSchema>;
export type GenerateImageResponse = z.infer<typeof generateImageResponseSchema>;
export type ChatMessage = z.infer<typeof chatMessageSchema>;
export type Sender = ChatMessage['sender'];
export type FeedbackRequest = z.infer<typeof feedbackRequestSchema>;
export type FeedbackResponse = z.infer<typeof feedbackResponseSchema>;
export type SpeechTokenResponse = z.infer<typeof speechTokenResponseSchema>;
