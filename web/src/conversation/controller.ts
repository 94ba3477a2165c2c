import { initMessage, type Locale } from '#contract/languages';
import { CHAT_USER_MESSAGE_MAX_CHARS } from '#contract/limits';
import type { ChatTurn } from '#contract/schemas';
import type { Level } from '#contract/teaching';
import { streamChat, type ChatReply, type ChatRequest, type ChatStreamHandlers } from '../api/chat';
import { sendFeedback, type FeedbackRequest } from '../api/feedback';
import { generateImage, PICTURE_FAILED_MESSAGE } from '../api/generate-image';
import { withDeadline } from '../lib/deadline';
import { logError } from '../lib/log';
import type { SpeechEngine } from '../speech/engine';
import { newConversationId, nextLoadingId, nextMessageId } from './message-id';
import type { PlaybackSpeed } from './speed';
import { SpokenReply, type SpeechText } from './spoken-reply';
import {
  canSubmitFeedback,
  chatHistoryOf,
  conversationReducer,
  feedbackHistoryOf,
  initialState,
  lastReplyText,
  type ConversationAction,
  type ConversationState,
} from './state';

/** What the controller reaches the outside world through; the app passes the real ones, tests fakes. */
export interface ConversationDeps {
  /**
   * Sends the learner's words; reports the reply's pieces as they arrive and resolves with the whole
   * reply. A server that does not stream may report nothing before resolving.
   */
  readonly chat: (request: ChatRequest, handlers: ChatStreamHandlers) => Promise<ChatReply>;
  /**
   * Draws the picture the tutor suggested; `ticket` is that reply's `imageTicket` (docs/behaviour.md §12.4).
   */
  readonly generateImage: (request: { prompt: string; ticket?: string }) => Promise<{ imageUrl: string }>;
  readonly sendFeedback: (request: FeedbackRequest) => Promise<void>;
  readonly createEngine: () => Promise<SpeechEngine>;
  /**
   * The words speech needs beyond the engine (the sentence cutter, spoken units, the pronunciation
   * lexicon: speech-text.ts), its own chunk, loaded on Start alongside the engine and within its deadline.
   */
  readonly loadSpeechText: () => Promise<SpeechText>;
  /**
   * The browser's own speech, for a conversation whose Azure voice is withdrawn mid-way (its token expired
   * and the server issues no more: docs/behaviour.md §10.21).
   */
  readonly createBrowserEngine: () => Promise<SpeechEngine>;
  /** Plays the silent clip inside the Start tap (iPhone only). */
  readonly unlockAudio: () => void;
  readonly newConversationId: () => string;
  /**
   * How long the speech engine may take to be ready (token, SDK chunk, voices): past it the conversation
   * goes on without one, and a reply waiting for it is shown and not spoken.
   */
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
  chat: (request, handlers) => streamChat(request, handlers),
  generateImage: (request) => generateImage(request),
  sendFeedback: (request) => sendFeedback(request),
  loadSpeechText: () => import('./speech-text'),
  // Its own chunk, as at Start (select-engine.ts): the first load carries no speech engine (§2.24).
  createBrowserEngine: async () => new (await import('../speech/browser-engine')).BrowserSpeechEngine(),
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
  /** The words speech needs, once loaded (they stay: the same for every conversation). */
  private speechText: SpeechText | null = null;
  private speechTextPromise: Promise<SpeechText | null> | null = null;
  /** The reply being spoken now; Skip and End cancel it. */
  private spoken: SpokenReply | null = null;
  /** What the engine was last told about think time. */
  private engineThinkTime = false;
  /** Set while listeners are due to hear of a change made with `dispatch(…, 'soon')`. */
  private notifyTimer: ReturnType<typeof setTimeout> | undefined;

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

  /**
   * Applies the action at once. Listeners (the screen) hear of it at once too, or with `'soon'` in the next
   * task, together with any other change by then: a reply growing piece by piece re-renders once per task.
   * Everything a reply changes is `'soon'` (docs/behaviour.md §10.9, the voice before the screen): a
   * listener told at once makes React render in a microtask, ahead of the speech SDK's own microtasks
   * that carry a finished sentence to the service.
   */
  dispatch(action: ConversationAction, notify: 'now' | 'soon' = 'now'): ConversationState {
    const previous = this.state;
    const next = conversationReducer(previous, action);
    if (next !== previous) {
      this.state = next;
      // An ended conversation's engine is being released, not retuned.
      if (next.active) this.tuneThinkTime(next);
      if (notify === 'now') this.notify();
      else this.notifyTimer ??= setTimeout(() => this.notify(), 0);
    }
    return next;
  }

