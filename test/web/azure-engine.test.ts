// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  AzureSpeechEngine,
  ssmlFor,
  type AzureEngineOptions,
  type SpeechSdk,
} from '../../web/src/speech/azure-engine';
import type { AudioOutput } from '../../web/src/speech/audio-player';

/**
 * A stand-in for the slice of the Azure Speech SDK the engine uses (the real one needs Azure's
 * websockets): it records what the engine configured and lets the test fire recogniser events.
 */
function fakeSdk() {
  const configs: {
    token: string;
    region: string;
    speechRecognitionLanguage?: string;
    speechSynthesisOutputFormat?: number;
  }[] = [];
  const recognizers: FakeRecognizer[] = [];
  const synthesizers: FakeSynthesizer[] = [];
  const ResultReason = { RecognizedSpeech: 3, SynthesizingAudioCompleted: 10, Canceled: 1 };

  class FakeRecognizer {
    authorizationToken = '';
    recognizing: ((sender: unknown, event: { result: { text: string } }) => void) | null = null;
    recognized: ((sender: unknown, event: { result: { text: string; reason: number } }) => void) | null =
      null;
    canceled: ((sender: unknown, event: { reason: number }) => void) | null = null;
    calls: string[] = [];
    constructor(
      readonly config: (typeof configs)[number],
      readonly audio: { stream: MediaStream; properties: Record<string, string> },
    ) {
      this.authorizationToken = config.token;
      recognizers.push(this);
    }
    startContinuousRecognitionAsync(done: () => void) {
      this.calls.push('start');
      done();
    }
    stopContinuousRecognitionAsync(done: () => void) {
      this.calls.push('stop');
      done();
    }
    close() {
      this.calls.push('close');
    }
  }

  class FakeSynthesizer {
    ssml = '';
    closed = false;
    constructor(
      readonly config: (typeof configs)[number],
      readonly audio: unknown,
    ) {
      synthesizers.push(this);
    }
    speakSsmlAsync(
      ssml: string,
      done: (result: { reason: number; audioData: ArrayBuffer; errorDetails?: string }) => void,
    ) {
      this.ssml = ssml;
      done({ reason: ResultReason.SynthesizingAudioCompleted, audioData: new Uint8Array([1, 2, 3]).buffer });
    }
    close() {
      this.closed = true;
    }
  }

  const sdk = {
    SpeechConfig: {
      fromAuthorizationToken: (token: string, region: string) => {
        const config = { token, region };
        configs.push(config);
        return config;
      },
    },
    AudioConfig: {
      fromStreamInput: (stream: MediaStream) => {
        const properties: Record<string, string> = {};
        return {
          stream,
          properties,
          setProperty: (name: string, value: string) => (properties[name] = value),
        };
      },
    },
    SpeechRecognizer: FakeRecognizer,
    SpeechSynthesizer: FakeSynthesizer,
    ResultReason,
    CancellationReason: { 0: 'Error', 1: 'EndOfStream' },
    SpeechSynthesisOutputFormat: { Audio16Khz32KBitRateMonoMp3: 3 },
  };
  // The fake covers only what the engine calls; the cast says so.
  return { sdk: sdk as unknown as SpeechSdk, configs, recognizers, synthesizers };
}

function fakeMicrophone() {
  const stopped: string[] = [];
  const stream = { getTracks: () => [{ stop: () => stopped.push('track') }] } as unknown as MediaStream;
  return { stream, stopped };
}

class RecordingOutput implements AudioOutput {
  played: { bytes: number; type: string; rate: number }[] = [];
  rates: number[] = [];
  stops = 0;
  async play(audio: Blob, rate: number) {
    this.played.push({ bytes: audio.size, type: audio.type, rate });
  }
  setRate(rate: number) {
    this.rates.push(rate);
  }
  stop() {
    this.stops += 1;
  }
}

const NOW = Date.parse('2030-01-01T00:00:00.000Z');
const tokenAt = (token: string, minutesLeft: number) => ({
  token,
  region: 'eastus',
  expiresAt: new Date(NOW + minutesLeft * 60_000).toISOString(),
});

