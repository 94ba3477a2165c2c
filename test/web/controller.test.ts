import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initMessage, type Locale } from '#contract/languages';
import { CHAT_USER_MESSAGE_MAX_CHARS } from '#contract/limits';
import type { ChatRequest, FeedbackRequest } from '#contract/schemas';
import type { ChatReply } from '#web/api/chat';
import { ConversationController, type ConversationDeps } from '#web/conversation/controller';
import { isBusy, isInitializing } from '#web/conversation/state';
import { NoVoiceError, type RecognitionHandlers, type SpeechEngine } from '#web/speech/engine';

const IDS = ['6f1c0a3e-8d1b-4c0e-9a55-0b2d3c4e5f60', '7a2d1b4f-9e2c-4d1f-8b66-1c3e4d5f6a71'];

/** A scripted speech engine: the test says what was heard, and when playback ends. */
class FakeEngine implements SpeechEngine {
  readonly kind = 'browser' as const;
  canListen = true;
  listeningIn: Locale | null = null;
  handlers: RecognitionHandlers | null = null;
  spoken: { text: string; locale: Locale; speed: number }[] = [];
  speeds: number[] = [];
  thinkTimes: boolean[] = [];
  disposed = false;
  finishers: { resolve: () => void; reject: (error: Error) => void }[] = [];
  /** Set: the recogniser refuses to start with this error. */
  startFailure: Error | null = null;

  async startListening(locale: Locale, handlers: RecognitionHandlers) {
    if (this.startFailure) throw this.startFailure;
    this.listeningIn = locale;
    this.handlers = handlers;
  }
  async stopListening() {
    this.listeningIn = null;
  }
  speak(text: string, locale: Locale, speed: number) {
    this.spoken.push({ text, locale, speed });
    return new Promise<void>((resolve, reject) => this.finishers.push({ resolve, reject }));
  }
  setSpeed(speed: number) {
    this.speeds.push(speed);
  }
  setThinkTime(open: boolean) {
    this.thinkTimes.push(open);
  }
  stopSpeaking() {
    for (const finisher of this.finishers.splice(0)) finisher.resolve();
  }
  dispose() {
    this.disposed = true;
    this.listeningIn = null;
  }
  finishPlayback(error?: Error) {
    const finisher = this.finishers.shift();
    if (error) finisher?.reject(error);
    else finisher?.resolve();
  }
}

/** Resolves every pending promise callback chain. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

interface Harness {
  controller: ConversationController;
  engine: FakeEngine;
  chats: ChatRequest[];
  images: string[];
  feedback: FeedbackRequest[];
  unlocks: number;
  /** The next chat call's answer; a promise keeps it pending until the test settles it. */
  replyWith: (reply: Partial<ChatReply> | Error | Promise<Partial<ChatReply>>) => void;
  imageWith: (result: string | Error | Promise<{ imageUrl: string }>) => void;
  feedbackWith: (result: Error | null) => void;
}

function harness(options: Partial<Pick<ConversationDeps, 'createEngine' | 'engineReadyMs'>> = {}): Harness {
  const engine = new FakeEngine();
  let nextReply: Partial<ChatReply> | Error | Promise<Partial<ChatReply>> = {
    response: 'Hello, I am **Astro**!',
  };
  let nextImage: string | Error | Promise<{ imageUrl: string }> = '/images/1.svg';
  let nextFeedback: Error | null = null;
  const ids = [...IDS];
  const h: Harness = {
    engine,
    chats: [],
    images: [],
    feedback: [],
    unlocks: 0,
    replyWith: (reply) => (nextReply = reply),
    imageWith: (result) => (nextImage = result),
    feedbackWith: (result) => (nextFeedback = result),
    controller: undefined as unknown as ConversationController,
  };
  const deps: ConversationDeps = {
    chat: async (request) => {
      h.chats.push(request);
      if (nextReply instanceof Error) throw nextReply;
      return { response: 'ok', offlineTutor: false, ...(await nextReply) };
    },
    generateImage: async ({ prompt }) => {
      h.images.push(prompt);
      if (nextImage instanceof Error) throw nextImage;
      if (typeof nextImage !== 'string') return nextImage;
      return { imageUrl: nextImage };
    },
    sendFeedback: async (request) => {
      h.feedback.push(request);
      if (nextFeedback) throw nextFeedback;
    },
    createEngine: async () => engine,
    unlockAudio: () => {
      h.unlocks += 1;
    },
    newConversationId: () => ids.shift() ?? 'no-more-ids',
    ...options,
  };
  h.controller = new ConversationController(deps);
  return h;
}

