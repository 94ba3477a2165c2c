import * as sdk from 'microsoft-cognitiveservices-speech-sdk';
import type { SpeechTokenResponse } from '#contract/schemas';
import type { AudioOutput } from '#web/speech/audio-player';
import type { SpeechAudio } from '#web/speech/speech-audio';
import { AzureSpeechEngine, type AzureEngineOptions, type SpeechDeadlines } from '#web/speech/azure-engine';
import type { ListeningHealth, RecognitionHandlers } from '#web/speech/engine';
import { startAzureSpeechServer, type AzureSpeechServer } from '#support/azure-speech-server';

/**
 * A stand-in microphone for the real SDK in Node: each recogniser gets its own push stream, and a pump
 * writes 20 ms of 16 kHz 16-bit mono PCM to the newest one every 20 ms, as a live microphone would.
 */
export class PushMicrophone {
  opened = 0;
  private streams: sdk.PushAudioInputStream[] = [];
  private readonly pump = setInterval(() => this.streams.at(-1)?.write(new ArrayBuffer(640)), 20);

  readonly audioInput = (): sdk.AudioConfig => {
    this.opened += 1;
    const stream = sdk.AudioInputStream.createPushStream();
    this.streams.push(stream);
    return sdk.AudioConfig.fromStreamInput(stream);
  };

  close(): void {
    clearInterval(this.pump);
    for (const stream of this.streams) stream.close();
  }
}

/** Where the engine's synthesized audio goes: recorded, and held until the test lets it end. */
export class RecordingOutput implements AudioOutput {
  readonly played: {
    bytes: Uint8Array;
    type: string;
    rate: number;
    expectedMs: number | undefined;
    primer: Uint8Array | undefined;
  }[] = [];
  readonly rates: number[] = [];
  stops = 0;
  /** While true, each play() waits for finish() (or stop()). */
  hold = false;
  private ends: (() => void)[] = [];

  async play(audio: SpeechAudio, rate: number): Promise<void> {
    const bytes = await audio.whole();
    this.played.push({ bytes, type: audio.type, rate, expectedMs: audio.durationMs, primer: audio.primer });
    if (this.hold) await new Promise<void>((resolve) => this.ends.push(resolve));
  }

  finish(): void {
    this.ends.shift()?.();
  }

  setRate(rate: number): void {
    this.rates.push(rate);
  }

  stop(): void {
    this.stops += 1;
    for (const end of this.ends.splice(0)) end();
  }
}

/** What recognition reported, in order. */
export class HeardLog implements RecognitionHandlers {
  readonly events: string[] = [];
  readonly health: ListeningHealth[] = [];
  onInterim = (text: string) => void this.events.push(`interim:${text}`);
  onFinal = (text: string) => void this.events.push(`final:${text}`);
  onHealth = (health: ListeningHealth) => {
    this.health.push(health);
    this.events.push(`health:${health}`);
  };
}

export const tokenFor = (token: string, msLeft = 10 * 60_000): SpeechTokenResponse => ({
  token,
  region: 'eastus',
  expiresAt: new Date(Date.now() + msLeft).toISOString(),
});

/** Short deadlines and backoff so faults resolve in a test's time; each test overrides what it proves. */
export const TEST_DEADLINES: SpeechDeadlines = {
  synthesisFirstByteMs: 2000,
  synthesisMs: 4000,
  synthesisPerCharMs: 0,
  recognizerMs: 2000,
  tokenMs: 2000,
};

export interface EngineRig {
  readonly engine: AzureSpeechEngine;
  readonly service: AzureSpeechServer;
  readonly microphone: PushMicrophone;
  readonly output: RecordingOutput;
  readonly heard: HeardLog;
}

const rigs: EngineRig[] = [];

/** The real engine and the real SDK against the fake service on 127.0.0.1. */
export async function startEngine(overrides: Partial<AzureEngineOptions> = {}): Promise<EngineRig> {
  const service = await startAzureSpeechServer();
  const microphone = new PushMicrophone();
  const output = new RecordingOutput();
  const engine = new AzureSpeechEngine(sdk, {
    token: tokenFor('first-token'),
    fetchToken: async () => tokenFor('second-token'),
    player: output,
    serviceHost: service.url,
    audioInput: microphone.audioInput,
    deadlines: TEST_DEADLINES,
    reconnectDelaysMs: [50, 100],
    ...overrides,
  });
  const rig = { engine, service, microphone, output, heard: new HeardLog() };
  rigs.push(rig);
  return rig;
}

/** Disposes every engine the test started and closes its fake service. */
export async function stopEngines(): Promise<void> {
  for (const rig of rigs.splice(0)) {
    rig.engine.dispose();
    rig.microphone.close();
    await rig.service.close();
  }
}
