import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DeadlineError } from '#web/lib/deadline';
import * as speechText from '#web/conversation/speech-text';
import { SpokenReply } from '#web/conversation/spoken-reply';
import { silentMp3 } from '#support/silent-mp3';
import { startEngine, stopEngines, TEST_DEADLINES } from './azure-speech-harness';

// The real Speech SDK synthesizing against the fake Azure Speech service (test/support/azure-speech-fake.ts).

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(async () => {
  await stopEngines();
  vi.restoreAllMocks();
});

const MP3_FORMAT = 'audio-16khz-32kbitrate-mono-mp3';

describe('Azure synthesis against the speech service protocol', () => {
  it("speaks each language in its voice, as 16 kHz 32 kbps mono MP3, over the conversation's one connection", async () => {
    const { engine, service, output } = await startEngine();
    // The connection is opened at Start, before the first reply.
    await vi.waitFor(() => expect(service.fake.synthesisSockets()).toHaveLength(1));

    await engine.speak('Hello, stargazer!', 'en-US', 1);
    await engine.speak('Bonjour, les étoiles !', 'fr-FR', 1.25);
    await engine.speak('مرحبا بالنجوم', 'ar-SA', 2);

    expect(service.fake.ssml.map(({ lang, voice, outputFormat }) => ({ lang, voice, outputFormat }))).toEqual(
      [
        { lang: 'en-US', voice: 'en-US-JennyNeural', outputFormat: MP3_FORMAT },
        { lang: 'fr-FR', voice: 'fr-FR-DeniseNeural', outputFormat: MP3_FORMAT },
        { lang: 'ar-SA', voice: 'ar-SA-HamedNeural', outputFormat: MP3_FORMAT },
      ],
    );
    expect(service.fake.ssml[1]?.ssml).toContain('>Bonjour, les étoiles !</voice>');
    expect(output.played.map(({ type, rate }) => ({ type, rate }))).toEqual([
      { type: 'audio/mpeg', rate: 1 },
      { type: 'audio/mpeg', rate: 1.25 },
      { type: 'audio/mpeg', rate: 2 },
    ]);
    for (const played of output.played) {
      expect(played.bytes).toEqual(service.fake.audio);
      // 32 kbit/s: the bytes say how long the reply lasts.
      expect(played.expectedMs).toBe(service.fake.audio.byteLength / 4);
      // The player sets its media pipeline up with one silent frame of the same format (one 36 ms frame).
      expect(played.primer).toEqual(silentMp3(36));
    }
    expect(service.fake.synthesisSockets()).toHaveLength(1);
    expect(service.fake.synthesisSockets()[0]).toMatchObject({
      syntheses: 3,
      token: 'first-token',
      closed: false,
    });
  });

  it('synthesizes the next reply while the one before it plays', async () => {
    const { engine, service, output } = await startEngine();
    output.hold = true;
    const first = engine.speak('The Moon has no air.', 'en-US', 1);
    const second = engine.speak('So there is no sound there.', 'en-US', 1);
    await vi.waitFor(() => expect(service.fake.ssml).toHaveLength(2));
    expect(output.played).toHaveLength(1);
    output.finish();
    await first;
    await vi.waitFor(() => expect(output.played).toHaveLength(2));
    output.finish();
    await second;
  });

  it('abandons a reply the service never answers, and speaks the next one on a new synthesizer', async () => {
    // The next reply's new synthesizer connects and hears its first audio within this deadline too: room
    // for a machine with every core busy (200 ms was once not enough under npm run check).
    const { engine, service, output } = await startEngine({
      deadlines: { ...TEST_DEADLINES, synthesisFirstByteMs: 1000 },
    });
    service.fake.scriptSynthesis({ kind: 'silent' });
    await expect(engine.speak('Lost words', 'en-US', 1)).rejects.toBeInstanceOf(DeadlineError);
    await engine.speak('Found words', 'en-US', 1);
    expect(output.played).toHaveLength(1);
    const sockets = service.fake.synthesisSockets();
    expect(sockets).toHaveLength(2);
    await vi.waitFor(() => expect(sockets[0]?.closed).toBe(true));
    expect(sockets[1]?.syntheses).toBe(1);
  });

  it('abandons a reply when the service closes the socket normally after the SSML, and recovers', async () => {
    const { engine, service, output } = await startEngine({
      deadlines: { ...TEST_DEADLINES, synthesisFirstByteMs: 1000 },
    });
    service.fake.scriptSynthesis({ kind: 'close', code: 1000 });
    await expect(engine.speak('Cut short', 'en-US', 1)).rejects.toBeInstanceOf(DeadlineError);
    await engine.speak('Heard in full', 'en-US', 1);
    expect(output.played).toHaveLength(1);
    // The SDK reconnects the closed line on its own; the engine drops that synthesizer all the same.
    const sockets = service.fake.synthesisSockets();
    expect(sockets[0]?.syntheses).toBe(1);
    expect(sockets.at(-1)).not.toBe(sockets[0]);
    expect(sockets.at(-1)?.syntheses).toBe(1);
    await vi.waitFor(() => expect(sockets.slice(0, -1).every((socket) => socket.closed)).toBe(true));
  });

  it('waits for a slow first byte within the deadline, and abandons one past it', async () => {
    const { engine, service, output } = await startEngine({
      deadlines: { ...TEST_DEADLINES, synthesisFirstByteMs: 1000 },
    });
    // 50 ms is well within the deadline even on a machine with every core busy; 2.5 s is well past it.
    service.fake.scriptSynthesis(
      { kind: 'speak', firstByteDelayMs: 50 },
      { kind: 'speak', firstByteDelayMs: 2500 },
    );
    await engine.speak('Slow but fine', 'en-US', 1);
    await expect(engine.speak('Too slow', 'en-US', 1)).rejects.toThrow(/first synthesized audio/);
    expect(output.played).toHaveLength(1);
  });

  it('lets a long synthesis whose audio came in time run past the first-audio deadline (§10.15)', async () => {
    const { engine, service, output } = await startEngine({
      deadlines: { ...TEST_DEADLINES, synthesisFirstByteMs: 800, synthesisMs: 8000 },
    });
    // 2,800 bytes in 7 frames 400 ms apart: the last comes 2.4 s after the first, 3 times the first-audio
    // deadline and well within the whole synthesis's 8 s.
    service.fake.audioChunkBytes = 400;
    service.fake.scriptSynthesis({ kind: 'speak', frameGapMs: 400 });

    await engine.speak('Saturn’s rings are made of ice and rock, some as small as dust.', 'en-US', 1);

    expect(output.played).toHaveLength(1);
    expect(output.played[0]?.bytes).toEqual(service.fake.audio);
    expect(service.fake.synthesisSockets()).toHaveLength(1);
  });

  it('abandons a synthesis whose audio starts but never completes', async () => {
    const { engine, service } = await startEngine({
      deadlines: { ...TEST_DEADLINES, synthesisFirstByteMs: 2000, synthesisMs: 300, synthesisPerCharMs: 10 },
    });
    service.fake.scriptSynthesis({ kind: 'speak', endTurn: false });
    // The whole synthesis gets 300 ms and 10 ms a character: 420 ms for these 12.
    await expect(engine.speak('Never ending', 'en-US', 1)).rejects.toThrow(
      new DeadlineError('speech synthesis', 420),
    );
  });

  it('Skip stops the reply being synthesized and everything queued, and the next reply is spoken', async () => {
    const { engine, service, output } = await startEngine();
    service.fake.scriptSynthesis({ kind: 'silent' });
    const first = engine.speak('Stuck in synthesis', 'en-US', 1);
    const second = engine.speak('Queued behind it', 'en-US', 1);
    await vi.waitFor(() => expect(service.fake.ssml).toHaveLength(1));
    engine.stopSpeaking();
    await expect(first).resolves.toBeUndefined();
    await expect(second).resolves.toBeUndefined();
    expect(service.fake.ssml).toHaveLength(1);
    expect(output.played).toHaveLength(0);

    await engine.speak('After the skip', 'en-US', 1);
    expect(output.played).toHaveLength(1);
    expect(service.fake.synthesisSockets()).toHaveLength(2);
  });

  it('Skip stops the reply that is playing and drops the one synthesized behind it', async () => {
    const { engine, service, output } = await startEngine();
    output.hold = true;
    const first = engine.speak('Playing now', 'en-US', 1);
    const second = engine.speak('Ready next', 'en-US', 1);
    await vi.waitFor(() => expect(service.fake.ssml).toHaveLength(2));
    await vi.waitFor(() => expect(output.played).toHaveLength(1));
    engine.stopSpeaking();
    await first;
    await second;
    expect(output.played).toHaveLength(1);
    expect(output.stops).toBe(1);
    // Nothing was in flight: the connection is kept.
    expect(service.fake.synthesisSockets()).toHaveLength(1);
  });

  it('applies a new speed to what plays next', async () => {
    const { engine, output } = await startEngine();
    engine.setSpeed(1.5);
    expect(output.rates).toEqual([1.5]);
  });

  it('speaks a streamed reply without its markdown, with units in words and names said right', async () => {
    const { engine, service, output } = await startEngine();
    const reply = new SpokenReply({
      text: () => speechText,
      engine: () => engine,
      locale: 'en-US',
      speed: () => 1,
      onNoVoice: () => undefined,
    });
    const shown =
      '## **Betelgeuse**, a *red* supergiant\nIt is ~550 ly away, and `M42` is 1,344 ly away.\n' +
      '- Its surface: 3,500 K\n- See [Orion](https://example.org/orion) & Rigel!';
    for (let at = 0; at < shown.length; at += 4) reply.add(shown.slice(at, at + 4));
    await reply.finish();

    const bodies = service.fake.ssml.map(
      ({ ssml }) => /<voice name="en-US-JennyNeural">(.*)<\/voice>/s.exec(ssml)?.[1],
    );
    expect(bodies).toEqual([
      '<phoneme alphabet="ipa" ph="ˈbitəldʒuz">Betelgeuse</phoneme>, a red supergiant.',
      'It is about 550 light-years away, and <phoneme alphabet="ipa" ph="ˈmɛsieɪ">Messier</phoneme> 42 is 1,344 light-years away.',
      'Its surface: 3,500 kelvins.',
      'See <phoneme alphabet="ipa" ph="əˈɹaɪən">Orion</phoneme> &#38; <phoneme alphabet="ipa" ph="ˈɹaɪdʒəl">Rigel</phoneme>!',
    ]);
    expect(output.played).toHaveLength(4);
  });
});
