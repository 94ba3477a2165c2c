/**
 * The conversation's state and every rule of docs/behaviour.md §4–§5, in one reducer. Effects (speech, API
 * calls, audio) live in the controller; it dispatches what happened and reads back what the rules decided.
 */
import type { ChatMessage, ChatTurn } from '#contract/schemas';
import { DEFAULT_LOCALE, type Locale } from '#contract/languages';
import { DEFAULT_LEVEL, type Check, type Level } from '#contract/teaching';
import type { SpendLimit } from '#contract/spend';
import {
  CHAT_HISTORY_MAX_TURNS,
  CHAT_TURN_MAX_CHARS,
  FEEDBACK_HISTORY_MAX_MESSAGES,
  FEEDBACK_IMAGE_URL_MAX_CHARS,
  FEEDBACK_MESSAGE_MAX_CHARS,
  LOADING_ID_PREFIX,
  RATING_MAX,
  RATING_MIN,
} from '#contract/limits';
import type { ListeningHealth } from '../speech/engine';
import { DEFAULT_PLAYBACK_SPEED, type PlaybackSpeed } from './speed';

/** The feedback dialog is due once the learner has sent this many messages (docs/behaviour.md §9.3). */
export const FEEDBACK_PROMPT_USER_MESSAGES = 3;

/**
 * docs/behaviour.md §4.1. Getting ready ("initializing") is not a status of its own: it is derived from the
 * engine still being prepared (`isInitializing`), so no value of this type is left that nothing sets.
 */
export type Status = 'idle' | 'listening' | 'thinking' | 'speaking';

export type SpeechEngineKind = 'azure' | 'browser' | 'none';

/**
 * A message on screen: the contract's chat message, and for Astro's replies the server's `signature`,
 * sent back with that turn in later histories (docs/behaviour.md §12.2; never shown, never sent with
 * feedback).
 */
export type TranscriptMessage = ChatMessage & { readonly signature?: string };

export interface FeedbackState {
  /** The modal is on screen. */
  readonly open: boolean;
  /** Dismissed or submitted: the modal never shows again (docs/behaviour.md §4.18). */
  readonly done: boolean;
  readonly sending: boolean;
}

export interface ConversationState {
  readonly status: Status;
  readonly active: boolean;
  /** A new random UUID at each Start; null before the first one. */
  readonly conversationId: string | null;
  /** The language picked in the header; locked while a conversation is active. */
  readonly language: Locale;
  /** The language the transcript on screen was spoken in (it outlives the conversation). */
  readonly conversationLanguage: Locale;
  /** The learner's level picked in the header; locked while a conversation is active (§17.1). */
  readonly level: Level;
  readonly messages: readonly TranscriptMessage[];
  /** Live partial recognition, shown as a faded bubble. */
  readonly interim: string;
  readonly speed: PlaybackSpeed;
  readonly feedback: FeedbackState;
  /** Which speech engine the current conversation uses, for the quiet note. */
  readonly engine: SpeechEngineKind | null;
  /** The server's offline tutor answered the last reply. */
  readonly offlineTutor: boolean;
  /** …because this spending limit was reached (docs/behaviour.md §12.19): the note says for how long. */
  readonly spendLimit: SpendLimit | null;
  /** How recognition is doing in this conversation; null until the engine reports. */
  readonly listeningHealth: ListeningHealth | null;
  /** The browser has no voice for the conversation's language: replies are shown, not spoken. */
  readonly voiceMissing: boolean;
  /** Correct answers to check questions in this conversation (§17.4); kept after End, reset at Start. */
  readonly stars: number;
  /**
   * Astro's last reply ended with a check question (a question, or a judgement that asks again) and the
   * learner has not answered yet: think time (§17.5), "Take your time…" while listening and a recogniser
   * that waits longer. The feedback dialog waits while it is open (§4.18).
   */
  readonly checkOpen: boolean;
  /**
   * Astro's reply to the learner's latest message (or to the opening) is not whole yet: whether it ends
   * with a check question is not known, so the feedback dialog waits for it (§4.18).
   */
  readonly replying: boolean;
}

export const initialState: ConversationState = {
  status: 'idle',
  active: false,
  conversationId: null,
  language: DEFAULT_LOCALE,
  conversationLanguage: DEFAULT_LOCALE,
  messages: [],
  interim: '',
  speed: DEFAULT_PLAYBACK_SPEED,
  feedback: { open: false, done: false, sending: false },
  engine: null,
  offlineTutor: false,
  spendLimit: null,
  listeningHealth: null,
  voiceMissing: false,
  level: DEFAULT_LEVEL,
  stars: 0,
  checkOpen: false,
  replying: false,
};

