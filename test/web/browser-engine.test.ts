import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BROWSER_SPEECH_TIMINGS, BrowserSpeechEngine, speakingDeadlineMs } from '#web/speech/browser-engine';
import { NoVoiceError, type ListeningHealth } from '#web/speech/engine';

/** Scripted Web Speech API objects, as a browser window would hold them. */
function fakeWindow(
  initialVoices: { lang: string; name: string }[] = [
    { lang: 'en_GB', name: 'British' },
    { lang: 'it-IT', name: 'Elsa' },
  ],
) {
  let voices = initialVoices;
  const voiceListeners: (() => void)[] = [];
  const recognitions: FakeRecognition[] = [];
  const spoken: FakeUtterance[] = [];
  class FakeRecognition {
    continuous = false;
    interimResults = false;
    lang = '';
    onstart: (() => void) | null = null;
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
    onstart: (() => void) | null = null;
    onend: (() => void) | null = null;
    onerror: ((event: { error: string }) => void) | null = null;
    constructor(readonly text: string) {}
  }
  const canceled: number[] = [];
  const speechSynthesis = {
    speak: (utterance: FakeUtterance) => spoken.push(utterance),
    cancel: () => void canceled.push(spoken.length),
    getVoices: () => voices,
    addEventListener: (type: string, listener: () => void) => {
      if (type === 'voiceschanged') voiceListeners.push(listener);
    },
    removeEventListener: (type: string, listener: () => void) => {
      const index = voiceListeners.indexOf(listener);
      if (type === 'voiceschanged' && index >= 0) voiceListeners.splice(index, 1);
    },
  };
  /** The browser finishing loading its voice list. */
  const loadVoices = (loaded: { lang: string; name: string }[]) => {
    voices = loaded;
    for (const listener of [...voiceListeners]) listener();
  };
  const win = {
    webkitSpeechRecognition: FakeRecognition,
    speechSynthesis,
    SpeechSynthesisUtterance: FakeUtterance,
  };
  // Only the members the engine reads; the cast says so.
  return { win: win as never, recognitions, spoken, canceled, loadVoices, voiceListeners };
}

/**
 * A speechSynthesis that behaves as WebKitGTK's was seen to: it speaks an utterance given while it is idle
 * (starting and ending it on timers, 1 s per utterance), but an utterance given while another is speaking,
 * or in the same task as the `end` of the one before (its handler or a microtask of it), never starts: it
 * is recorded as stalled.
 */
function webKitWindow() {
  const base = fakeWindow([{ lang: 'en-US', name: 'kal' }]);
  const speeches: string[] = [];
  let busy = false;
  let insideEnd = false;
  const speechSynthesis = {
    ...(base.win as unknown as { speechSynthesis: object }).speechSynthesis,
    stalled: [] as string[],
    speak(utterance: { text: string; onstart: (() => void) | null; onend: (() => void) | null }) {
      if (busy || insideEnd) {
        speechSynthesis.stalled.push(utterance.text);
        return;
      }
      busy = true;
      setTimeout(() => {
        utterance.onstart?.();
        setTimeout(() => {
          busy = false;
          speeches.push(utterance.text);
          // Until the next task: a microtask of the end handler stalls as well.
          insideEnd = true;
          setTimeout(() => (insideEnd = false), 0);
          utterance.onend?.();
        }, 1_000);
      }, 10);
    },
  };
  const win = { ...(base.win as object), speechSynthesis };
  return { win: win as never, speechSynthesis, speeches };
}

const handlers = () => {
  const heard: string[] = [];
  const health: ListeningHealth[] = [];
  return {
    heard,
    health,
    onInterim: (text: string) => heard.push(`interim:${text}`),
    onFinal: (text: string) => heard.push(`final:${text}`),
    onHealth: (value: ListeningHealth) => health.push(value),
  };
};