  /**
   * The engine's think time (docs/behaviour.md §17.5) follows the open check question: it opens as soon as
   * a reply opens one (the engine itself waits until that reply is synthesized), and closes only once
   * Astro listens again. Closing it when the answer is accepted would rebuild the recogniser just as the
   * next reply arrives, and that reply usually opens a question again.
   */
  private tuneThinkTime(state: ConversationState): void {
    const wanted = state.checkOpen;
    if (!this.engine || wanted === this.engineThinkTime) return;
    if (!wanted && state.status !== 'listening') return;
    this.engineThinkTime = wanted;
    this.engine.setThinkTime(wanted);
  }

  private notify(): void {
    clearTimeout(this.notifyTimer);
    this.notifyTimer = undefined;
    for (const listener of this.listeners) listener();
  }

  selectLanguage(language: Locale): void {
    this.dispatch({ type: 'language_selected', language });
  }

  selectLevel(level: Level): void {
    this.dispatch({ type: 'level_selected', level });
  }

  selectSpeed(speed: PlaybackSpeed): void {
    this.dispatch({ type: 'speed_selected', speed });
    this.engine?.setSpeed(speed);
  }

  /**
   * Start (docs/behaviour.md §4.3). Must be called synchronously from the tap, for the iPhone audio unlock.
   */
  start(): void {
    const conversationId = this.deps.newConversationId();
    const before = this.state;
    const state = this.dispatch({ type: 'started', conversationId });
    if (state === before) return;
    this.deps.unlockAudio();
    const locale = state.conversationLanguage;
    void this.loadSpeechText();
    this.enginePromise = this.startEngine(conversationId, locale);
    void this.converse(conversationId, initMessage(locale), []);
  }