export type ConversationAction =
  | { readonly type: 'language_selected'; readonly language: Locale }
  | { readonly type: 'level_selected'; readonly level: Level }
  | { readonly type: 'speed_selected'; readonly speed: PlaybackSpeed }
  | { readonly type: 'started'; readonly conversationId: string }
  | { readonly type: 'engine_ready'; readonly engine: SpeechEngineKind }
  | { readonly type: 'listening_health'; readonly health: ListeningHealth }
  | { readonly type: 'voice_missing'; readonly conversationId: string }
  | { readonly type: 'interim_recognized'; readonly text: string }
  /** A final recognised utterance, or a typed message: the same rule applies to both. */
  | { readonly type: 'utterance_received'; readonly id: number; readonly text: string }
  | {
      readonly type: 'reply_received';
      readonly conversationId: string;
      readonly id: number;
      readonly text: string;
      /** Set when the reply carried an imagePrompt: the placeholder's id. */
      readonly picture?: { readonly loadingId: string; readonly prompt: string };
      /** Known once the reply is complete when it streams (then told by reply_grew). */
      readonly offlineTutor?: boolean;
    }
  /** A streamed reply's text so far, and, at its end, which tutor answered (and why). In any status (Skip). */
  | {
      readonly type: 'reply_grew';
      readonly id: number;
      readonly text?: string;
      readonly offlineTutor?: boolean;
      /** With `offlineTutor`: the spending limit behind it, or null for none. */
      readonly spendLimit?: SpendLimit | null;
      readonly signature?: string;
    }
  /**
   * The whole reply is known (or the tutor failed after its first words): with its `check` when it asked a
   * check question or judged the learner's answer.
   */
  | { readonly type: 'reply_completed'; readonly conversationId: string; readonly check?: Check }
  /** The tutor suggested a picture (mid-stream or with the reply): its placeholder joins the transcript. */
  | {
      readonly type: 'picture_requested';
      readonly conversationId: string;
      readonly loadingId: string;
      readonly prompt: string;
    }
  /** Replay: Astro speaks its last reply again. */
  | { readonly type: 'replay_started'; readonly conversationId: string }
  | { readonly type: 'chat_failed'; readonly conversationId: string }
  | { readonly type: 'playback_finished'; readonly conversationId: string }
  | {
      readonly type: 'picture_ready';
      readonly loadingId: string;
      readonly id: number;
      readonly imageUrl: string;
    }
  | { readonly type: 'picture_failed'; readonly loadingId: string }
  | { readonly type: 'ended' }
  | { readonly type: 'feedback_dismissed' }
  | { readonly type: 'feedback_submitted' }
  | { readonly type: 'feedback_settled' };

export function conversationReducer(state: ConversationState, action: ConversationAction): ConversationState {
  const next = applyAction(state, action);
  return next !== state && isFeedbackDue(next)
    ? { ...next, feedback: { ...next.feedback, open: true } }
    : next;
}