/** Start, let the greeting arrive and finish playing: the conversation is listening. */
async function listening(h: Harness) {
  h.controller.start();
  await settle();
  h.engine.finishPlayback();
  await settle();
  expect(h.controller.getState().status).toBe('listening');
}

async function say(h: Harness, text: string) {
  h.engine.handlers?.onFinal(text);
  await settle();
  h.engine.finishPlayback();
  await settle();
}

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('the conversation controller', () => {
  it('Start sends __INIT__ with the localized phrase and an empty history, in the chosen language', async () => {
    const h = harness();
    h.controller.selectLanguage('ja-JP');
    h.controller.start();
    expect(h.controller.getState()).toMatchObject({
      status: 'thinking',
      active: true,
      conversationId: IDS[0],
    });
    await settle();
    // The level goes with every request; a new learner's is the default (docs/behaviour.md §17.1). The
    // conversation's id binds Astro's signed replies to it (§12.2).
    expect(h.chats).toEqual([
      {
        userMessage: initMessage('ja-JP'),
        language: 'ja-JP',
        chatHistory: [],
        level: 'teen',
        conversationId: IDS[0],
      },
    ]);
    expect(h.engine.listeningIn).toBe('ja-JP');
    expect(h.unlocks).toBe(1);
  });

  it('speaks the reply without asterisks at the chosen speed, then listens', async () => {
    const h = harness();
    h.controller.selectSpeed(1.5);
    h.controller.start();
    await settle();
    expect(h.controller.getState().status).toBe('speaking');
    expect(h.engine.spoken).toEqual([{ text: 'Hello, I am Astro!', locale: 'en-US', speed: 1.5 }]);
    h.engine.finishPlayback();
    await settle();
    expect(h.controller.getState().status).toBe('listening');
  });

  it('returns to listening when playback fails', async () => {
    const h = harness();
    h.controller.start();
    await settle();
    h.engine.finishPlayback(new Error('audio error'));
    await settle();
    expect(h.controller.getState().status).toBe('listening');
  });

  it('sends a final utterance with the history so far (user → user, astro → assistant)', async () => {
    const h = harness();
    await listening(h);
    h.replyWith({ response: 'Comets are icy.' });
    h.engine.handlers?.onInterim('what is');
    expect(h.controller.getState().interim).toBe('what is');
    h.engine.handlers?.onFinal('What is a comet?');
    expect(h.controller.getState()).toMatchObject({ status: 'thinking', interim: '' });
    await settle();
    expect(h.chats[1]).toEqual({
      userMessage: 'What is a comet?',
      language: 'en-US',
      chatHistory: [{ role: 'assistant', content: 'Hello, I am **Astro**!' }],
      level: 'teen',
      conversationId: IDS[0],
    });
  });

  it('ignores what the recogniser hears while Astro is thinking or speaking', async () => {
    const h = harness();
    h.controller.start();
    h.engine.handlers?.onFinal('too early');
    await settle();
    h.engine.handlers?.onFinal('Astro hearing itself');
    await settle();
    expect(h.chats).toHaveLength(1);
    expect(h.controller.getState().messages.filter((message) => message.sender === 'user')).toEqual([]);
  });

  it('accepts only the first of two utterances arriving together', async () => {
    const h = harness();
    await listening(h);
    expect(h.controller.submitUtterance('first')).toBe(true);
    expect(h.controller.submitUtterance('second')).toBe(false);
    await settle();
    expect(h.chats.map((chat) => chat.userMessage)).toEqual([initMessage('en-US'), 'first']);
  });

  it('a chat failure returns to listening and shows nothing', async () => {
    const h = harness();
    await listening(h);
    h.replyWith(new Error('API call failed: 502'));
    await say(h, 'Why is Mars red?');
    const state = h.controller.getState();
    expect(state.status).toBe('listening');
    expect(state.messages.map((message) => message.sender)).toEqual(['astro', 'user']);
  });

  it('an imagePrompt shows a loading- placeholder, then the picture', async () => {
    const h = harness();
    await listening(h);
    h.replyWith({ response: 'Here is Saturn.', imagePrompt: 'Saturn with rings' });
    h.imageWith('/images/saturn.svg');
    h.engine.handlers?.onFinal('Show me Saturn');
    await settle();
    expect(h.images).toEqual(['Saturn with rings']);
    const last = h.controller.getState().messages.at(-1);
    expect(last).toMatchObject({
      sender: 'astro',
      text: 'Saturn with rings',
      imageUrl: '/images/saturn.svg',
    });
    expect(typeof last?.id).toBe('number');
  });

  it('keeps the placeholder while the picture is on its way and removes it when generation fails', async () => {
    const h = harness();
    await listening(h);
    let failImage: (error: Error) => void = () => undefined;
    h.replyWith({ response: 'Here is Saturn.', imagePrompt: 'Saturn' });
    h.imageWith(new Promise((_, reject) => (failImage = reject)));
    h.engine.handlers?.onFinal('Show me Saturn');
    await settle();
    expect(h.controller.getState().messages.at(-1)).toMatchObject({ isLoading: true });
    expect(String(h.controller.getState().messages.at(-1)?.id)).toMatch(/^loading-\d+$/);
    failImage(new Error('Image generation failed'));
    await settle();
    expect(h.controller.getState().messages.map((message) => message.text)).toEqual([
      'Hello, I am **Astro**!',
      'Show me Saturn',
      'Here is Saturn.',
    ]);
  });

  it('End stops and closes the recogniser, and a later reply is ignored', async () => {
    const h = harness();
    await listening(h);
    let answer: (reply: Partial<ChatReply>) => void = () => undefined;
    h.replyWith(new Promise((resolve) => (answer = resolve)));
    h.engine.handlers?.onFinal('What is a pulsar?');
    await settle();
    expect(h.controller.getState().status).toBe('thinking');
    h.controller.end();
    expect(h.controller.getState()).toMatchObject({ active: false, status: 'idle' });
    expect(h.engine.disposed).toBe(true);
    expect(h.engine.listeningIn).toBeNull();

    answer({ response: 'A pulsar is a spinning neutron star.' });
    await settle();
    expect(h.controller.getState()).toMatchObject({ active: false, status: 'idle' });
    expect(h.controller.getState().messages.map((message) => message.text)).toEqual([
      'Hello, I am **Astro**!',
      'What is a pulsar?',
    ]);
    expect(h.engine.spoken.map((spoken) => spoken.text)).toEqual(['Hello, I am Astro!']);
  });

  it('disposes an engine that arrives after End, so its microphone is not left on', async () => {
    let engineReady: (engine: SpeechEngine) => void = () => undefined;
    const h = harness({ createEngine: () => new Promise((resolve) => (engineReady = resolve)) });
    h.controller.start();
    await settle();
    h.controller.end();
    engineReady(h.engine);
    await settle();
    expect(h.engine.disposed).toBe(true);
    expect(h.engine.listeningIn).toBeNull();
    expect(h.controller.getState().engine).toBeNull();
  });

  it("caps a spoken utterance to the chat request's 2,000 characters (the server would refuse more)", async () => {
    const h = harness();
    await listening(h);
    h.engine.handlers?.onFinal(`  ${'a'.repeat(1990)} ${'b'.repeat(600)}  `);
    await settle();
    const sent = h.chats.at(-1)?.userMessage ?? '';
    expect(sent).toHaveLength(CHAT_USER_MESSAGE_MAX_CHARS);
    expect(sent).toBe(`${'a'.repeat(1990)} ${'b'.repeat(9)}`);
  });

  it('a new Start gets a new conversation id and a cleared transcript', async () => {
    const h = harness();
    await listening(h);
    h.controller.end();
    h.controller.start();
    expect(h.controller.getState()).toMatchObject({ conversationId: IDS[1], messages: [] });
  });

  it('applies a new speed to what is playing', async () => {
    const h = harness();
    await listening(h);
    h.controller.selectSpeed(2);
    expect(h.engine.speeds).toEqual([2]);
  });

  it('posts feedback with ratings, suggestion, conversation id, language and transcript, once', async () => {
    const h = harness();
    h.controller.selectLanguage('de-DE');
    await listening(h);
    for (const question of ['Eins?', 'Zwei?', 'Drei?']) await say(h, question);
    expect(h.controller.getState().feedback.open).toBe(true);
    const sending = h.controller.submitFeedback({
      helpfulness: 5,
      clarity: 4,
      suggestion: '  More planets  ',
    });
    expect(h.controller.getState().feedback.sending).toBe(true);
    await sending;
    expect(h.feedback).toHaveLength(1);
    expect(h.feedback[0]).toMatchObject({
      helpfulness: 5,
      clarity: 4,
      suggestion: 'More planets',
      conversationId: IDS[0],
      language: 'de-DE',
    });
    expect(h.feedback[0]?.chatHistory.filter((message) => message.sender === 'user')).toHaveLength(3);
    expect(h.controller.getState().feedback).toEqual({ open: false, done: true, sending: false });
  });

  it('closes the feedback modal even when sending fails', async () => {
    const h = harness();
    await listening(h);
    for (const question of ['One?', 'Two?', 'Three?']) await say(h, question);
    h.feedbackWith(new Error('API call failed: 500'));
    await h.controller.submitFeedback({ helpfulness: 1, clarity: 1, suggestion: '' });
    expect(h.controller.getState().feedback).toEqual({ open: false, done: true, sending: false });
  });

  it('posts nothing once the modal is closed: after a dismiss, or a second Submit after the first', async () => {
    const dismissed = harness();
    await listening(dismissed);
    for (const question of ['One?', 'Two?', 'Three?']) await say(dismissed, question);
    dismissed.controller.dismissFeedback();
    await dismissed.controller.submitFeedback({ helpfulness: 5, clarity: 5, suggestion: '' });
    expect(dismissed.feedback).toEqual([]);
    expect(dismissed.controller.getState().feedback).toEqual({ open: false, done: true, sending: false });

    const sent = harness();
    await listening(sent);
    for (const question of ['One?', 'Two?', 'Three?']) await say(sent, question);
    await sent.controller.submitFeedback({ helpfulness: 4, clarity: 4, suggestion: '' });
    await sent.controller.submitFeedback({ helpfulness: 1, clarity: 1, suggestion: 'again' });
    expect(sent.feedback.map((request) => request.helpfulness)).toEqual([4]);
  });

  it('does not post feedback without both ratings', async () => {
    const h = harness();
    await listening(h);
    for (const question of ['One?', 'Two?', 'Three?']) await say(h, question);
    await h.controller.submitFeedback({ helpfulness: 3, clarity: 0, suggestion: '' });
    expect(h.feedback).toEqual([]);
    expect(h.controller.getState().feedback.open).toBe(true);
  });

  it('says when no engine can listen, so the learner types instead', async () => {
    const h = harness();
    h.engine.canListen = false;
    h.controller.start();
    await settle();
    expect(h.controller.getState().engine).toBe('none');
  });

  it('says the learner must type instead when the recogniser cannot start', async () => {
    const h = harness();
    h.engine.startFailure = new Error('speech recognition could not start');
    h.controller.start();
    await settle();
    expect(h.controller.getState().engine).toBe('none');
    // The conversation goes on: the greeting is spoken and typed messages are accepted.
    h.engine.finishPlayback();
    await settle();
    expect(h.controller.submitUtterance('Typed instead')).toBe(true);
  });

  it('dispose ends the conversation and releases the engine, and the controller can start again', async () => {
    const h = harness();
    await listening(h);
    h.controller.dispose();
    expect(h.engine.disposed).toBe(true);
    expect(h.controller.getState().active).toBe(false);
    h.controller.start();
    expect(h.controller.getState().active).toBe(true);
  });
});