  /** End (docs/behaviour.md §4.16): inactive, idle, interim cleared, the recogniser stopped and closed. */
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
    this.silence();
    this.dispatch({ type: 'playback_finished', conversationId });
  }

  /** Replay: speaks Astro's last reply again, sentence by sentence; only while listening. */
  replay(): void {
    const { conversationId, messages } = this.state;
    const text = lastReplyText(messages);
    if (!conversationId || text === null) return;
    const before = this.state;
    if (this.dispatch({ type: 'replay_started', conversationId }) === before) return;
    const spoken = this.startSpeaking(conversationId);
    spoken.add(text);
    void this.finishSpeaking(conversationId, spoken);
  }

  dismissFeedback(): void {
    this.dispatch({ type: 'feedback_dismissed' });
  }

  async submitFeedback(input: FeedbackInput): Promise<void> {
    const { conversationId, conversationLanguage, messages, feedback, stars } = this.state;
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
        starsEarned: stars,
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
    const making = this.deps.createEngine();
    try {
      // Getting ready ends within the deadline (docs/behaviour.md §4.1): Start/End is disabled until then.
      engine = await withDeadline(making, this.engineReadyMs, 'the speech engine');
    } catch (error) {
      logError('no speech engine', error);
      // One that turns up after all is released at once.
      making.then((late) => late.dispose()).catch(() => undefined);
      if (this.isCurrent(conversationId)) this.dispatch({ type: 'engine_ready', engine: 'none' });
      return null;
    }
    if (!this.isCurrent(conversationId)) {
      engine.dispose();
      return null;
    }
    this.useEngine(conversationId, locale, engine, 'engine_ready');
    return engine;
  }

  /**
   * The conversation's engine from now on: think time as the open check question wants it (docs/behaviour.md
   * §17.5), the quiet note for its kind, and recognition running for the rest of the conversation.
   */
  private useEngine(
    conversationId: string,
    locale: Locale,
    engine: SpeechEngine,
    ready: 'engine_ready' | 'engine_replaced',
  ): void {
    this.engine = engine;
    // A check question asked before the engine was ready, or while the one before it served.
    this.engineThinkTime = false;
    this.tuneThinkTime(this.state);
    this.dispatch({ type: ready, engine: engine.canListen ? engine.kind : 'none' });
    engine.onRetired?.(() => void this.useBrowserSpeech(conversationId, engine));
    if (engine.canListen) {
      // The recogniser runs for the whole conversation; the reducer decides which utterances count.
      engine
        .startListening(locale, {
          onInterim: (text) => {
            if (this.engine === engine) this.dispatch({ type: 'interim_recognized', text });
          },
          onFinal: (text) => {
            if (this.engine === engine) this.submitUtterance(text);
          },
          onHealth: (health) => {
            if (this.engine === engine) this.dispatch({ type: 'listening_health', health });
          },
        })
        .catch((error: unknown) => {
          logError('speech recognition could not start', error);
          if (this.engine === engine) this.dispatch({ type: 'engine_ready', engine: 'none' });
        });
    }
  }

  /**
   * Azure is withdrawn mid-way (docs/behaviour.md §10.21): the rest of the conversation speaks and listens with
   * the browser's own speech (or is typed, §2.15), keeping its transcript, open check question and speed (read for each sentence). What
   * the withdrawn engine was saying stops with it; the reply's text stays on screen.
   */
  private async useBrowserSpeech(conversationId: string, retired: SpeechEngine): Promise<void> {
    if (this.engine !== retired || !this.isCurrent(conversationId)) return;
    logError('Azure Speech has no token any more; using the browser speech engine');
    const making = this.deps.createBrowserEngine();
    this.enginePromise = making;
    let engine: SpeechEngine;
    try {
      engine = await withDeadline(making, this.engineReadyMs, 'the browser speech engine');
    } catch (error) {
      // Not loaded in time: the learner types from here on (§2.15), never a dead Listening.
      logError('the browser speech engine did not load', error);
      // One that turns up after all is released at once, as at Start.
      making.then((late) => late.dispose()).catch(() => undefined);
      if (this.engine === retired && this.isCurrent(conversationId)) {
        this.engine = null;
        // No engine from here on: a later reply is shown at once, never held for the deadline again.
        this.enginePromise = Promise.resolve(null);
        retired.dispose();
        this.dispatch({ type: 'engine_replaced', engine: 'none' });
      }
      return;
    }
    if (this.engine !== retired || !this.isCurrent(conversationId)) {
      engine.dispose();
      return;
    }
    this.useEngine(conversationId, this.state.conversationLanguage, engine, 'engine_replaced');
    retired.dispose();
  }

  /**
   * The words speech needs, fetched once, within the engine's deadline (docs/behaviour.md §9.9); null when
   * they did not come (the reply waiting for them is shown and not spoken), and fetched again next time.
   */
  private loadSpeechText(): Promise<SpeechText | null> {
    this.speechTextPromise ??= withDeadline(
      this.deps.loadSpeechText(),
      this.engineReadyMs,
      'the words of speech',
    ).then(
      (text) => (this.speechText = text),
      (error: unknown) => {
        logError('the words of speech did not load', error);
        this.speechTextPromise = null;
        return null;
      },
    );
    return this.speechTextPromise;
  }

  private releaseEngine(): void {
    this.silence();
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
    let spoken: SpokenReply | null = null;
    let replyId: number | null = null;
    let shown = '';
    let pictureAsked = false;
    const onDelta = (text: string) => {
      if (text === '' || !this.isCurrent(conversationId)) return;
      shown += text;
      if (replyId === null) {
        const id = nextMessageId();
        const before = this.state;
        const state = this.dispatch({ type: 'reply_received', conversationId, id, text: shown }, 'soon');
        if (state === before) return;
        replyId = id;
        spoken = this.startSpeaking(conversationId);
        spoken?.add(text);
      } else {
        // The sentence this piece completes reaches the speech engine before the screen re-renders.
        spoken?.add(text);
        this.dispatch({ type: 'reply_grew', id: replyId, text: shown }, 'soon');
      }
    };
    const onPicture = (imagePrompt: string, imageTicket?: string) => {
      if (pictureAsked || replyId === null || !this.isCurrent(conversationId)) return;
      pictureAsked = true;
      const loadingId = nextLoadingId();
      this.dispatch({ type: 'picture_requested', conversationId, loadingId, prompt: imagePrompt }, 'soon');
      void this.drawPicture(loadingId, imagePrompt, imageTicket);
    };

    let reply: ChatReply | null = null;
    try {
      // The conversation's id binds Astro's signed replies to it (docs/behaviour.md §12.2).
      const { conversationLanguage: language, level } = this.state;
      reply = await this.deps.chat(
        { userMessage, language, chatHistory, level, conversationId },
        { onDelta, onPicture },
      );
    } catch (error) {
      logError('chat failed', error);
      // Before any text: docs/behaviour.md §4.13, back to listening. Mid-way: what was shown stays, and is
      // spoken.
      if (replyId === null) {
        this.dispatch({ type: 'chat_failed', conversationId });
        return;
      }
    }
    if (reply) {
      // A server that did not stream reports the whole reply only now.
      if (replyId === null) onDelta(reply.response);
      if (replyId !== null) {
        const { response, offlineTutor, spendLimit, signature } = reply;
        this.dispatch(
          {
            type: 'reply_grew',
            id: replyId,
            offlineTutor,
            spendLimit: spendLimit ?? null,
            // The signature covers exactly the reply's text: what the server says it is, not what was pieced.
            ...(response === shown ? {} : { text: response }),
            ...(signature === undefined ? {} : { signature }),
          },
          'soon',
        );
      }
      if (reply.imagePrompt) onPicture(reply.imagePrompt, reply.imageTicket);
    }
    // Stars, think time and the feedback dialog's wait (docs/behaviour.md §17.4, §17.5, §4.18) follow the
    // whole reply; one that broke off after its first words is all there is, and asks nothing.
    if (replyId !== null) {
      const check = reply?.check;
      this.dispatch({ type: 'reply_completed', conversationId, ...(check ? { check } : {}) }, 'soon');
    }
    if (spoken) await this.finishSpeaking(conversationId, spoken);
  }

  /** A new spoken reply on the conversation's engine, replacing (and silencing) any before it. */
  private startSpeaking(conversationId: string): SpokenReply {
    this.silence();
    const spoken = new SpokenReply({
      // The engine at once when it is ready, so a sentence reaches it before anything renders.
      engine: () =>
        this.engine ??
        withDeadline(this.enginePromise ?? Promise.resolve(null), this.engineReadyMs, 'the speech engine'),
      // The same: at once once loaded, so a replay or a later reply never waits on it.
      text: () => this.speechText ?? this.loadSpeechText(),
      locale: this.state.conversationLanguage,
      speed: () => this.state.speed,
      onNoVoice: () => this.dispatch({ type: 'voice_missing', conversationId }),
    });
    this.spoken = spoken;
    return spoken;
  }

  /** Waits for the last sentence; then listening again, unless Skip or End already moved on. */
  private async finishSpeaking(conversationId: string, spoken: SpokenReply): Promise<void> {
    await spoken.finish();
    if (this.spoken !== spoken) return;
    this.spoken = null;
    this.dispatch({ type: 'playback_finished', conversationId });
  }

  /** Skip and End: nothing more of the current reply is spoken, and what plays stops at once. */
  private silence(): void {
    this.spoken?.cancel();
    this.spoken = null;
    this.engine?.stopSpeaking();
  }

  private async drawPicture(loadingId: string, prompt: string, ticket: string | undefined): Promise<void> {
    try {
      const { imageUrl } = await this.deps.generateImage(
        ticket === undefined ? { prompt } : { prompt, ticket },
      );
      this.dispatch({ type: 'picture_ready', loadingId, id: nextMessageId(), imageUrl });
    } catch (error) {
      logError(PICTURE_FAILED_MESSAGE, error);
      this.dispatch({ type: 'picture_failed', loadingId });
    }
  }

  private get engineReadyMs(): number {
    return this.deps.engineReadyMs ?? ENGINE_READY_DEADLINE_MS;
  }

  private isCurrent(conversationId: string): boolean {
    return this.state.active && this.state.conversationId === conversationId;
  }
}