function applyAction(state: ConversationState, action: ConversationAction): ConversationState {
  switch (action.type) {
    case 'language_selected':
      // The dropdown is disabled while active; the rule holds here too.
      return state.active ? state : { ...state, language: action.language };

    case 'level_selected':
      // Locked like the language (docs/behaviour.md §17.1): the tutor keeps one level per conversation.
      return state.active ? state : { ...state, level: action.level };

    case 'speed_selected':
      return { ...state, speed: action.speed };

    case 'started':
      if (state.active || isBusy(state)) return state;
      return {
        ...state,
        conversationId: action.conversationId,
        conversationLanguage: state.language,
        messages: [],
        interim: '',
        status: 'thinking',
        active: true,
        engine: null,
        listeningHealth: null,
        voiceMissing: false,
        stars: 0,
        checkOpen: false,
        replying: true,
      };

    case 'engine_ready':
      return state.active ? { ...state, engine: action.engine } : state;

    case 'listening_health':
      return state.active ? { ...state, listeningHealth: action.health } : state;

    case 'voice_missing':
      return isCurrent(state, action.conversationId) ? { ...state, voiceMissing: true } : state;

    case 'interim_recognized':
      // Clearing is always allowed (no match, an empty phrase); partial text is only meaningful while a
      // final utterance would be accepted.
      if (action.text === '') return state.interim === '' ? state : { ...state, interim: '' };
      return state.active && state.status === 'listening' ? { ...state, interim: action.text } : state;

    case 'utterance_received': {
      const text = action.text.trim();
      // docs/behaviour.md §4.7: a final utterance is accepted only while listening. A rejected one takes its
      // partial text with it, so no faded bubble is left behind.
      if (!state.active || state.status !== 'listening' || text === '') {
        return state.interim === '' ? state : { ...state, interim: '' };
      }
      return {
        ...state,
        messages: [...state.messages, { id: action.id, text, sender: 'user' as const }],
        interim: '',
        status: 'thinking',
        // The learner answered (or moved on): the check question is closed (docs/behaviour.md §17.5).
        checkOpen: false,
        replying: true,
      };
    }

    case 'reply_received': {
      if (!isCurrent(state, action.conversationId) || state.status !== 'thinking') return state;
      const reply: ChatMessage = { id: action.id, text: action.text, sender: 'astro' };
      const placeholder: ChatMessage[] = action.picture
        ? [{ id: action.picture.loadingId, text: action.picture.prompt, sender: 'astro', isLoading: true }]
        : [];
      return {
        ...state,
        messages: [...state.messages, reply, ...placeholder],
        status: 'speaking',
        offlineTutor: action.offlineTutor ?? state.offlineTutor,
      };
    }

    case 'reply_grew': {
      const { text, offlineTutor, spendLimit, signature } = action;
      if (!state.messages.some((message) => message.id === action.id)) return state;
      const changes = {
        ...(text === undefined ? {} : { text }),
        ...(signature === undefined ? {} : { signature }),
      };
      return {
        ...state,
        messages: state.messages.map((message) =>
          message.id === action.id ? { ...message, ...changes } : message,
        ),
        offlineTutor: offlineTutor ?? state.offlineTutor,
        spendLimit: spendLimit === undefined ? state.spendLimit : spendLimit,
      };
    }

    case 'reply_completed': {
      if (!isCurrent(state, action.conversationId)) return state;
      const { check } = action;
      // docs/behaviour.md §17.4: a star for each answer the tutor judged correct.
      const stars = check?.type === 'answer' && check.correct ? state.stars + 1 : state.stars;
      return { ...state, stars, checkOpen: endsWithQuestion(check), replying: false };
    }

    case 'picture_requested':
      if (!isCurrent(state, action.conversationId)) return state;
      return {
        ...state,
        messages: [
          ...state.messages,
          { id: action.loadingId, text: action.prompt, sender: 'astro', isLoading: true },
        ],
      };

    case 'replay_started':
      return isCurrent(state, action.conversationId) &&
        state.status === 'listening' &&
        lastReplyText(state.messages) !== null
        ? { ...state, status: 'speaking', interim: '' }
        : state;

    case 'chat_failed':
      return isCurrent(state, action.conversationId) && state.status === 'thinking'
        ? { ...state, status: 'listening', replying: false }
        : state;

    case 'playback_finished':
      return isCurrent(state, action.conversationId) && state.status === 'speaking'
        ? { ...state, status: 'listening' }
        : state;

    case 'picture_ready':
      return {
        ...state,
        messages: state.messages.map((message) =>
          message.id === action.loadingId
            ? { id: action.id, text: message.text, sender: 'astro', imageUrl: action.imageUrl }
            : message,
        ),
      };

    case 'picture_failed':
      return { ...state, messages: state.messages.filter((message) => message.id !== action.loadingId) };

    case 'ended':
      if (!state.active) return state;
      return {
        ...state,
        active: false,
        status: 'idle',
        interim: '',
        listeningHealth: null,
        checkOpen: false,
        replying: false,
      };

    case 'feedback_dismissed':
      return state.feedback.sending
        ? state
        : { ...state, feedback: { open: false, done: true, sending: false } };

    case 'feedback_submitted':
      if (!state.feedback.open || state.feedback.sending) return state;
      return { ...state, feedback: { open: true, done: true, sending: true } };

    case 'feedback_settled':
      // Success or failure alike: the modal closes (docs/behaviour.md §4.20).
      return { ...state, feedback: { open: false, done: true, sending: false } };
  }
}

type BusyFacts = Pick<ConversationState, 'status' | 'active' | 'engine'>;

/** docs/behaviour.md §2.11: the Start/End button is disabled while thinking, speaking or initializing. */
export function isBusy(state: BusyFacts): boolean {
  return state.status === 'thinking' || state.status === 'speaking' || isInitializing(state);
}

/**
 * docs/behaviour.md §4.1: a conversation is getting ready from Start until its speech engine is ready, or
 * known to be missing (`engine` is set at `engine_ready`, `none` included, within a deadline).
 */
export function isInitializing(state: BusyFacts): boolean {
  return state.active && state.engine === null;
}

