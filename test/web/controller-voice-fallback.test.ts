import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Locale } from '#contract/languages';
import type { ChatReply } from '#web/api/chat';
import { ConversationController } from '#web/conversation/controller';
import type { RecognitionHandlers, SpeechEngine } from '#web/speech/engine';
import * as speechText from '#web/conversation/speech-text';

// The conversation moves to the browser's own speech when Azure is withdrawn mid-way (docs/behaviour.md
// §10.21): same transcript, same open check question, the browser's quiet note, listening again; typing when
// the browser cannot recognise speech (§2.15).

class ScriptedEngine implements SpeechEngine {
  canListen = true;
  handlers: RecognitionHandlers | null = null;
  listeningIn: Locale | null = null;
  spoken: string[] = [];
  thinkTimes: boolean[] = [];
  disposed = false;
  private readonly finishers: (() => void)[] = [];
  private retiredListeners: (() => void)[] = [];

  constructor(readonly kind: 'azure' | 'browser') {}

  async startListening(locale: Locale, handlers: RecognitionHandlers) {
    this.listeningIn = locale;
    this.handlers = handlers;
  }
  async stopListening() {
    this.listeningIn = null;
  }
  speak(text: string) {
    this.spoken.push(text);
    return new Promise<void>((resolve) => this.finishers.push(resolve));
  }
  stopSpeaking() {
    for (const finish of this.finishers.splice(0)) finish();
  }
  setSpeed() {}
  setThinkTime(open: boolean) {
    this.thinkTimes.push(open);
  }
  onRetired(listener: () => void) {
    this.retiredListeners.push(listener);
  }
  dispose() {
    this.disposed = true;
    this.listeningIn = null;
    // Like the Azure engine: whatever it was saying ends, silently.
    this.stopSpeaking();
  }
  /** Azure withdrawn: its token expired and the server issues no more. */
  retire() {
    for (const listener of this.retiredListeners) listener();
  }
  /** Everything handed over so far has played. */
  finishPlayback() {
    for (const finish of this.finishers.splice(0)) finish();
  }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

function harness({ browserCanListen = true, browserLoads = true } = {}) {
  const azure = new ScriptedEngine('azure');
  const browser = new ScriptedEngine('browser');
  browser.canListen = browserCanListen;
  const replies: Partial<ChatReply>[] = [];
  let browserEngines = 0;
  const controller = new ConversationController({
    chat: async () => ({ response: 'ok', offlineTutor: false, ...replies.shift() }),
    generateImage: async () => ({ imageUrl: '/images/1.svg' }),
    sendFeedback: async () => undefined,
    createEngine: async () => azure,
    loadSpeechText: async () => speechText,
    createBrowserEngine: () => {
      browserEngines += 1;
      return browserLoads ? Promise.resolve(browser) : new Promise<SpeechEngine>(() => undefined);
    },
    engineReadyMs: 50,
    unlockAudio: () => undefined,
    newConversationId: () => '6f1c0a3e-8d1b-4c0e-9a55-0b2d3c4e5f60',
  });
  const state = () => controller.getState();
  return { controller, azure, browser, replies, state, browserEngines: () => browserEngines };
}

/** Started in French, a check question asked and open, Astro listening for the answer. */
async function askedAQuestion(h: ReturnType<typeof harness>) {
  h.replies.push({ response: 'Bonjour ! Quelle est la plus grosse planète ?', check: { type: 'question' } });
  h.controller.selectLanguage('fr-FR');
  h.controller.start();
  await settle();
  h.azure.finishPlayback();
  await settle();
  expect(h.state()).toMatchObject({ status: 'listening', checkOpen: true, engine: 'azure' });
}

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('the conversation when Azure is withdrawn', () => {
  it('goes on with the browser speech: the same transcript and open question, its note, listening again', async () => {
    const h = harness();
    await askedAQuestion(h);
    h.azure.handlers?.onHealth('reconnecting');
    const transcript = h.state().messages;

    h.azure.retire();
    await settle();

    expect(h.azure.disposed).toBe(true);
    expect(h.browser.listeningIn).toBe('fr-FR');
    // The browser's note replaces the reconnecting one; nothing of the conversation is lost.
    expect(h.state()).toMatchObject({
      engine: 'browser',
      listeningHealth: null,
      status: 'listening',
      checkOpen: true,
      active: true,
    });
    expect(h.state().messages).toBe(transcript);
    // The open question's think time goes on with the new engine (docs/behaviour.md §17.5).
    expect(h.browser.thinkTimes).toEqual([true]);

    // What the withdrawn engine still reports counts no more; the browser's recognition does.
    h.azure.handlers?.onFinal('Saturne');
    expect(h.state().messages).toHaveLength(transcript.length);
    h.replies.push({ response: 'Oui, Jupiter !', check: { type: 'answer', correct: true } });
    h.browser.handlers?.onFinal('Jupiter');
    await settle();
    expect(h.state().messages.map((message) => message.text)).toEqual([
      'Bonjour ! Quelle est la plus grosse planète ?',
      'Jupiter',
      'Oui, Jupiter !',
    ]);
    expect(h.browser.spoken).toEqual(['Oui, Jupiter !']);
    expect(h.azure.spoken).toEqual(['Bonjour !', 'Quelle est la plus grosse planète ?']);
  });

  it('lets the learner type when the browser cannot recognise speech, and still speaks with its voice', async () => {
    const h = harness({ browserCanListen: false });
    await askedAQuestion(h);

    h.azure.retire();
    await settle();

    expect(h.state()).toMatchObject({ engine: 'none', status: 'listening', checkOpen: true });
    expect(h.browser.listeningIn).toBeNull();
    h.replies.push({ response: 'Oui !' });
    expect(h.controller.submitUtterance('Jupiter')).toBe(true);
    await settle();
    expect(h.browser.spoken).toEqual(['Oui !']);
  });

  it('listens again when Azure is withdrawn while it speaks: the reply stays on screen', async () => {
    const h = harness();
    await askedAQuestion(h);
    h.replies.push({ response: 'Presque ! Essaie encore.' });
    h.azure.handlers?.onFinal('Saturne');
    await settle();
    expect(h.state().status).toBe('speaking');

    h.azure.retire();
    await settle();

    expect(h.state()).toMatchObject({ status: 'listening', engine: 'browser' });
    expect(h.state().messages.at(-1)?.text).toBe('Presque ! Essaie encore.');
  });

  it('changes nothing once the conversation has ended', async () => {
    const h = harness();
    await askedAQuestion(h);
    h.controller.end();
    const ended = h.state();

    h.azure.retire();
    await settle();

    expect(h.browserEngines()).toBe(0);
    expect(h.state()).toBe(ended);
  });

  it('lets the learner type when the browser speech does not load in time, never a dead Listening', async () => {
    const h = harness({ browserLoads: false });
    await askedAQuestion(h);

    h.azure.retire();
    await new Promise((resolve) => setTimeout(resolve, 100));

    expect(h.azure.disposed).toBe(true);
    expect(h.state()).toMatchObject({ engine: 'none', status: 'listening', checkOpen: true, active: true });
    // The next reply is shown and Astro listens again at once: it is not held for the engine's deadline.
    h.replies.push({ response: 'Oui, Jupiter !', check: { type: 'answer', correct: true } });
    expect(h.controller.submitUtterance('Jupiter')).toBe(true);
    await settle();
    expect(h.state().messages.at(-1)?.text).toBe('Oui, Jupiter !');
    expect(h.state().status).toBe('listening');
  });
});