/** Settles, or says it is still pending: for asserting what has and has not happened yet. */
function outcomeOf(promise: Promise<void>): () => string {
  let outcome = 'pending';
  promise.then(
    () => (outcome = 'resolved'),
    (error: Error) => (outcome = `rejected: ${error.message}`),
  );
  return () => outcome;
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('the browser speech engine: listening', () => {
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
    expect(h.health).toEqual(['listening']);
  });

  it('restarts recognition at once when the browser ends it after silence, but not after stop', async () => {
    const { win, recognitions } = fakeWindow();
    const engine = new BrowserSpeechEngine(win);
    const h = handlers();
    await engine.startListening('en-US', h);
    const recognition = recognitions[0];
    recognition?.onstart?.();
    recognition?.onerror?.({ error: 'no-speech' });
    recognition?.onend?.();
    await vi.runAllTimersAsync();
    expect(recognition?.calls).toEqual(['start', 'start']);
    // Routine: the learner never sees a reconnect for a quiet moment.
    expect(h.health).toEqual(['listening']);
    await engine.stopListening();
    recognition?.onend?.();
    await vi.runAllTimersAsync();
    expect(recognition?.calls).toEqual(['start', 'start', 'abort']);
  });

  it('clears the interim text when the browser ends recognition mid-phrase', async () => {
    const { win, recognitions } = fakeWindow();
    const engine = new BrowserSpeechEngine(win);
    const h = handlers();
    await engine.startListening('en-US', h);
    recognitions[0]?.emit([{ text: 'what is', isFinal: false }]);
    recognitions[0]?.onend?.();
    expect(h.heard).toEqual(['interim:what is', 'interim:']);
  });

  it('reconnects with backoff after a network error, saying so, and is healthy again once it starts', async () => {
    const { win, recognitions } = fakeWindow();
    const timings = { ...BROWSER_SPEECH_TIMINGS, reconnectBackoffMs: [500, 1_000, 10_000] };
    const engine = new BrowserSpeechEngine(win, timings);
    const h = handlers();
    await engine.startListening('en-US', h);
    const recognition = recognitions[0];
    recognition?.onstart?.();
    const fail = () => {
      recognition?.onerror?.({ error: 'network' });
      recognition?.onend?.();
    };
    fail();
    expect(h.health).toEqual(['listening', 'reconnecting']);
    await vi.advanceTimersByTimeAsync(499);
    expect(recognition?.calls).toEqual(['start']);
    await vi.advanceTimersByTimeAsync(1);
    expect(recognition?.calls).toEqual(['start', 'start']);
    fail();
    await vi.advanceTimersByTimeAsync(999);
    expect(recognition?.calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(recognition?.calls).toHaveLength(3);
    // The last delay repeats for as long as it keeps failing.
    fail();
    await vi.advanceTimersByTimeAsync(10_000);
    fail();
    await vi.advanceTimersByTimeAsync(9_999);
    expect(recognition?.calls).toHaveLength(4);
    await vi.advanceTimersByTimeAsync(1);
    expect(recognition?.calls).toHaveLength(5);
    recognition?.onstart?.();
    expect(h.health).toEqual(['listening', 'reconnecting', 'listening']);
    // Healthy again: the next failure starts the backoff from the beginning.
    fail();
    await vi.advanceTimersByTimeAsync(500);
    expect(recognition?.calls).toHaveLength(6);
  });

  it('keeps trying when the browser refuses to start recognition', async () => {
    const { win, recognitions } = fakeWindow();
    const engine = new BrowserSpeechEngine(win, { ...BROWSER_SPEECH_TIMINGS, reconnectBackoffMs: [500] });
    const h = handlers();
    await engine.startListening('en-US', h);
    const recognition = recognitions[0];
    if (!recognition) throw new Error('no recogniser');
    recognition.start = () => {
      recognition.calls.push('start');
      throw new DOMException('busy', 'InvalidStateError');
    };
    recognition.onerror?.({ error: 'audio-capture' });
    recognition.onend?.();
    await vi.advanceTimersByTimeAsync(500);
    await vi.advanceTimersByTimeAsync(500);
    expect(recognition.calls).toEqual(['start', 'start', 'start']);
    expect(h.health).toEqual(['reconnecting']);
    await engine.stopListening();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(recognition.calls).toEqual(['start', 'start', 'start', 'abort']);
  });

  it('stops and says so when the microphone is refused, instead of a dead "Listening"', async () => {
    const { win, recognitions } = fakeWindow();
    const engine = new BrowserSpeechEngine(win);
    const h = handlers();
    await engine.startListening('en-US', h);
    const recognition = recognitions[0];
    recognition?.onerror?.({ error: 'not-allowed' });
    recognition?.onend?.();
    await vi.runAllTimersAsync();
    expect(recognition?.calls).toEqual(['start']);
    expect(h.health).toEqual(['microphone_denied']);
  });

  it('says it cannot listen when the browser has no SpeechRecognition', () => {
    expect(new BrowserSpeechEngine({} as never).canListen).toBe(false);
  });
});

