import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BrowserSpeechEngine, speakingDeadlineMs } from '../../web/src/speech/browser-engine';

/** Scripted Web Speech API objects, as a browser window would hold them. */
function fakeWindow() {
  const recognitions: FakeRecognition[] = [];
  const spoken: FakeUtterance[] = [];
  class FakeRecognition {
    continuous = false;
    interimResults = false;
    lang = '';
    onresult: ((event: unknown) => void) | null = null;
    onerror: ((event: { error: string }) => void) | null = null;
    onend: (() => void) | null = null;
    calls: string[] = [];
    constructor() {
      recognitions.push(this);
    }
    start() {
      this.calls.push('start');
    }
    stop() {
      this.calls.push('stop');
    }
    abort() {
      this.calls.push('abort');
    }
    emit(results: { text: string; isFinal: boolean }[], resultIndex = 0) {
      this.onresult?.({
        resultIndex,
        results: results.map(({ text, isFinal }) => Object.assign([{ transcript: text }], { isFinal })),
      });
    }
  }
  class FakeUtterance {
    lang = '';
    rate = 1;
    voice: unknown = null;
    onend: (() => void) | null = null;
    onerror: ((event: { error: string }) => void) | null = null;
    constructor(readonly text: string) {}
  }
  const canceled: number[] = [];
  const speechSynthesis = {
    speak: (utterance: FakeUtterance) => spoken.push(utterance),
    cancel: () => void canceled.push(spoken.length),
    getVoices: () => [
      { lang: 'en_GB', name: 'British' },
      { lang: 'it-IT', name: 'Elsa' },
    ],
  };
  const win = {
    webkitSpeechRecognition: FakeRecognition,
    speechSynthesis,
    SpeechSynthesisUtterance: FakeUtterance,
  };
  // Only the members the engine reads; the cast says so.
  return { win: win as never, recognitions, spoken, canceled };
}

const handlers = () => {
  const heard: string[] = [];
  return {
    heard,
    onInterim: (text: string) => heard.push(`interim:${text}`),
    onFinal: (text: string) => heard.push(`final:${text}`),
    onHealth: () => undefined,
  };
};

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('the browser speech engine', () => {
  it('uses webkitSpeechRecognition continuously with interim results in the locale', async () => {
    const { win, recognitions } = fakeWindow();
    const engine = new BrowserSpeechEngine(win);
    const h = handlers();
    await engine.startListening('pt-BR', h);
    const recognition = recognitions[0];
    expect(recognition).toMatchObject({
      continuous: true,
      interimResults: true,
      lang: 'pt-BR',
      calls: ['start'],
    });
    recognition?.emit([{ text: 'o que é', isFinal: false }]);
    recognition?.emit([
      { text: 'O que é um cometa?', isFinal: true },
      { text: 'e', isFinal: false },
    ]);
    expect(h.heard).toEqual(['interim:o que é', 'final:O que é um cometa?', 'interim:e']);
  });

  it('restarts recognition when the browser ends it while listening, but not after stop', async () => {
    const { win, recognitions } = fakeWindow();
    const engine = new BrowserSpeechEngine(win);
    await engine.startListening('en-US', handlers());
    const recognition = recognitions[0];
    recognition?.onend?.();
    await vi.runAllTimersAsync();
    expect(recognition?.calls).toEqual(['start', 'start']);
    await engine.stopListening();
    recognition?.onend?.();
    await vi.runAllTimersAsync();
    expect(recognition?.calls).toEqual(['start', 'start', 'abort']);
  });

  it('gives up restarting when the microphone is refused', async () => {
    const { win, recognitions } = fakeWindow();
    const engine = new BrowserSpeechEngine(win);
    await engine.startListening('en-US', handlers());
    const recognition = recognitions[0];
    recognition?.onerror?.({ error: 'not-allowed' });
    recognition?.onend?.();
    await vi.runAllTimersAsync();
    expect(recognition?.calls).toEqual(['start']);
  });

  it('speaks in the locale at the speed with a matching voice, resolving when it ends', async () => {
    const { win, spoken } = fakeWindow();
    const engine = new BrowserSpeechEngine(win);
    const speaking = engine.speak('Ciao!', 'it-IT', 1.25);
    expect(spoken[0]).toMatchObject({ text: 'Ciao!', lang: 'it-IT', rate: 1.25, voice: { name: 'Elsa' } });
    spoken[0]?.onend?.();
    await expect(speaking).resolves.toBeUndefined();
  });

  it('rejects when synthesis fails, so the conversation returns to listening', async () => {
    const { win, spoken } = fakeWindow();
    const engine = new BrowserSpeechEngine(win);
    const speaking = engine.speak('Hello', 'en-US', 1);
    spoken[0]?.onerror?.({ error: 'synthesis-failed' });
    await expect(speaking).rejects.toThrow('synthesis-failed');
  });

  it('gives up on an utterance whose end event never comes, so the conversation cannot get stuck', async () => {
    const { win, canceled } = fakeWindow();
    const engine = new BrowserSpeechEngine(win);
    const text = 'A reply whose end event the browser loses.';
    const speaking = engine.speak(text, 'en-US', 2);
    const outcome = speaking.then(
      () => 'ended',
      (error: Error) => error.message,
    );
    await vi.advanceTimersByTimeAsync(speakingDeadlineMs(text, 2) - 1);
    expect(canceled).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(await outcome).toBe('Speech synthesis did not finish in time');
    expect(canceled).toEqual([1]);
  });

  it('allows slow voices and long replies plenty of time', () => {
    expect(speakingDeadlineMs('x'.repeat(500), 1)).toBe(110_000);
    expect(speakingDeadlineMs('x'.repeat(500), 2)).toBe(60_000);
  });

  it('says it cannot listen when the browser has no SpeechRecognition', () => {
    expect(new BrowserSpeechEngine({} as never).canListen).toBe(false);
  });
});
