import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Locale } from '#contract/languages';
import type { ChatReply, ChatStreamHandlers } from '#web/api/chat';
import { ConversationController, type ConversationDeps } from '#web/conversation/controller';
import * as speechText from '#web/conversation/speech-text';
import type { RecognitionHandlers, SpeechEngine } from '#web/speech/engine';

/** A speech engine that records each sentence and plays it only when the test says so. */
class QueueEngine implements SpeechEngine {
  readonly kind = 'azure' as const;
  readonly canListen = true;
  handlers: RecognitionHandlers | null = null;
  queued: { text: string; locale: Locale; speed: number; finish: (error?: Error) => void }[] = [];
  spoken: string[] = [];
  stops = 0;
  async startListening(_locale: Locale, handlers: RecognitionHandlers) {
    this.handlers = handlers;
  }
  async stopListening() {}
  speak(text: string, locale: Locale, speed: number) {
    this.spoken.push(text);
    return new Promise<void>((resolve, reject) =>
      this.queued.push({ text, locale, speed, finish: (error) => (error ? reject(error) : resolve()) }),
    );
  }
  /** The sentence at the head of the queue finishes playing. */
  playNext(error?: Error) {
    this.queued.shift()?.finish(error);
  }
  stopSpeaking() {
    this.stops += 1;
    for (const sentence of this.queued.splice(0)) sentence.finish();
  }
  setSpeed() {}
  setThinkTime() {}
  dispose() {}
}