describe('Skip, listening health and missing voices', () => {
  it('Skip stops the engine speaking and listens again at once, keeping the reply on screen', async () => {
    const h = harness();
    h.controller.start();
    await settle();
    expect(h.controller.getState().status).toBe('speaking');
    h.controller.skip();
    expect(h.controller.getState().status).toBe('listening');
    expect(h.controller.getState().messages.map((message) => message.text)).toEqual([
      'Hello, I am **Astro**!',
    ]);
    // The fake engine's stopSpeaking resolved the pending speak(): nothing is left playing.
    expect(h.engine.finishers).toEqual([]);
  });

  it('Skip does nothing unless Astro is speaking', async () => {
    const h = harness();
    await listening(h);
    const before = h.controller.getState();
    h.controller.skip();
    expect(h.controller.getState()).toBe(before);
  });

  it('a reply skipped while the engine was still getting ready is never spoken, and cannot end a later reply', async () => {
    let engineReady: (engine: SpeechEngine) => void = () => undefined;
    const h = harness({ createEngine: () => new Promise((resolve) => (engineReady = resolve)) });
    h.controller.start();
    await settle();
    expect(h.controller.getState().status).toBe('speaking');
    h.controller.skip();
    engineReady(h.engine);
    await settle();
    expect(h.engine.spoken).toEqual([]);
    // The next reply speaks, and stays speaking until its own playback ends.
    h.engine.handlers?.onFinal('What is a comet?');
    await settle();
    expect(h.engine.spoken).toHaveLength(1);
    expect(h.controller.getState().status).toBe('speaking');
    h.engine.finishPlayback();
    await settle();
    expect(h.controller.getState().status).toBe('listening');
  });

  it('a reply is shown, not spoken, when the engine never gets ready, and the conversation listens again', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const h = harness({
        createEngine: () => new Promise<SpeechEngine>(() => undefined),
        engineReadyMs: 5_000,
      });
      h.controller.start();
      await vi.advanceTimersByTimeAsync(4_999);
      expect(h.controller.getState().status).toBe('speaking');
      await vi.advanceTimersByTimeAsync(1);
      expect(h.controller.getState().status).toBe('listening');
      expect(h.controller.getState().messages).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('stops getting ready when the engine misses its deadline: no engine, End usable, a late engine released', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      let engineReady: (engine: SpeechEngine) => void = () => undefined;
      const h = harness({
        createEngine: () => new Promise<SpeechEngine>((resolve) => (engineReady = resolve)),
        engineReadyMs: 5_000,
      });
      h.controller.start();
      await vi.advanceTimersByTimeAsync(4_999);
      expect(isInitializing(h.controller.getState())).toBe(true);
      await vi.advanceTimersByTimeAsync(1);
      const state = h.controller.getState();
      expect(state).toMatchObject({ status: 'listening', engine: 'none' });
      expect(isInitializing(state)).toBe(false);
      expect(isBusy(state)).toBe(false);
      engineReady(h.engine);
      await vi.advanceTimersByTimeAsync(0);
      expect(h.engine.disposed).toBe(true);
      expect(h.engine.listeningIn).toBe(null);
    } finally {
      vi.useRealTimers();
    }
  });

  it('shows what the engine says about recognition, only for the engine of this conversation', async () => {
    const h = harness();
    await listening(h);
    h.engine.handlers?.onHealth('reconnecting');
    expect(h.controller.getState().listeningHealth).toBe('reconnecting');
    h.engine.handlers?.onHealth('listening');
    expect(h.controller.getState().listeningHealth).toBe('listening');
    const stale = h.engine.handlers;
    h.controller.end();
    stale?.onHealth('microphone_denied');
    expect(h.controller.getState().listeningHealth).toBe(null);
  });

  it('notes a missing voice when the engine has none for the language, and listens again', async () => {
    const h = harness();
    h.controller.selectLanguage('he-IL');
    h.controller.start();
    await settle();
    h.engine.finishPlayback(new NoVoiceError('he-IL'));
    await settle();
    expect(h.controller.getState()).toMatchObject({ status: 'listening', voiceMissing: true });
  });

  it('a failure other than a missing voice adds no note', async () => {
    const h = harness();
    h.controller.start();
    await settle();
    h.engine.finishPlayback(new Error('Speech synthesis did not start in time'));
    await settle();
    expect(h.controller.getState()).toMatchObject({ status: 'listening', voiceMissing: false });
  });
});

