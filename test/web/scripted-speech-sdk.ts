import type { SpeechTokenResponse } from '#contract/schemas';
import type { AudioOutput } from '#web/speech/audio-player';
import type { SpeechSdk } from '#web/speech/azure-engine';
import type { RecognitionHandlers } from '#web/speech/engine';

/** An audio output that plays everything at once, silently. */
export const silentOutput: AudioOutput = {
  play: async () => undefined,
  setRate: () => undefined,
  stop: () => undefined,
};

/** Recognition handlers that ignore everything. */
export const quiet: RecognitionHandlers = {
  onInterim: () => undefined,
  onFinal: () => undefined,
  onHealth: () => undefined,
};

/** A token named `name` that expires `ms` from now (the test's clock). */
export const tokenLasting = (name: string, ms: number): SpeechTokenResponse => ({
  token: name,
  region: 'eastus',
  expiresAt: new Date(Date.now() + ms).toISOString(),
});

/**
 * The slice of the Azure Speech SDK the engine's microphone and token paths touch, recording what the
 * engine did with it: for the browser-only paths Node cannot run for real (no MediaStream, no
 * AudioContext). The real SDK against the fake speech service covers the rest
 * (azure-engine-recognition and azure-engine-synthesis tests).
 */
export function scriptedSdk() {
  const recognizers: ScriptedRecognizer[] = [];
  const synthesizers: ScriptedSynthesizer[] = [];
  const audioConfigs: { stream: MediaStream; properties: Record<string, string> }[] = [];

  class ScriptedRecognizer {
    calls: string[] = [];
    authorizationToken = '';
    canceled:
      ((sender: unknown, event: { reason: number; errorCode: number; errorDetails: string }) => void) | null =
      null;
    sessionStarted: (() => void) | null = null;
    constructor(
      readonly config: { authorizationToken: string },
      readonly audio: (typeof audioConfigs)[number],
    ) {
      this.authorizationToken = config.authorizationToken;
      recognizers.push(this);
    }
    startContinuousRecognitionAsync(done: () => void) {
      this.calls.push('start');
      this.sessionStarted?.();
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

  class ScriptedSynthesizer {
    authorizationToken = '';
    closed = false;
    constructor(readonly config: { authorizationToken: string }) {
      this.authorizationToken = config.authorizationToken;
      synthesizers.push(this);
    }
    close() {
      this.closed = true;
    }
  }

  const config = (token: string) => ({ authorizationToken: token, setProperty: () => undefined });
  const sdk = {
    SpeechConfig: { fromAuthorizationToken: config },
    AudioConfig: {
      fromStreamInput: (stream: MediaStream) => {
        const audio = { stream, properties: {} as Record<string, string> };
        audioConfigs.push(audio);
        return { ...audio, setProperty: (name: string, value: string) => (audio.properties[name] = value) };
      },
    },
    SpeechRecognizer: ScriptedRecognizer,
    SpeechSynthesizer: ScriptedSynthesizer,
    Connection: { fromSynthesizer: () => ({ openConnection: () => undefined }) },
    PropertyId: { WebWorkerLoadType: 65, Recognizer_StopTimeoutMs: 9000 },
    ResultReason: { RecognizedSpeech: 3 },
    CancellationReason: { 0: 'Error' },
    CancellationErrorCode: { 4: 'ConnectionFailure', AuthenticationFailure: 1 },
    SpeechSynthesisOutputFormat: { Audio16Khz32KBitRateMonoMp3: 3 },
  };
  // The stand-in covers only what these paths call; the cast says so.
  return { sdk: sdk as unknown as SpeechSdk, recognizers, synthesizers, audioConfigs };
}

/** A microphone stream whose tracks record being stopped. */
export function scriptedMicrophone() {
  const stopped: string[] = [];
  const stream = { getTracks: () => [{ stop: () => stopped.push('track') }] } as unknown as MediaStream;
  return { stream, stopped };
}