/** A chat call whose reply the test streams piece by piece. */
function streamingChat() {
  let handlers: ChatStreamHandlers | null = null;
  let settle: { resolve: (reply: ChatReply) => void; reject: (error: Error) => void } | null = null;
  const chat: ConversationDeps['chat'] = (_request, given) => {
    handlers = given;
    return new Promise((resolve, reject) => (settle = { resolve, reject }));
  };
  return {
    chat,
    delta: (text: string) => handlers?.onDelta(text),
    picture: (prompt: string, ticket?: string) => handlers?.onPicture(prompt, ticket),
    done: (reply: Partial<ChatReply> & { response: string }) =>
      settle?.resolve({ offlineTutor: false, ...reply }),
    fail: (error: Error) => settle?.reject(error),
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

function harness(createEngine?: () => Promise<SpeechEngine>) {
  const engine = new QueueEngine();
  const stream = streamingChat();
  const images: string[] = [];
  const tickets: (string | undefined)[] = [];
  const histories: unknown[] = [];
  const controller = new ConversationController({
    chat: (request, handlers) => {
      histories.push(request.chatHistory);
      return stream.chat(request, handlers);
    },
    generateImage: async ({ prompt, ticket }) => {
      images.push(prompt);
      tickets.push(ticket);
      return { imageUrl: '/images/1.svg' };
    },
    sendFeedback: async () => undefined,
    createEngine: createEngine ?? (async () => engine),
    loadSpeechText: async () => speechText,
    createBrowserEngine: async () => new QueueEngine(),
    unlockAudio: () => undefined,
    newConversationId: () => '6f1c0a3e-8d1b-4c0e-9a55-0b2d3c4e5f60',
  });
  const astroTexts = () =>
    controller
      .getState()
      .messages.filter((message) => message.sender === 'astro')
      .map((message) => message.text);
  return { engine, stream, images, tickets, histories, controller, astroTexts };
}

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('a streamed reply, spoken sentence by sentence', () => {
  it('shows the bubble at the first piece, grows it, and speaks each sentence as soon as it is complete', async () => {
    const h = harness();
    h.controller.start();
    await settle();
    h.stream.delta('Hello! I am ');
    await settle();
    expect(h.astroTexts()).toEqual(['Hello! I am ']);
    expect(h.controller.getState().status).toBe('speaking');
    // "Hello!" is complete; the rest is still arriving.
    expect(h.engine.spoken).toEqual(['Hello!']);
    h.stream.delta('**Astro**, your guide. What shall we');
    await settle();
    expect(h.engine.spoken).toEqual(['Hello!', 'I am Astro, your guide.']);
    h.stream.delta(' explore?');
    h.stream.done({ response: 'Hello! I am **Astro**, your guide. What shall we explore?' });
    await settle();
    expect(h.engine.spoken).toEqual(['Hello!', 'I am Astro, your guide.', 'What shall we explore?']);
    // Speaking lasts until the last sentence has played.
    h.engine.playNext();
    h.engine.playNext();
    await settle();
    expect(h.controller.getState().status).toBe('speaking');
    h.engine.playNext();
    await settle();
    expect(h.controller.getState().status).toBe('listening');
    expect(h.astroTexts()).toEqual(['Hello! I am **Astro**, your guide. What shall we explore?']);
  });

  it('hands a sentence to a ready engine in the same tick it completes, before anything renders', async () => {
    const h = harness();
    h.controller.start();
    await settle();
    h.stream.delta('Hi there. More');
    // No await: the engine already has the sentence.
    expect(h.engine.spoken).toEqual(['Hi there.']);
  });

  it('re-renders a growing reply once per task, after the sentence it completes has reached the engine', async () => {
    const h = harness();
    h.controller.start();
    await settle();
    h.stream.delta('Hi');
    await settle();
    const renders: { text: string | undefined; spoken: number }[] = [];
    h.controller.subscribe(() => renders.push({ text: h.astroTexts()[0], spoken: h.engine.spoken.length }));
    h.stream.delta(' there.');
    h.stream.delta(' More');
    // The state is current at once; the screen hears of it in the next task, once for both pieces.
    expect(h.astroTexts()).toEqual(['Hi there. More']);
    expect(renders).toEqual([]);
    await settle();
    expect(renders).toEqual([{ text: 'Hi there. More', spoken: 1 }]);
    expect(h.engine.spoken).toEqual(['Hi there.']);
  });

  it('tells the screen of a reply that arrives all at once only in the next task, after its sentence went to the engine', async () => {
    const h = harness();
    h.controller.start();
    await settle();
    const renders: { text: string | undefined; spoken: number; signed: boolean }[] = [];
    h.controller.subscribe(() => {
      const reply = h.controller.getState().messages.find((message) => message.sender === 'astro');
      renders.push({
        text: reply?.text,
        spoken: h.engine.spoken.length,
        signed: reply?.signature !== undefined,
      });
    });
    h.stream.delta('Mars is red.');
    h.stream.done({ response: 'Mars is red.', signature: 'v1.sig' });
    // The chat call's own continuation (the final text and its signature) runs in these microtasks.
    for (let tick = 0; tick < 10; tick += 1) await Promise.resolve();
    expect(h.engine.spoken).toEqual(['Mars is red.']);
    expect(renders).toEqual([]);
    await settle();
    expect(renders).toEqual([{ text: 'Mars is red.', spoken: 1, signed: true }]);
  });

  it('keeps sentences in order when the first waits for the engine and later ones arrive once it is ready', async () => {
    let ready: (engine: SpeechEngine) => void = () => undefined;
    const h = harness(() => new Promise<SpeechEngine>((resolve) => (ready = resolve)));
    h.controller.start();
    await settle();
    h.stream.delta('First one here. Second');
    h.stream.delta(' one here. Third');
    ready(h.engine);
    await settle();
    h.stream.delta(' and last.');
    h.stream.done({ response: 'First one here. Second one here. Third and last.' });
    await settle();
    expect(h.engine.spoken).toEqual(['First one here.', 'Second one here.', 'Third and last.']);
  });

  it('asks for the picture as soon as its line arrives, before the reply has finished', async () => {
    const h = harness();
    h.controller.start();
    await settle();
    h.stream.delta('Saturn has rings. ');
    h.stream.picture('Saturn and its rings', 'ticket-1');
    await settle();
    expect(h.images).toEqual(['Saturn and its rings']);
    // The picture goes with the ticket the server gave for it (docs/behaviour.md §12.4).
    expect(h.tickets).toEqual(['ticket-1']);
    h.stream.delta('They are ice.');
    h.stream.done({ response: 'Saturn has rings. They are ice.', imagePrompt: 'Saturn and its rings' });
    await settle();
    // Asked once, and the reply's bubble stays before the picture.
    expect(h.images).toEqual(['Saturn and its rings']);
    expect(h.astroTexts()[0]).toBe('Saturn has rings. They are ice.');
  });

  it('speaks a reply that did not stream (plain JSON) sentence by sentence just the same', async () => {
    const h = harness();
    h.controller.start();
    await settle();
    h.stream.done({ response: 'One idea. Then another. Done?', offlineTutor: true });
    await settle();
    expect(h.engine.spoken).toEqual(['One idea.', 'Then another.', 'Done?']);
    expect(h.controller.getState().offlineTutor).toBe(true);
  });

  it('keeps what was shown when the stream breaks mid-way, speaks it, and listens again', async () => {
    const h = harness();
    h.controller.start();
    await settle();
    h.stream.delta('The Moon is rock. It has');
    h.stream.fail(new Error('stream broke'));
    await settle();
    expect(h.astroTexts()).toEqual(['The Moon is rock. It has']);
    expect(h.engine.spoken).toEqual(['The Moon is rock.', 'It has']);
    h.engine.playNext();
    h.engine.playNext();
    await settle();
    expect(h.controller.getState().status).toBe('listening');
  });

  it('a failure before any text is an ordinary chat failure: back to listening, nothing shown', async () => {
    const h = harness();
    h.controller.start();
    await settle();
    h.stream.fail(new Error('API call failed: 502'));
    await settle();
    expect(h.astroTexts()).toEqual([]);
    expect(h.controller.getState().status).toBe('listening');
  });

  it('Skip mid-reply drops every queued sentence; the rest of the stream is still shown, not spoken', async () => {
    const h = harness();
    h.controller.start();
    await settle();
    h.stream.delta('First sentence here. Second one');
    await settle();
    h.controller.skip();
    expect(h.controller.getState().status).toBe('listening');
    expect(h.engine.stops).toBeGreaterThan(0);
    h.stream.delta(' arrives. Third one too.');
    h.stream.done({ response: 'First sentence here. Second one arrives. Third one too.' });
    await settle();
    expect(h.engine.spoken).toEqual(['First sentence here.']);
    expect(h.astroTexts()).toEqual(['First sentence here. Second one arrives. Third one too.']);
    expect(h.controller.getState().status).toBe('listening');
  });

  it('the first failed sentence drops the rest of the reply and the conversation listens again', async () => {
    const h = harness();
    h.controller.start();
    await settle();
    h.stream.done({ response: 'One. Two sentences. Three sentences.' });
    await settle();
    h.engine.playNext(new Error('Speech synthesis did not start in time'));
    await settle();
    expect(h.engine.queued).toEqual([]);
    expect(h.controller.getState().status).toBe('listening');
  });

  it('Replay speaks the last reply again, sentence by sentence, only while listening', async () => {
    const h = harness();
    h.controller.start();
    await settle();
    h.stream.done({ response: 'Stars are suns. Far away.' });
    await settle();
    h.controller.replay(); // speaking: refused
    h.engine.playNext();
    h.engine.playNext();
    await settle();
    expect(h.controller.getState().status).toBe('listening');
    h.controller.replay();
    expect(h.controller.getState().status).toBe('speaking');
    await settle();
    expect(h.engine.spoken).toEqual(['Stars are suns.', 'Far away.', 'Stars are suns.', 'Far away.']);
    h.engine.playNext();
    h.engine.playNext();
    await settle();
    expect(h.controller.getState().status).toBe('listening');
  });

  it("sends each reply back in the history with the server's signature over exactly its text", async () => {
    const h = harness();
    h.controller.start();
    await settle();
    h.stream.delta('Hello there. ');
    h.stream.delta('I am Astro.');
    h.stream.done({ response: 'Hello there. I am Astro.', signature: 'v1.sig-of-hello' });
    await settle();
    h.engine.playNext();
    h.engine.playNext();
    await settle();
    h.engine.handlers?.onFinal('What is a star?');
    await settle();
    expect(h.histories.at(-1)).toEqual([
      { role: 'assistant', content: 'Hello there. I am Astro.', signature: 'v1.sig-of-hello' },
    ]);
  });

  it('asks for a picture offered only with the whole reply, with its ticket', async () => {
    const h = harness();
    h.controller.start();
    await settle();
    h.stream.done({ response: 'Look at Mars.', imagePrompt: 'Mars', imageTicket: 'ticket-mars' });
    await settle();
    expect(h.images).toEqual(['Mars']);
    expect(h.tickets).toEqual(['ticket-mars']);
  });

  it('Replay does nothing before Astro has replied', () => {
    const h = harness();
    h.controller.replay();
    expect(h.controller.getState().status).toBe('idle');
  });
});

describe('the feedback dialog and a reply still arriving (docs/behaviour.md §4.18)', () => {
  /** Start, two exchanges that leave no question open, then the third message: the dialog is due. */
  async function thirdMessageSent(h: ReturnType<typeof harness>) {
    h.controller.start();
    await settle();
    h.stream.done({ response: 'Hello.' });
    for (const text of ['One?', 'Two?', 'Three?']) {
      await settle();
      h.engine.playNext();
      await settle();
      expect(h.controller.getState().feedback.open).toBe(false);
      expect(h.controller.submitUtterance(text)).toBe(true);
      await settle();
      if (text !== 'Three?') h.stream.done({ response: 'Yes.' });
    }
  }

  it.each([
    ['ends with a check question: the dialog stays closed', { type: 'question' } as const, false],
    ['asks nothing: the dialog opens', undefined, true],
  ])('waits for the end of a reply that Skip cut short; one that %s', async (_case, check, opens) => {
    const h = harness();
    await thirdMessageSent(h);
    h.stream.delta('The Sun is a star. Is it a ');
    await settle();
    h.controller.skip();
    expect(h.controller.getState()).toMatchObject({ status: 'listening', feedback: { open: false } });
    const response = 'The Sun is a star. Is it a planet or a star?';
    h.stream.delta('planet or a star?');
    h.stream.done(check ? { response, check } : { response });
    await settle();
    expect(h.controller.getState().checkOpen).toBe(!opens);
    expect(h.controller.getState().feedback.open).toBe(opens);
  });

  it('opens once a reply that broke off mid-way has been said: what was shown asks nothing', async () => {
    const h = harness();
    await thirdMessageSent(h);
    h.stream.delta('The Moon is rock.');
    h.stream.fail(new Error('stream broke'));
    await settle();
    expect(h.controller.getState()).toMatchObject({ status: 'speaking', feedback: { open: false } });
    h.engine.playNext();
    await settle();
    expect(h.controller.getState()).toMatchObject({ status: 'listening', feedback: { open: true } });
  });
});
