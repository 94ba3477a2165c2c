import { initMessage, type Locale } from '../../../lambdas/contract/languages';
import { CHAT_USER_MESSAGE_MAX_CHARS, type PlaybackSpeed } from '../../../lambdas/contract/limits';
import type { ChatTurn } from '../../../lambdas/contract/schemas';
import { sendChat, type ChatReply, type ChatRequest } from '../api/chat';
import { sendFeedback, type FeedbackRequest } from '../api/feedback';
import { generateImage } from '../api/generate-image';
import { withDeadline } from '../app/deadline';
import { logError } from '../app/log';
import { NoVoiceError, type SpeechEngine } from '../speech/engine';
import { newConversationId, nextLoadingId, nextMessageId } from './message-id';
import {
  canSubmitFeedback,
  chatHistoryOf,
  conversationReducer,
  feedbackHistoryOf,
  initialState,
  speakableText,
  type ConversationAction,
  type ConversationState,
} from './state';

/** What the controller reaches the outside world through; the app passes the real ones, tests fakes. */
export interface ConversationDeps {
  readonly chat: (request: ChatRequest) => Promise<ChatReply>;
  readonly generateImage: (request: { prompt: string }) => Promise<{ imageUrl: string }>;
  readonly sendFeedback: (request: FeedbackRequest) => Promise<void>;
  readonly createEngine: () => Promise<SpeechEngine>;
  /** Plays the silent clip inside the Start tap (iPhone only). */
  readonly unlockAudio: () => void;
  readonly newConversationId: () => string;
  /** How long a reply may wait for the speech engine to be ready (token, SDK chunk, voices). */
  readonly engineReadyMs?: number;
}

/** Past this, a reply is shown and not spoken rather than left waiting for an engine that never comes. */
export const ENGINE_READY_DEADLINE_MS = 20_000;

export interface FeedbackInput {
  readonly helpfulness: number;
  readonly clarity: number;
  readonly suggestion: string;
}

export const defaultDeps = (
  overrides: Pick<ConversationDeps, 'createEngine' | 'unlockAudio'>,
): ConversationDeps => ({
  chat: (request) => sendChat(request),
  generateImage: (request) => generateImage(request),
  sendFeedback: (request) => sendFeedback(request),
  newConversationId,
  ...overrides,
});

/**
 * Runs the conversation's effects around the reducer: it dispatches what happened (a tap, an utterance,
 * a reply, the end of playback) and acts on what the reducer decided. A small store, so the decision is
 * known synchronously (two utterances in one tick cannot both be accepted).
 */
export class ConversationController {
  private state: ConversationState;
  private readonly listeners = new Set<() => void>();
  private engine: SpeechEngine | null = null;
  private enginePromise: Promise<SpeechEngine | null> | null = null;
  /** One number per spoken reply, bumped by Skip and End: a reply still waiting checks it and speaks nothing. */
  private speechTurn = 0;

  constructor(
    private readonly deps: ConversationDeps,
    initial: ConversationState = initialState,
  ) {
    this.state = initial;
  }

  readonly getState = (): ConversationState => this.state;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  dispatch(action: ConversationAction): ConversationState {
    const next = conversationReducer(this.state, action);
    if (next !== this.state) {
      this.state = next;
      for (const listener of this.listeners) listener();
    }
    return next;
  }

  selectLanguage(language: Locale): void {
    this.dispatch({ type: 'language_selected', language });
  }

  selectSpeed(speed: PlaybackSpeed): void {
    this.dispatch({ type: 'speed_selected', speed });
    this.engine?.setSpeed(speed);
  }

  /** Start (SPEC §4). Must be called synchronously from the tap, for the iPhone audio unlock. */
  start(): void {
    const conversationId = this.deps.newConversationId();
    const before = this.state;
    const state = this.dispatch({ type: 'started', conversationId });
    if (state === before) return;
    this.deps.unlockAudio();
    const locale = state.conversationLanguage;
    this.enginePromise = this.startEngine(conversationId, locale);
    void this.converse(conversationId, initMessage(locale), []);
  }

  /** End (SPEC §4): inactive, idle, interim cleared, the recogniser stopped and closed. */
  end(): void {
    const before = this.state;
    if (this.dispatch({ type: 'ended' }) === before) return;
    this.releaseEngine();
  }

  /** A final utterance from the recogniser, or a typed message: accepted only while listening. */
  submitUtterance(text: string): boolean {
    const before = this.state;
    const state = this.dispatch({ type: 'utterance_received', id: nextMessageId(), text });
    if (state === before || !state.conversationId) return false;
    // The history is the conversation before this message; the message itself goes as userMessage.
    void this.converse(
      state.conversationId,
      text.trim().slice(0, CHAT_USER_MESSAGE_MAX_CHARS),
      chatHistoryOf(before.messages),
    );
    return true;
  }

