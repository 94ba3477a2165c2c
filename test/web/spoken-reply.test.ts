import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Locale } from '#contract/languages';
import { SpokenReply } from '#web/conversation/spoken-reply';
import { NoVoiceError, type SpeechEngine } from '#web/speech/engine';

// One reply spoken as a pipeline (docs/behaviour.md §10.12): each sentence to the engine as soon as it is
// complete, in order even while the engine is getting ready, the first failure silencing the rest, and
// Skip or End (cancel) keeping every sentence not yet handed over silent.

/** An engine whose every speak() waits until the test ends it. */
function scriptedEngine() {
  const said: { text: string; locale: Locale; speed: number }[] = [];
  const endings: { resolve: () => void; reject: (error: Error) => void }[] = [];
  let stops = 0;
  const engine: SpeechEngine = {
    kind: 'browser',
    canListen: true,
    startListening: async () => undefined,
    stopListening: async () => undefined,
    speak: (text, locale, speed) => {
      said.push({ text, locale, speed });
      return new Promise<void>((resolve, reject) => endings.push({ resolve, reject }));
    },
    setSpeed: () => undefined,
    setThinkTime: () => undefined,
    stopSpeaking: () => void (stops += 1),
    dispose: () => undefined,
  };
  return {
    engine,
    said,
    texts: () => said.map((entry) => entry.text),
    end: (error?: Error) => {
      const next = endings.shift();
      if (error) next?.reject(error);
      else next?.resolve();
    },
    stops: () => stops,
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => vi.restoreAllMocks());

describe('a spoken reply', () => {
  it('hands each sentence to a ready engine as soon as it is complete, without asterisks, at the speed of the moment', async () => {
    const scripted = scriptedEngine();
    let speed = 1;
    const reply = new SpokenReply({
      engine: () => scripted.engine,
      locale: 'en-US',
      speed: () => speed,
      onNoVoice: () => undefined,
    });

    reply.add('Saturn has **rings**. They are');
    expect(scripted.said).toEqual([{ text: 'Saturn has rings.', locale: 'en-US', speed: 1 }]);
    speed = 1.5;
    reply.add(' ice. ');
    const finished = reply.finish();
    expect(scripted.said.at(-1)).toEqual({ text: 'They are ice.', locale: 'en-US', speed: 1.5 });

    let done = false;
    void finished.then(() => (done = true));
    scripted.end();
    await settle();
    expect(done).toBe(false);
    scripted.end();
    await settle();
    expect(done).toBe(true);
  });

  it('speaks nothing for a sentence that is only asterisks or space', async () => {
    const scripted = scriptedEngine();
    const reply = new SpokenReply({
      engine: () => scripted.engine,
      locale: 'en-US',
      speed: () => 1,
      onNoVoice: () => undefined,
    });
    reply.add('**  **');
    await reply.finish();
    expect(scripted.said).toEqual([]);
  });

  it('asks for the engine once, and keeps sentences in order while it gets ready', async () => {
    const scripted = scriptedEngine();
    let ready: (engine: SpeechEngine | null) => void = () => undefined;
    const engine = vi.fn(() => new Promise<SpeechEngine | null>((resolve) => (ready = resolve)));
    const reply = new SpokenReply({ engine, locale: 'fr-FR', speed: () => 1, onNoVoice: () => undefined });

    reply.add('Bonjour à toi. Saturne a des anneaux. ');
    reply.add('Ils sont en glace. ');
    expect(scripted.said).toEqual([]);
    ready(scripted.engine);
    await settle();

    expect(engine).toHaveBeenCalledTimes(1);
    expect(scripted.texts()).toEqual(['Bonjour à toi.', 'Saturne a des anneaux.', 'Ils sont en glace.']);
    const finished = reply.finish();
    for (let index = 0; index < 3; index += 1) scripted.end();
    await finished;
  });

  it('finishes without speaking when there is no engine, and says nothing of a missing voice', async () => {
    const onNoVoice = vi.fn();
    const reply = new SpokenReply({
      engine: async () => null,
      locale: 'en-US',
      speed: () => 1,
      onNoVoice,
    });
    reply.add('Hello there. How are you?');

    await expect(reply.finish()).resolves.toBeUndefined();
    expect(onNoVoice).not.toHaveBeenCalled();
    expect(console.error).toHaveBeenCalledTimes(1);
  });

  it('drops the rest of the reply at the first failure, stopping the engine, and finishes', async () => {
    const scripted = scriptedEngine();
    const onNoVoice = vi.fn();
    const reply = new SpokenReply({
      engine: () => scripted.engine,
      locale: 'en-US',
      speed: () => 1,
      onNoVoice,
    });
    reply.add('One is here. Two is here. ');
    const finished = reply.finish();

    scripted.end(new Error('synthesis failed'));
    scripted.end(new Error('cancelled by the stop'));
    await finished;
    reply.add('Three is here. ');
    await reply.finish();

    // Two were handed over before the failure; the third, after it, never is.
    expect(scripted.texts()).toEqual(['One is here.', 'Two is here.']);
    expect(scripted.stops()).toBe(1);
    expect(onNoVoice).not.toHaveBeenCalled();
    expect(console.error).toHaveBeenCalledTimes(1);
  });

  it('says when the engine has no voice for the language', async () => {
    const scripted = scriptedEngine();
    const onNoVoice = vi.fn();
    const reply = new SpokenReply({
      engine: () => scripted.engine,
      locale: 'he-IL',
      speed: () => 1,
      onNoVoice,
    });
    reply.add('שלום לך.');
    const finished = reply.finish();
    scripted.end(new NoVoiceError('he-IL'));
    await finished;
    expect(onNoVoice).toHaveBeenCalledTimes(1);
  });

  it('after cancel, hands nothing more to the engine and reports no failure of what was playing', async () => {
    const scripted = scriptedEngine();
    let ready: (engine: SpeechEngine | null) => void = () => undefined;
    const reply = new SpokenReply({
      engine: () => new Promise((resolve) => (ready = resolve)),
      locale: 'en-US',
      speed: () => 1,
      onNoVoice: () => undefined,
    });
    reply.add('First one here. Second one here. ');
    reply.cancel();
    ready(scripted.engine);
    reply.add('Third one here. ');
    await reply.finish();
    expect(scripted.said).toEqual([]);
    expect(console.error).not.toHaveBeenCalled();

    const playing = scriptedEngine();
    const other = new SpokenReply({
      engine: () => playing.engine,
      locale: 'en-US',
      speed: () => 1,
      onNoVoice: () => undefined,
    });
    other.add('Playing now. ');
    const finished = other.finish();
    other.cancel();
    playing.end(new Error('interrupted'));
    await finished;
    expect(console.error).not.toHaveBeenCalled();
    expect(playing.stops()).toBe(0);
  });
});