describe('teaching in the conversation (docs/behaviour.md §17)', () => {
  const question = { response: 'Which planet is the biggest?', check: { type: 'question' } } as const;
  const right = { response: 'Yes, Jupiter!', check: { type: 'answer', correct: true } } as const;
  const wrong = {
    response: 'Not quite, have another go!',
    check: { type: 'answer', correct: false },
  } as const;

  it('sends the level chosen before Start with every request, and keeps it while the conversation is active', async () => {
    const h = harness();
    h.controller.selectLevel('child');
    await listening(h);
    h.controller.selectLevel('adult');
    expect(h.controller.getState().level).toBe('child');
    await say(h, 'What is a star?');
    expect(h.chats.map((chat) => chat.level)).toEqual(['child', 'child']);
    h.controller.end();
    h.controller.selectLevel('adult');
    await listening(h);
    expect(h.chats.at(-1)?.level).toBe('adult');
  });

  it('counts a star for each answer judged correct, none for a wrong one, and sends the count with feedback', async () => {
    const h = harness();
    await listening(h);
    h.replyWith(right);
    await say(h, 'Jupiter');
    expect(h.controller.getState().stars).toBe(1);
    h.replyWith(wrong);
    await say(h, 'Mars');
    expect(h.controller.getState().stars).toBe(1);
    h.replyWith(right);
    await say(h, 'Saturn');
    expect(h.controller.getState().stars).toBe(2);
    expect(h.controller.getState().feedback.open).toBe(true);
    await h.controller.submitFeedback({ helpfulness: 5, clarity: 5, suggestion: '' });
    expect(h.feedback[0]?.starsEarned).toBe(2);
  });

  it('keeps the stars after End and starts the next conversation from none', async () => {
    const h = harness();
    await listening(h);
    h.replyWith(right);
    await say(h, 'Jupiter');
    h.controller.end();
    expect(h.controller.getState().stars).toBe(1);
    h.replyWith({ response: 'Hello again!' });
    h.controller.start();
    expect(h.controller.getState().stars).toBe(0);
  });

  it('gives no star for a judgement that arrives after End', async () => {
    const h = harness();
    await listening(h);
    let answer: (reply: Partial<ChatReply>) => void = () => undefined;
    h.replyWith(new Promise<Partial<ChatReply>>((resolve) => (answer = resolve)));
    h.engine.handlers?.onFinal('Jupiter');
    await settle();
    h.controller.end();
    answer(right);
    await settle();
    expect(h.chats).toHaveLength(2);
    expect(h.controller.getState().stars).toBe(0);
  });

  it('opens think time after a check question, tells the engine, and closes it only once Astro listens again', async () => {
    const h = harness();
    await listening(h);
    h.replyWith(question);
    h.engine.handlers?.onFinal('Quiz me');
    await settle();
    // Told while Astro still speaks the question, so the recogniser is retuned before the learner answers.
    expect(h.controller.getState()).toMatchObject({ status: 'speaking', checkOpen: true });
    expect(h.engine.thinkTimes).toEqual([true]);
    h.engine.finishPlayback();
    await settle();
    expect(h.controller.getState()).toMatchObject({ status: 'listening', checkOpen: true });

    h.replyWith({ ...wrong, check: { ...wrong.check, openQuestion: true } });
    expect(h.controller.submitUtterance('Mars')).toBe(true);
    // The question is answered, but the engine is not retuned while the reply is on its way.
    expect(h.controller.getState().checkOpen).toBe(false);
    expect(h.engine.thinkTimes).toEqual([true]);
    // The judgement asks again (the hint and the question again): think time stays open, nothing to retune.
    await settle();
    expect(h.controller.getState().checkOpen).toBe(true);
    expect(h.engine.thinkTimes).toEqual([true]);
    h.engine.finishPlayback();
    await settle();
    // Judged right, then an offer: think time closes once the reply has been spoken and Astro listens.
    h.replyWith(right);
    h.engine.handlers?.onFinal('Jupiter');
    await settle();
    expect(h.controller.getState()).toMatchObject({ status: 'speaking', checkOpen: false, stars: 1 });
    expect(h.engine.thinkTimes).toEqual([true]);
    h.engine.finishPlayback();
    await settle();
    expect(h.controller.getState()).toMatchObject({ status: 'listening', checkOpen: false });
    expect(h.engine.thinkTimes).toEqual([true, false]);
    // A reply without a check after a question: the same, back to the default once Astro listens.
    h.replyWith(question);
    await say(h, 'Tell me about Jupiter');
    expect(h.engine.thinkTimes).toEqual([true, false, true]);
    h.replyWith({ response: 'Saturn has rings.' });
    h.engine.handlers?.onFinal('Tell me about Saturn');
    await settle();
    expect(h.controller.getState()).toMatchObject({ status: 'speaking', checkOpen: false });
    expect(h.engine.thinkTimes).toEqual([true, false, true]);
    h.engine.finishPlayback();
    await settle();
    expect(h.controller.getState()).toMatchObject({ status: 'listening', checkOpen: false });
    expect(h.engine.thinkTimes).toEqual([true, false, true, false]);
  });

  it('ends think time with the conversation without retuning an engine that is being released', async () => {
    const h = harness();
    await listening(h);
    h.replyWith(question);
    await say(h, 'Quiz me');
    h.controller.end();
    expect(h.controller.getState().checkOpen).toBe(false);
    expect(h.engine.thinkTimes).toEqual([true]);
    expect(h.engine.disposed).toBe(true);
  });

  it('gives an engine that gets ready after a check question the longer wait before it listens', async () => {
    let engineReady: (engine: SpeechEngine) => void = () => undefined;
    const h = harness({ createEngine: () => new Promise((resolve) => (engineReady = resolve)) });
    h.replyWith({ response: 'Hello! Which planet do you live on?', check: { type: 'question' } });
    h.controller.start();
    await settle();
    expect(h.controller.getState().checkOpen).toBe(true);
    expect(h.engine.listeningIn).toBe(null);
    engineReady(h.engine);
    await settle();
    expect(h.engine.thinkTimes).toEqual([true]);
    expect(h.engine.listeningIn).toBe('en-US');
  });
});