  /**
   * Skip: Astro stops speaking at once (audio stopped and released, pending synthesis cancelled) and the
   * conversation listens again; the reply's text stays in the transcript. Only while speaking.
   */
  skip(): void {
    const { conversationId, status } = this.state;
    if (status !== 'speaking' || !conversationId) return;
    this.speechTurn += 1;
    this.engine?.stopSpeaking();
    this.dispatch({ type: 'playback_finished', conversationId });
  }

  dismissFeedback(): void {
    this.dispatch({ type: 'feedback_dismissed' });
  }

  async submitFeedback(input: FeedbackInput): Promise<void> {
    const { conversationId, conversationLanguage, messages, feedback } = this.state;
    if (!conversationId || !canSubmitFeedback(input.helpfulness, input.clarity, feedback.sending)) return;
    const before = this.state;
    if (this.dispatch({ type: 'feedback_submitted' }) === before) return;
    try {
      await this.deps.sendFeedback({
        helpfulness: input.helpfulness,
        clarity: input.clarity,
        suggestion: input.suggestion.trim(),
        conversationId,
        language: conversationLanguage,
        chatHistory: feedbackHistoryOf(messages),
      });
    } catch (error) {
      logError('sending feedback failed', error);
    } finally {
      this.dispatch({ type: 'feedback_settled' });
    }
  }

  /** Ends any conversation and releases the engine; the controller stays usable (StrictMode remounts). */
  dispose(): void {
    this.dispatch({ type: 'ended' });
    this.releaseEngine();
  }

  private async startEngine(conversationId: string, locale: Locale): Promise<SpeechEngine | null> {
    let engine: SpeechEngine;
    try {
      engine = await this.deps.createEngine();
    } catch (error) {
      logError('no speech engine', error);
      this.dispatch({ type: 'engine_ready', engine: 'none' });
      return null;
    }
    if (!this.isCurrent(conversationId)) {
      engine.dispose();
      return null;
    }
    this.engine = engine;
    this.dispatch({ type: 'engine_ready', engine: engine.canListen ? engine.kind : 'none' });
    if (engine.canListen) {
      // The recogniser runs for the whole conversation; the reducer decides which utterances count.
      engine
        .startListening(locale, {
          onInterim: (text) => this.dispatch({ type: 'interim_recognized', text }),
          onFinal: (text) => void this.submitUtterance(text),
          onHealth: (health) => {
            if (this.engine === engine) this.dispatch({ type: 'listening_health', health });
          },
        })
        .catch((error: unknown) => {
          logError('speech recognition could not start', error);
          if (this.engine === engine) this.dispatch({ type: 'engine_ready', engine: 'none' });
        });
    }
    return engine;
  }

  private releaseEngine(): void {
    this.speechTurn += 1;
    const engine = this.engine;
    this.engine = null;
    this.enginePromise = null;
    engine?.dispose();
  }

  private async converse(
    conversationId: string,
    userMessage: string,
    chatHistory: ChatTurn[],
  ): Promise<void> {
    let reply: ChatReply;
    try {
      reply = await this.deps.chat({
        userMessage,
        language: this.state.conversationLanguage,
        chatHistory,
      });
    } catch (error) {
      logError('chat failed', error);
      this.dispatch({ type: 'chat_failed', conversationId });
      return;
    }
    const image = reply.imagePrompt ? { loadingId: nextLoadingId(), prompt: reply.imagePrompt } : undefined;
    const before = this.state;
    const state = this.dispatch({
      type: 'reply_received',
      conversationId,
      id: nextMessageId(),
      text: reply.response,
      offlineTutor: reply.offlineTutor,
      ...(image ? { image } : {}),
    });
    if (state === before) return;
    if (image) void this.sketch(image.loadingId, image.prompt);
    await this.speak(conversationId, reply.response);
  }

  private async speak(conversationId: string, text: string): Promise<void> {
    const turn = ++this.speechTurn;
    try {
      const engine = await withDeadline(
        this.enginePromise ?? Promise.resolve(null),
        this.deps.engineReadyMs ?? ENGINE_READY_DEADLINE_MS,
        'the speech engine',
      );
      if (turn !== this.speechTurn) return; // skipped or ended while the engine got ready
      if (!engine || !this.isCurrent(conversationId)) throw new Error('no speech engine to speak with');
      await engine.speak(speakableText(text), this.state.conversationLanguage, this.state.speed);
    } catch (error) {
      if (error instanceof NoVoiceError) this.dispatch({ type: 'voice_missing', conversationId });
      logError('speaking the reply failed', error);
    } finally {
      // A skipped reply already went back to listening; it must not end a later reply's speaking.
      if (turn === this.speechTurn) this.dispatch({ type: 'playback_finished', conversationId });
    }
  }

  private async sketch(loadingId: string, prompt: string): Promise<void> {
    try {
      const { imageUrl } = await this.deps.generateImage({ prompt });
      this.dispatch({ type: 'image_ready', loadingId, id: nextMessageId(), imageUrl });
    } catch (error) {
      logError('Image generation failed', error);
      this.dispatch({ type: 'image_failed', loadingId });
    }
  }

  private isCurrent(conversationId: string): boolean {
    return this.state.active && this.state.conversationId === conversationId;
  }
}