/**
 * docs/behaviour.md §17.5: a reply leaves a check question open when it ends with one: a `question`, or a
 * judgement that asks again (`openQuestion`). A judgement without it (an offer of the next topic, the
 * answer revealed, a quiz's score) and a reply without `check` leave none open.
 */
export function endsWithQuestion(check: Check | undefined): boolean {
  return check?.type === 'question' || (check?.type === 'answer' && check.openQuestion === true);
}

/**
 * docs/behaviour.md §4.18: once, at ≥ 3 user messages, not dismissed or sent, conversation still active;
 * and only at a pause: Astro has said its whole reply, listens again, and no check question is open. The
 * dialog never covers a question the learner is thinking about; it waits for the judgement, and for a
 * quiz's end.
 */
function isFeedbackDue(state: ConversationState): boolean {
  const { feedback } = state;
  if (feedback.open || feedback.done || !state.active) return false;
  if (state.status !== 'listening' || state.replying || state.checkOpen) return false;
  const userMessages = state.messages.filter((message) => message.sender === 'user').length;
  return userMessages >= FEEDBACK_PROMPT_USER_MESSAGES;
}

function isCurrent(state: ConversationState, conversationId: string): boolean {
  return state.active && state.conversationId === conversationId;
}

/** docs/behaviour.md §5.1: Submit is disabled until both ratings are at least 1, and while sending. */
export function canSubmitFeedback(helpfulness: number, clarity: number, sending: boolean): boolean {
  return !sending && isRating(helpfulness) && isRating(clarity);
}

function isRating(value: number): boolean {
  return Number.isInteger(value) && value >= RATING_MIN && value <= RATING_MAX;
}

export function isPlaceholder(message: TranscriptMessage): boolean {
  return typeof message.id === 'string' && message.id.startsWith(LOADING_ID_PREFIX);
}

/**
 * The history sent with a chat call: the words exchanged so far, user → 'user', astro → 'assistant'.
 * Picture messages and placeholders are left out: their text is a picture prompt Astro never said, and the
 * tutor already knows it offered a picture from its own reply. Astro's turns carry their signature.
 * Capped to the API's limits (docs/behaviour.md §4.8), keeping the most recent turns.
 */
export function chatHistoryOf(messages: readonly TranscriptMessage[]): ChatTurn[] {
  return messages
    .filter((message) => !isPlaceholder(message) && !message.isLoading && message.imageUrl === undefined)
    .filter((message) => message.text.trim() !== '')
    .map((message): ChatTurn => {
      const content = message.text.slice(0, CHAT_TURN_MAX_CHARS);
      if (message.sender === 'user') return { role: 'user', content };
      // Astro's words reach the model only with the server's signature over exactly this text.
      return message.signature === undefined
        ? { role: 'assistant', content }
        : { role: 'assistant', content, signature: message.signature };
    })
    .slice(-CHAT_HISTORY_MAX_TURNS);
}

/** The transcript as sent with feedback (docs/behaviour.md §4.20): every message, within the API's limits. */
export function feedbackHistoryOf(messages: readonly TranscriptMessage[]): ChatMessage[] {
  return messages.slice(-FEEDBACK_HISTORY_MAX_MESSAGES).map((message) => {
    const kept: ChatMessage = {
      id: message.id,
      text: message.text.slice(0, FEEDBACK_MESSAGE_MAX_CHARS),
      sender: message.sender,
    };
    if (message.isLoading !== undefined) kept.isLoading = message.isLoading;
    if (message.imageUrl !== undefined && message.imageUrl.length <= FEEDBACK_IMAGE_URL_MAX_CHARS) {
      kept.imageUrl = message.imageUrl;
    }
    return kept;
  });
}

/** What Replay speaks: Astro's last reply in words (not a picture or its placeholder); null before one. */
export function lastReplyText(messages: readonly TranscriptMessage[]): string | null {
  const reply = lastReply(messages);
  return reply === null || reply.text.trim() === '' ? null : reply.text;
}

/**
 * The id of Astro's reply that ends with the open check question, which the transcript keeps in view
 * (docs/behaviour.md §2.6); null while none is open.
 */
export function openQuestionId(
  state: Pick<ConversationState, 'checkOpen' | 'messages'>,
): TranscriptMessage['id'] | null {
  return state.checkOpen ? (lastReply(state.messages)?.id ?? null) : null;
}

/** Astro's last message in words: not a picture, not a placeholder. */
function lastReply(messages: readonly TranscriptMessage[]): TranscriptMessage | null {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    if (!message || message.sender !== 'astro') continue;
    if (isPlaceholder(message) || message.isLoading || message.imageUrl !== undefined) continue;
    return message;
  }
  return null;
}