function engineWith(overrides: Partial<AzureEngineOptions> = {}) {
  const fake = fakeSdk();
  const mic = fakeMicrophone();
  const output = new RecordingOutput();
  const engine = new AzureSpeechEngine(fake.sdk, {
    token: tokenAt('first-token', 10),
    fetchToken: async () => tokenAt('second-token', 10),
    player: output,
    getMicrophone: async () => mic.stream,
    now: () => NOW,
    ...overrides,
  });
  return { engine, fake, mic, output };
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('the Azure speech engine', () => {
  it('recognises continuously in the locale with the token, passing interim and final text', async () => {
    const { engine, fake } = engineWith();
    const heard: string[] = [];
    await engine.startListening('es-ES', {
      onInterim: (text) => heard.push(`interim:${text}`),
      onFinal: (text) => heard.push(`final:${text}`),
      onHealth: () => undefined,
    });
    const recognizer = fake.recognizers[0];
    expect(fake.configs[0]).toMatchObject({
      token: 'first-token',
      region: 'eastus',
      speechRecognitionLanguage: 'es-ES',
    });
    expect(recognizer?.calls).toEqual(['start']);
    // The SDK's own worklet file, same-origin, so a strict CSP does not block the microphone pipeline.
    expect(recognizer?.audio.properties['MICROPHONE-WorkletSourceUrl']).toMatch(/speech-processor[^/]*\.js/);
    recognizer?.recognizing?.(null, { result: { text: 'qué es' } });
    recognizer?.recognized?.(null, { result: { text: ' ¿Qué es un cometa? ', reason: 3 } });
    recognizer?.recognized?.(null, { result: { text: '', reason: 0 } });
    expect(heard).toEqual(['interim:qué es', 'final:¿Qué es un cometa?']);
    engine.dispose();
  });

  it('synthesizes SSML with the locale voice as 16 kHz 32 kbps mono MP3 and plays it at the speed', async () => {
    const { engine, fake, output } = engineWith();
    await engine.speak('Saturn & "rings" <3', 'de-DE', 1.25);
    const synthesizer = fake.synthesizers[0];
    expect(synthesizer?.audio).toBeNull();
    expect(synthesizer?.config.speechSynthesisOutputFormat).toBe(3);
    expect(synthesizer?.ssml).toBe(ssmlFor('Saturn & "rings" <3', 'de-DE'));
    expect(synthesizer?.ssml).toContain('<voice name="de-DE-KatjaNeural">');
    expect(synthesizer?.ssml).toContain('Saturn &#38; &#34;rings&#34; &#60;3');
    expect(synthesizer?.closed).toBe(true);
    expect(output.played).toEqual([{ bytes: 3, type: 'audio/mpeg', rate: 1.25 }]);
    engine.setSpeed(2);
    expect(output.rates).toEqual([2]);
    engine.dispose();
  });

  it('refreshes the token a minute before it expires and sets it on the live recogniser', async () => {
    const fetchToken = vi.fn(async () => tokenAt('second-token', 10));
    const { engine, fake } = engineWith({ fetchToken });
    await engine.startListening('en-US', {
      onInterim: () => undefined,
      onFinal: () => undefined,
      onHealth: () => undefined,
    });
    await vi.advanceTimersByTimeAsync(8 * 60_000);
    expect(fetchToken).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fetchToken).toHaveBeenCalledTimes(1);
    expect(fake.recognizers[0]?.authorizationToken).toBe('second-token');
    expect(fake.recognizers).toHaveLength(1);
    // Later syntheses use the new token too.
    await engine.speak('Hi', 'en-US', 1);
    expect(fake.synthesizers[0]?.config.token).toBe('second-token');
    engine.dispose();
  });

  it('stops and closes the recogniser and releases the microphone on stop and dispose', async () => {
    const { engine, fake, mic, output } = engineWith();
    await engine.startListening('en-US', {
      onInterim: () => undefined,
      onFinal: () => undefined,
      onHealth: () => undefined,
    });
    engine.dispose();
    await vi.runAllTimersAsync();
    expect(fake.recognizers[0]?.calls).toEqual(['start', 'stop', 'close']);
    expect(mic.stopped).toEqual(['track']);
    expect(output.stops).toBe(1);
  });

  it('fails the speech when synthesis is canceled, so the conversation returns to listening', async () => {
    const { engine, fake } = engineWith();
    const original = fake.sdk.SpeechSynthesizer.prototype.speakSsmlAsync;
    fake.sdk.SpeechSynthesizer.prototype.speakSsmlAsync = function (_ssml, done) {
      done?.({ reason: 1, audioData: new ArrayBuffer(0), errorDetails: 'canceled' } as never);
    };
    await expect(engine.speak('Hi', 'en-US', 1)).rejects.toThrow(/did not complete/);
    fake.sdk.SpeechSynthesizer.prototype.speakSsmlAsync = original;
    engine.dispose();
  });
});
