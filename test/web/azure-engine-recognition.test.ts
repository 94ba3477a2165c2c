import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PushMicrophone, startEngine, stopEngines, tokenFor } from './azure-speech-harness';

// The real Speech SDK recognising against the fake Azure Speech service (test/support/azure-speech-fake.ts).

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(async () => {
  await stopEngines();
  vi.restoreAllMocks();
});

describe('Azure recognition against the speech service protocol', () => {
  it('hears a whole utterance: hypotheses as interim text, then the phrase as final text', async () => {
    const { engine, service, heard } = await startEngine();
    await engine.startListening('en-US', heard);
    await vi.waitFor(() => expect(heard.health).toEqual(['listening']));

    service.fake.say('What is a comet?', { hypotheses: ['what', 'what is a'] });
    await vi.waitFor(() => expect(heard.events).toContain('final:What is a comet?'));
    expect(heard.events).toEqual([
      'health:listening',
      'interim:what',
      'interim:what is a',
      'final:What is a comet?',
    ]);
    const [socket] = service.fake.recognitionSockets();
    expect(socket?.query).toMatchObject({ language: 'en-US', format: 'simple' });
    expect(socket?.token).toBe('first-token');
    expect(socket?.audioBytes).toBeGreaterThan(0);
  });

  it('recognises in the conversation language', async () => {
    const { engine, service, heard } = await startEngine();
    await engine.startListening('ar-SA', heard);
    service.fake.say('ما هو المذنب؟');
    await vi.waitFor(() => expect(heard.events).toContain('final:ما هو المذنب؟'));
    expect(service.fake.recognitionSockets()[0]?.query.language).toBe('ar-SA');
  });

  it('clears the interim bubble when nothing is recognised or the phrase is empty', async () => {
    const { engine, service, heard } = await startEngine();
    await engine.startListening('en-US', heard);
    service.fake.hypothesize('hmm');
    service.fake.noMatch();
    service.fake.hypothesize('uh');
    service.fake.say('   ');
    await vi.waitFor(() => expect(service.fake.pendingUtterances).toBe(0));
    await vi.waitFor(() => expect(heard.events.filter((event) => event === 'interim:')).toHaveLength(2));
    expect(heard.events).toEqual(['health:listening', 'interim:hmm', 'interim:', 'interim:uh', 'interim:']);
  });

  it('waits longer for the end of a phrase while a check question is open, and goes back to the default after', async () => {
    const { engine, service, heard, microphone } = await startEngine();
    await engine.startListening('en-US', heard);
    await vi.waitFor(() => expect(heard.health).toEqual(['listening']));
    const sockets = () => service.fake.recognitionSockets();
    /** The segmentation the SDK asked for in this socket's speech.context (conversation mode). */
    const segmentationOf = (index: number) =>
      sockets()[index]?.contexts.map(
        (context) =>
          (context.phraseDetection?.conversation as { segmentation?: unknown } | undefined)?.segmentation,
      );
    await vi.waitFor(() => expect(sockets()[0]?.contexts.length).toBeGreaterThan(0));
    expect(segmentationOf(0)).toEqual([undefined]);
    expect(sockets()[0]?.query).not.toHaveProperty('segmentationSilenceTimeoutMs');
    // No check question open, and none was: nothing to rebuild.
    engine.setThinkTime(false);

    // A check question: the running recogniser is replaced by one asking for 1200 ms of silence.
    engine.setThinkTime(true);
    await vi.waitFor(() => expect(sockets()[1]?.contexts.length).toBeGreaterThan(0));
    expect(segmentationOf(1)).toEqual([{ mode: 'Custom', segmentationSilenceTimeoutMs: 1200 }]);
    expect(sockets()[1]?.query).toMatchObject({ segmentationSilenceTimeoutMs: '1200' });
    await vi.waitFor(() => expect(sockets()[0]?.closed).toBe(true));
    // The same microphone, no reconnecting on the way, and it hears the answer.
    expect(microphone.opened).toBe(2);
    service.fake.say('Jupiter');
    await vi.waitFor(() => expect(heard.events).toContain('final:Jupiter'));
    expect(heard.health).toEqual(['listening']);

    // Answered: back to the service's own default, and asking again for what is already set changes nothing.
    engine.setThinkTime(false);
    engine.setThinkTime(false);
    await vi.waitFor(() => expect(sockets()[2]?.contexts.length).toBeGreaterThan(0));
    expect(segmentationOf(2)).toEqual([undefined]);
    expect(sockets()[2]?.query).not.toHaveProperty('segmentationSilenceTimeoutMs');
    await vi.waitFor(() => expect(sockets()[1]?.closed).toBe(true));
    expect(sockets()).toHaveLength(3);
  });

  it('rebuilds the recogniser for a check question only once the reply being synthesized is done', async () => {
    const { engine, service, heard } = await startEngine();
    await engine.startListening('en-US', heard);
    await vi.waitFor(() => expect(heard.health).toEqual(['listening']));
    service.fake.scriptSynthesis({ kind: 'speak', firstByteDelayMs: 300 });
    const spoken = engine.speak('Which planet is closest to the Sun?', 'en-US', 1);
    engine.setThinkTime(true);
    // The reply's synthesis has the page to itself: the running recogniser stays as it is.
    await vi.waitFor(() => expect(service.fake.ssml).toHaveLength(1));
    expect(service.fake.recognitionSockets()).toHaveLength(1);
    await spoken;
    await vi.waitFor(() => expect(service.fake.recognitionSockets()).toHaveLength(2));
    expect(service.fake.recognitionSockets()[1]?.query).toMatchObject({
      segmentationSilenceTimeoutMs: '1200',
    });
  });

  it('a recogniser started while a check question is open asks for the longer silence from the start', async () => {
    const { engine, service, heard } = await startEngine();
    engine.setThinkTime(true);
    await engine.startListening('fr-FR', heard);
    const [socket] = service.fake.recognitionSockets();
    await vi.waitFor(() => expect(socket?.contexts.length).toBeGreaterThan(0));
    expect(socket?.query).toMatchObject({ language: 'fr-FR', segmentationSilenceTimeoutMs: '1200' });
    expect(service.fake.recognitionSockets()).toHaveLength(1);
  });

  it('reconnects after the service closes recognition with 1007, and the new socket carries microphone audio', async () => {
    const { engine, service, heard, microphone } = await startEngine();
    await engine.startListening('en-US', heard);
    await vi.waitFor(() => expect(heard.health).toEqual(['listening']));

    service.fake.dropRecognition(1007);
    await vi.waitFor(() => expect(heard.health).toEqual(['listening', 'reconnecting', 'listening']));
    expect(microphone.opened).toBe(2);
    // The new recogniser's socket carries audio (the SDK may also reconnect the dropped one, without audio).
    const last = () => service.fake.recognitionSockets().at(-1);
    await vi.waitFor(() => expect(last()?.audioBytes).toBeGreaterThan(3200));

    service.fake.say('Tell me about Mars');
    await vi.waitFor(() => expect(heard.events).toContain('final:Tell me about Mars'));
    await vi.waitFor(() =>
      expect(service.fake.recognitionSockets().filter((socket) => !socket.closed)).toEqual([last()]),
    );
  });

  it('keeps reconnecting with backoff while the service is unreachable, then comes back', async () => {
    const { engine, service, heard } = await startEngine({
      deadlines: {
        synthesisFirstByteMs: 2000,
        synthesisMs: 4000,
        synthesisPerCharMs: 0,
        recognizerMs: 300,
        tokenMs: 2000,
      },
    });
    service.fake.stallHandshakes = true;
    await engine.startListening('en-US', heard);
    // The recogniser's start never completes: its deadline fires and the engine retries.
    expect(heard.health).toEqual(['reconnecting']);
    service.fake.stallHandshakes = false;
    await vi.waitFor(() => expect(heard.health).toEqual(['reconnecting', 'listening']), { timeout: 5000 });
    service.fake.say('Hello again');
    await vi.waitFor(() => expect(heard.events).toContain('final:Hello again'));
  });

  it('waits longer after each failed reconnect, up to its longest wait, and comes back (§10.5)', async () => {
    // A scaled-down backoff: each wait is at least the one before, the last one repeats.
    const delays = [100, 200, 400];
    const microphone = new PushMicrophone();
    const built: number[] = [];
    try {
      const { engine, service, heard } = await startEngine({
        reconnectDelaysMs: delays,
        audioInput: () => {
          built.push(performance.now());
          return microphone.audioInput();
        },
      });
      // The service refuses every token the engine has or fetches: each new recogniser fails at once.
      service.fake.refusedTokens.add('first-token').add('second-token');
      await engine.startListening('en-US', heard);
      await vi.waitFor(() => expect(built.length).toBeGreaterThanOrEqual(5), { timeout: 5000 });
      service.fake.refusedTokens.clear();

      const waits = built.slice(1, 5).map((at, index) => at - (built[index] ?? at));
      // Each recogniser is built no sooner than its wait after the one before (a timer may round 1 ms down).
      [100, 200, 400, 400].forEach((delay, index) => expect(waits[index]).toBeGreaterThanOrEqual(delay - 1));
      await vi.waitFor(() => expect(heard.health.at(-1)).toBe('listening'), { timeout: 5000 });
      expect(heard.health).toEqual(['reconnecting', 'listening']);
    } finally {
      microphone.close();
    }
  });

  it('refreshes the token before it expires, reschedules, and the next socket carries the new token', async () => {
    let issued = 0;
    const fetchToken = vi.fn(async () => tokenFor(`token-${(issued += 1)}`, 60_150));
    // 60.15 s left: refreshed 60 s before expiry, i.e. after 150 ms, and again 150 ms after that.
    const { engine, service, heard } = await startEngine({
      token: tokenFor('first-token', 60_150),
      fetchToken,
    });
    await engine.startListening('en-US', heard);
    await vi.waitFor(() => expect(fetchToken.mock.calls.length).toBeGreaterThanOrEqual(2));

    service.fake.dropRecognition(1007);
    await vi.waitFor(() => expect(heard.health).toEqual(['listening', 'reconnecting', 'listening']));
    const [first, ...later] = service.fake.recognitionSockets();
    expect(first?.token).toBe('first-token');
    expect(later.length).toBeGreaterThan(0);
    for (const socket of later) expect(socket.token).toMatch(/^token-\d+$/);
  });

  it('fetches a fresh token when the service refuses the one it has', async () => {
    const fetchToken = vi.fn(async () => tokenFor('second-token'));
    const { engine, service, heard } = await startEngine({ fetchToken });
    service.fake.refusedTokens.add('first-token');
    await engine.startListening('en-US', heard);
    await vi.waitFor(() => expect(heard.health).toEqual(['reconnecting', 'listening']), { timeout: 5000 });
    expect(fetchToken).toHaveBeenCalledTimes(1);
    const open = service.fake.recognitionSockets();
    expect(open.at(-1)?.token).toBe('second-token');
    service.fake.say('Hello with a new token');
    await vi.waitFor(() => expect(heard.events).toContain('final:Hello with a new token'));
    // The refusals were logged, and no log line carries a token.
    const logged = vi.mocked(console.error).mock.calls.flat().map(String).join('\n');
    expect(logged).toMatch(/speech recognition/);
    expect(logged).not.toMatch(/first-token|second-token/);
  });

  it('gives up on a token request that never answers, aborts it, and tries again later', async () => {
    const signals: AbortSignal[] = [];
    const fetchToken = vi.fn((signal?: AbortSignal) => {
      if (signal) signals.push(signal);
      return new Promise<never>(() => undefined);
    });
    await startEngine({
      token: tokenFor('first-token', 60_000),
      fetchToken,
      tokenRetryMs: 100,
      deadlines: {
        synthesisFirstByteMs: 2000,
        synthesisMs: 4000,
        synthesisPerCharMs: 0,
        recognizerMs: 2000,
        tokenMs: 100,
      },
    });
    await vi.waitFor(() => expect(fetchToken).toHaveBeenCalledTimes(2));
    expect(signals[0]?.aborted).toBe(true);
  });

  it('says the microphone is denied and does not retry', async () => {
    const denied = vi.fn(() => {
      throw new DOMException('Permission denied', 'NotAllowedError');
    });
    const { engine, heard, service } = await startEngine({ audioInput: denied, reconnectDelaysMs: [10] });
    await engine.startListening('en-US', heard);
    expect(heard.health).toEqual(['microphone_denied']);
    // Well past the backoff: nothing was retried.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(denied).toHaveBeenCalledTimes(1);
    expect(service.fake.recognitionSockets()).toHaveLength(0);
  });

  it('takes a SecurityError as a refused microphone too, and anything else thrown as a failure to retry', async () => {
    const secure = vi.fn(() => {
      throw new DOMException('Insecure context', 'SecurityError');
    });
    const denied = await startEngine({ audioInput: secure, reconnectDelaysMs: [10] });
    await denied.engine.startListening('en-US', denied.heard);
    expect(denied.heard.health).toEqual(['microphone_denied']);
    let calls = 0;
    const flaky = vi.fn(() => {
      calls += 1;
      // Not every runtime throws an Error: a plain value is no refusal, just a failure.
      if (calls === 1) throw 'no audio device';
      throw null;
    });
    const failing = await startEngine({ audioInput: flaky, reconnectDelaysMs: [10] });
    await failing.engine.startListening('en-US', failing.heard);
    expect(failing.heard.health).toEqual(['reconnecting']);
    await vi.waitFor(() => expect(flaky.mock.calls.length).toBeGreaterThan(2));
    expect(failing.heard.health).toEqual(['reconnecting']);
  });

  it('stops listening within its deadline when the service never ends the turn', async () => {
    const { engine, service, heard } = await startEngine({
      deadlines: {
        synthesisFirstByteMs: 2000,
        synthesisMs: 4000,
        synthesisPerCharMs: 0,
        recognizerMs: 200,
        tokenMs: 2000,
      },
    });
    await engine.startListening('en-US', heard);
    // In a service turn (audio flowing), so the stop waits for the service to end it.
    await vi.waitFor(() => expect(service.fake.recognitionSockets()[0]?.audioBytes).toBeGreaterThan(3200));
    service.fake.ignoreEndOfStream = true;
    await engine.stopListening();
    expect(console.error).toHaveBeenCalledWith(
      expect.stringContaining('stopping speech recognition failed'),
      expect.anything(),
    );
    // A stop is not an outage: nothing reconnects.
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(service.fake.recognitionSockets()).toHaveLength(1);
    expect(heard.health).toEqual(['listening']);
  });
});