describe('the browser speech engine: speaking', () => {
  it('speaks in the locale at the speed with a matching voice, resolving when it ends', async () => {
    const { win, spoken } = fakeWindow();
    const engine = new BrowserSpeechEngine(win);
    const speaking = engine.speak('Ciao!', 'it-IT', 1.25);
    await vi.advanceTimersByTimeAsync(0);
    expect(spoken[0]).toMatchObject({ text: 'Ciao!', lang: 'it-IT', rate: 1.25, voice: { name: 'Elsa' } });
    spoken[0]?.onstart?.();
    spoken[0]?.onend?.();
    await expect(speaking).resolves.toBeUndefined();
  });

  it('says each name of the lexicon in its alias spelling, since the browser voice takes no markup', async () => {
    const { win, spoken } = fakeWindow();
    const engine = new BrowserSpeechEngine(win);
    void engine.speak('Betelgeuse and M31 are far from Uranus.', 'en-US', 1);
    await vi.advanceTimersByTimeAsync(0);
    expect(spoken[0]?.text).toBe('Beetle juice and Messy ay 31 are far from Your a nus.');
    engine.stopSpeaking();
  });

  it('speaks one sentence at a time: the next goes to the browser in a later task than the end of the one before', async () => {
    const { win, spoken } = fakeWindow();
    const engine = new BrowserSpeechEngine(win);
    const first = outcomeOf(engine.speak('One.', 'en-US', 1));
    const second = outcomeOf(engine.speak('Two.', 'en-US', 1));
    await vi.advanceTimersByTimeAsync(0);
    // The browser holds only the sentence it speaks.
    expect(spoken.map((utterance) => utterance.text)).toEqual(['One.']);
    spoken[0]?.onstart?.();
    spoken[0]?.onend?.();
    // Not from inside the end event (WebKit stalls on that), nor in a microtask of it: every microtask
    // has run by the next real macrotask, and no fake timer has moved.
    expect(spoken).toHaveLength(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(spoken).toHaveLength(1);
    expect([first(), second()]).toEqual(['resolved', 'pending']);
    await vi.advanceTimersByTimeAsync(0);
    expect(spoken.map((utterance) => utterance.text)).toEqual(['One.', 'Two.']);
    // The second's start deadline runs only from when it is handed over.
    await vi.advanceTimersByTimeAsync(BROWSER_SPEECH_TIMINGS.startDeadlineMs - 1);
    spoken[1]?.onstart?.();
    spoken[1]?.onend?.();
    await vi.advanceTimersByTimeAsync(0);
    expect(second()).toBe('resolved');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('speaks every sentence of a reply on a browser that never ends an utterance queued behind another (WebKit)', async () => {
    const { win, speechSynthesis, speeches } = webKitWindow();
    const engine = new BrowserSpeechEngine(win);
    const sentences = ['The Moon is made of rock.', 'It has no air.', 'Its surface is dusty.'];
    const outcomes = sentences.map((sentence) => outcomeOf(engine.speak(sentence, 'en-US', 1)));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(outcomes.map((outcome) => outcome())).toEqual(['resolved', 'resolved', 'resolved']);
    expect(speeches).toEqual(sentences);
    expect(speechSynthesis.stalled).toEqual([]);
  });

  it('waits a task before a sentence that comes as the one before ends, since WebKit stalls on it', async () => {
    const { win, speechSynthesis, speeches } = webKitWindow();
    const engine = new BrowserSpeechEngine(win);
    let later: Promise<void> | undefined;
    const first = engine.speak('One sentence.', 'en-US', 1).then(() => {
      // The next reply's first sentence, asked for in the same task as the last one's end.
      later = engine.speak('Another one.', 'en-US', 1);
    });
    await vi.advanceTimersByTimeAsync(10_000);
    await first;
    await expect(later).resolves.toBeUndefined();
    expect(speeches).toEqual(['One sentence.', 'Another one.']);
    expect(speechSynthesis.stalled).toEqual([]);
  });

  it('rejects when synthesis fails, so the conversation returns to listening', async () => {
    const { win, spoken } = fakeWindow();
    const engine = new BrowserSpeechEngine(win);
    const speaking = engine.speak('Hello', 'en-US', 1);
    await vi.advanceTimersByTimeAsync(0);
    spoken[0]?.onerror?.({ error: 'synthesis-failed' });
    await expect(speaking).rejects.toThrow('synthesis-failed');
  });

  it('gives up at once when the browser never starts speaking (no working voice), cancelling the queue', async () => {
    const { win, canceled } = fakeWindow();
    const engine = new BrowserSpeechEngine(win);
    const first = outcomeOf(engine.speak('One.', 'en-US', 1));
    const second = outcomeOf(engine.speak('Two.', 'en-US', 1));
    await vi.advanceTimersByTimeAsync(BROWSER_SPEECH_TIMINGS.startDeadlineMs - 1);
    expect([first(), second()]).toEqual(['pending', 'pending']);
    await vi.advanceTimersByTimeAsync(1);
    expect([first(), second()]).toEqual([
      'rejected: Speech synthesis did not start in time',
      'rejected: Speech synthesis did not start in time',
    ]);
    // Only the first ever went to the browser, which is told to drop it.
    expect(canceled).toEqual([1]);
    await vi.advanceTimersByTimeAsync(BROWSER_SPEECH_TIMINGS.startDeadlineMs);
    expect(canceled).toEqual([1]);
  });

  it('gives up on an utterance whose end event never comes, so the conversation cannot get stuck', async () => {
    const { win, spoken, canceled } = fakeWindow();
    const engine = new BrowserSpeechEngine(win);
    const text = 'A reply whose end event the browser loses.';
    const outcome = outcomeOf(engine.speak(text, 'en-US', 2));
    await vi.advanceTimersByTimeAsync(0);
    spoken[0]?.onstart?.();
    await vi.advanceTimersByTimeAsync(speakingDeadlineMs(text, 2) - 1);
    expect(canceled).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome()).toBe('rejected: Speech synthesis did not finish in time');
    expect(canceled).toEqual([1]);
  });

  it('allows slow voices and long replies plenty of time', () => {
    expect(speakingDeadlineMs('x'.repeat(500), 1)).toBe(110_000);
    expect(speakingDeadlineMs('x'.repeat(500), 2)).toBe(60_000);
  });

  it('Skip stops what is speaking and drops the queue; every waiting speak() resolves', async () => {
    const { win, spoken, canceled } = fakeWindow();
    const engine = new BrowserSpeechEngine(win);
    const first = outcomeOf(engine.speak('One.', 'en-US', 1));
    const second = outcomeOf(engine.speak('Two.', 'en-US', 1));
    await vi.advanceTimersByTimeAsync(0);
    spoken[0]?.onstart?.();
    engine.stopSpeaking();
    await vi.advanceTimersByTimeAsync(0);
    expect([first(), second()]).toEqual(['resolved', 'resolved']);
    expect(canceled).toEqual([1]);
    // The browser's late 'interrupted' error for the stopped utterance changes nothing, and the one
    // still waiting is never handed over.
    spoken[0]?.onerror?.({ error: 'interrupted' });
    await vi.advanceTimersByTimeAsync(0);
    expect(spoken).toHaveLength(1);
    // And no deadline is left running.
    expect(vi.getTimerCount()).toBe(0);
  });

  it('Skip between two sentences hands nothing more to the browser', async () => {
    const { win, spoken } = fakeWindow();
    const engine = new BrowserSpeechEngine(win);
    const outcomes = [engine.speak('One.', 'en-US', 1), engine.speak('Two.', 'en-US', 1)].map(outcomeOf);
    await vi.advanceTimersByTimeAsync(0);
    spoken[0]?.onstart?.();
    spoken[0]?.onend?.();
    // Skip lands before the next sentence's hand-over.
    engine.stopSpeaking();
    await vi.advanceTimersByTimeAsync(BROWSER_SPEECH_TIMINGS.startDeadlineMs);
    expect(outcomes.map((outcome) => outcome())).toEqual(['resolved', 'resolved']);
    expect(spoken).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('rejects with NoVoiceError when the browser has no voice for the language', async () => {
    const { win, spoken } = fakeWindow([{ lang: 'en-US', name: 'Samantha' }]);
    const engine = new BrowserSpeechEngine(win);
    await expect(engine.speak('שלום', 'he-IL', 1)).rejects.toBeInstanceOf(NoVoiceError);
    expect(spoken).toEqual([]);
  });

  it('waits for the voice list to load, then speaks with the matching voice', async () => {
    const { win, spoken, loadVoices } = fakeWindow([]);
    const engine = new BrowserSpeechEngine(win);
    const outcome = outcomeOf(engine.speak('Bonjour', 'fr-FR', 1));
    await vi.advanceTimersByTimeAsync(100);
    expect(spoken).toEqual([]);
    loadVoices([{ lang: 'fr-FR', name: 'Denise' }]);
    await vi.advanceTimersByTimeAsync(0);
    expect(spoken[0]).toMatchObject({ text: 'Bonjour', voice: { name: 'Denise' } });
    spoken[0]?.onstart?.();
    spoken[0]?.onend?.();
    await vi.advanceTimersByTimeAsync(0);
    expect(outcome()).toBe('resolved');
  });

  it('decides there is no voice when the list stays empty, waiting only once per engine', async () => {
    const { win, voiceListeners } = fakeWindow([]);
    const engine = new BrowserSpeechEngine(win);
    const first = outcomeOf(engine.speak('Hello', 'en-US', 1));
    await vi.advanceTimersByTimeAsync(BROWSER_SPEECH_TIMINGS.voicesWaitMs - 1);
    expect(first()).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(first()).toBe('rejected: no speech voice for en-US');
    expect(voiceListeners).toEqual([]);
    const second = outcomeOf(engine.speak('Hello again', 'en-US', 1));
    await vi.advanceTimersByTimeAsync(0);
    expect(second()).toBe('rejected: no speech voice for en-US');
  });

  it('speaks nothing for a reply skipped while the voice list was loading', async () => {
    const { win, spoken, loadVoices } = fakeWindow([]);
    const engine = new BrowserSpeechEngine(win);
    const outcome = outcomeOf(engine.speak('Hello', 'en-US', 1));
    engine.stopSpeaking();
    loadVoices([{ lang: 'en-US', name: 'Samantha' }]);
    await vi.advanceTimersByTimeAsync(0);
    expect(outcome()).toBe('resolved');
    expect(spoken).toEqual([]);
  });
});

describe('the browser speech engine: edges', () => {
  it('can listen when the browser has SpeechRecognition, and does nothing on start without it', async () => {
    expect(new BrowserSpeechEngine(fakeWindow().win).canListen).toBe(true);
    const h = handlers();
    await expect(new BrowserSpeechEngine({} as never).startListening('en-US', h)).resolves.toBeUndefined();
    expect(h.health).toEqual([]);
  });

  it('passes on trimmed text, never an empty phrase, from the first new result on', async () => {
    const { win, recognitions } = fakeWindow();
    const engine = new BrowserSpeechEngine(win);
    const h = handlers();
    await engine.startListening('en-US', h);
    recognitions[0]?.emit(
      [
        { text: 'Already heard.', isFinal: true },
        { text: '   ', isFinal: true },
        { text: ' What is a quasar? ', isFinal: true },
        { text: ' and ', isFinal: false },
      ],
      1,
    );
    expect(h.heard).toEqual(['final:What is a quasar?', 'interim:and']);
  });

  it('logs which error the browser gave, and why a restart failed', async () => {
    const logged = vi.mocked(console.error);
    const { win, recognitions } = fakeWindow();
    const engine = new BrowserSpeechEngine(win, { ...BROWSER_SPEECH_TIMINGS, reconnectBackoffMs: [500] });
    await engine.startListening('en-US', handlers());
    const recognition = recognitions[0];
    if (!recognition) throw new Error('no recogniser');
    recognition.onerror?.({ error: 'network' });
    expect(logged.mock.calls.flat().join(' ')).toContain('speech recognition error: network');
    recognition.start = () => {
      throw new DOMException('busy', 'InvalidStateError');
    };
    recognition.onend?.();
    await vi.advanceTimersByTimeAsync(500);
    expect(logged.mock.calls.flat().map(String).join(' ')).toContain('starting speech recognition failed');
  });

  it('ends a denied session quietly: no interim text is cleared and nothing restarts', async () => {
    const { win, recognitions } = fakeWindow();
    const engine = new BrowserSpeechEngine(win);
    const h = handlers();
    await engine.startListening('en-US', h);
    recognitions[0]?.onerror?.({ error: 'service-not-allowed' });
    recognitions[0]?.onend?.();
    await vi.runAllTimersAsync();
    expect(h.heard).toEqual([]);
    expect(h.health).toEqual(['microphone_denied']);
    expect(recognitions[0]?.calls).toEqual(['start']);
  });

  it('starts a new session clean, whatever the last one went through', async () => {
    const { win, recognitions } = fakeWindow();
    const engine = new BrowserSpeechEngine(win);
    const first = handlers();
    await engine.startListening('en-US', first);
    recognitions[0]?.onerror?.({ error: 'network' });
    await engine.stopListening();
    const second = handlers();
    await engine.startListening('en-US', second);
    // The browser ends the new session after silence: a routine restart, not a reconnect.
    recognitions[1]?.onend?.();
    await vi.advanceTimersByTimeAsync(250);
    expect(recognitions[1]?.calls).toEqual(['start', 'start']);
    expect(second.health).toEqual([]);
  });

  it('stops listening even when the browser throws while aborting', async () => {
    const { win, recognitions } = fakeWindow();
    const engine = new BrowserSpeechEngine(win);
    await engine.startListening('en-US', handlers());
    const recognition = recognitions[0];
    if (!recognition) throw new Error('no recogniser');
    recognition.abort = () => {
      throw new DOMException('gone', 'InvalidStateError');
    };
    await expect(engine.stopListening()).resolves.toBeUndefined();
    expect(String(vi.mocked(console.error).mock.calls.at(-1)?.[0])).toContain(
      'stopping speech recognition failed',
    );
    await vi.runAllTimersAsync();
    expect(recognition.calls).toEqual(['start']);
  });

  it('refuses to speak without speechSynthesis or without SpeechSynthesisUtterance', async () => {
    const { win } = fakeWindow();
    const { SpeechSynthesisUtterance: _utterance, ...withoutUtterance } = win as unknown as Record<
      string,
      unknown
    >;
    const { speechSynthesis: _synthesis, ...withoutSynthesis } = win as unknown as Record<string, unknown>;
    for (const partial of [withoutUtterance, withoutSynthesis]) {
      await expect(new BrowserSpeechEngine(partial as never).speak('Hi', 'en-US', 1)).rejects.toThrow(
        'Speech synthesis is not available',
      );
    }
  });

  it('treats an utterance interrupted or cancelled by the browser as done, not failed', async () => {
    const { win, spoken } = fakeWindow();
    const engine = new BrowserSpeechEngine(win);
    const interrupted = engine.speak('One.', 'en-US', 1);
    const canceled = engine.speak('Two.', 'en-US', 1);
    await vi.advanceTimersByTimeAsync(0);
    spoken[0]?.onerror?.({ error: 'interrupted' });
    await expect(interrupted).resolves.toBeUndefined();
    await vi.advanceTimersByTimeAsync(0);
    spoken[1]?.onerror?.({ error: 'canceled' });
    await expect(canceled).resolves.toBeUndefined();
  });

  it('gives the next sentence its start deadline from when the one before it ends', async () => {
    const { win, spoken } = fakeWindow();
    const engine = new BrowserSpeechEngine(win);
    const first = outcomeOf(engine.speak('A long first sentence.', 'en-US', 1));
    const second = outcomeOf(engine.speak('Two.', 'en-US', 1));
    await vi.advanceTimersByTimeAsync(0);
    spoken[0]?.onstart?.();
    await vi.advanceTimersByTimeAsync(2_000);
    spoken[0]?.onend?.();
    await vi.advanceTimersByTimeAsync(2_000);
    expect([first(), second()]).toEqual(['resolved', 'pending']);
    // The second never starts: it is given up 3 s after it reached the head of the queue.
    await vi.advanceTimersByTimeAsync(1_000);
    expect(second()).toBe('rejected: Speech synthesis did not start in time');
  });

  it('keeps the speaking deadline of the sentence being spoken when an earlier one reports a late failure', async () => {
    const { win, spoken } = fakeWindow();
    const engine = new BrowserSpeechEngine(win);
    const text = 'A sentence the voice takes its time over.';
    const first = outcomeOf(engine.speak('One.', 'en-US', 1));
    const second = outcomeOf(engine.speak(text, 'en-US', 1));
    await vi.advanceTimersByTimeAsync(0);
    spoken[0]?.onstart?.();
    spoken[0]?.onend?.();
    await vi.advanceTimersByTimeAsync(0);
    spoken[1]?.onstart?.();
    spoken[0]?.onerror?.({ error: 'synthesis-failed' });
    await vi.advanceTimersByTimeAsync(BROWSER_SPEECH_TIMINGS.startDeadlineMs + 1);
    expect([first(), second()]).toEqual(['resolved', 'pending']);
    spoken[1]?.onend?.();
    await vi.advanceTimersByTimeAsync(0);
    expect(second()).toBe('resolved');
  });

  it('hands over the next sentence after one that failed, for the caller to decide', async () => {
    const { win, spoken } = fakeWindow();
    const engine = new BrowserSpeechEngine(win);
    const first = outcomeOf(engine.speak('One.', 'en-US', 1));
    const second = outcomeOf(engine.speak('Two.', 'en-US', 1));
    await vi.advanceTimersByTimeAsync(0);
    spoken[0]?.onerror?.({ error: 'synthesis-failed' });
    await vi.advanceTimersByTimeAsync(0);
    expect(first()).toBe('rejected: Speech synthesis error: synthesis-failed');
    expect(spoken.map((utterance) => utterance.text)).toEqual(['One.', 'Two.']);
    spoken[1]?.onstart?.();
    spoken[1]?.onend?.();
    await vi.advanceTimersByTimeAsync(0);
    expect(second()).toBe('resolved');
  });

  it('ignores a late end from a skipped sentence: the next reply still waits for its own', async () => {
    const { win, spoken } = fakeWindow();
    const engine = new BrowserSpeechEngine(win);
    void engine.speak('Skipped.', 'en-US', 1);
    await vi.advanceTimersByTimeAsync(0);
    engine.stopSpeaking();
    const next = outcomeOf(engine.speak('Next.', 'en-US', 1));
    await vi.advanceTimersByTimeAsync(0);
    spoken[1]?.onstart?.();
    spoken[0]?.onend?.();
    await vi.advanceTimersByTimeAsync(0);
    expect(next()).toBe('pending');
    spoken[1]?.onend?.();
    await vi.advanceTimersByTimeAsync(0);
    expect(next()).toBe('resolved');
  });

  it('leaves the browser’s speech alone when Skip finds nothing to stop', () => {
    const { win, canceled } = fakeWindow();
    new BrowserSpeechEngine(win).stopSpeaking();
    expect(canceled).toEqual([]);
  });

  it('keeps waiting when the voice list changes but is still empty', async () => {
    const { win, spoken, loadVoices } = fakeWindow([]);
    const engine = new BrowserSpeechEngine(win);
    void engine.speak('Bonjour', 'fr-FR', 1);
    await vi.advanceTimersByTimeAsync(100);
    loadVoices([]);
    await vi.advanceTimersByTimeAsync(100);
    loadVoices([{ lang: 'fr-FR', name: 'Denise' }]);
    await vi.advanceTimersByTimeAsync(0);
    expect(spoken[0]).toMatchObject({ voice: { name: 'Denise' } });
    engine.stopSpeaking();
  });

  it('waits out the voice list on a browser whose speechSynthesis has no events', async () => {
    const { win } = fakeWindow([]);
    const synthesis = (win as unknown as { speechSynthesis: Record<string, unknown> }).speechSynthesis;
    delete synthesis.addEventListener;
    delete synthesis.removeEventListener;
    const engine = new BrowserSpeechEngine(win);
    const outcome = outcomeOf(engine.speak('Hello', 'en-US', 1));
    await vi.advanceTimersByTimeAsync(BROWSER_SPEECH_TIMINGS.voicesWaitMs);
    expect(outcome()).toBe('rejected: no speech voice for en-US');
  });

  it('prefers the voice for the exact language and country, however the browser writes it', async () => {
    const { win, spoken } = fakeWindow([
      { lang: 'pt-PT', name: 'Joana' },
      { lang: 'pt_BR', name: 'Luciana' },
    ]);
    const engine = new BrowserSpeechEngine(win);
    void engine.speak('Olá', 'pt-BR', 1);
    await vi.advanceTimersByTimeAsync(0);
    expect(spoken[0]).toMatchObject({ voice: { name: 'Luciana' } });
    engine.stopSpeaking();
  });
});
